# Deal 3 (smartstack) counterpart of balanced_22_24.dlr: North balanced with 22-24 HCP.
shapeclass bench_balanced {expr {($s<=5 && $h<=5 && $d<=5 && $c<=5) && ($s>=2 && $h>=2 && $d>=2 && $c>=2) && (($s==5)+($h==5)+($d==5)+($c==5)<=1) && (($s==2)+($h==2)+($d==2)+($c==2)<=1)}}
deal::input smartstack north bench_balanced hcp 22 24
