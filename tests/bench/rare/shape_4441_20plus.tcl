# Deal 3 (smartstack) counterpart of shape_4441_20plus.dlr: North 4-4-4-1 with 20+ HCP.
shapeclass bench_4441 {expr {($s==1 || $s==4) && ($h==1 || $h==4) && ($d==1 || $d==4) && ($c==1 || $c==4)}}
deal::input smartstack north bench_4441 hcp 20 37
