# Deal 3 (smartstack) counterpart of two_seats.dlr: North 1NT (smartstack), South a game force
# with a 5-card major (judged in main).
shapeclass bench_balanced {expr {($s<=5 && $h<=5 && $d<=5 && $c<=5) && ($s>=2 && $h>=2 && $d>=2 && $c>=2) && (($s==5)+($h==5)+($d==5)+($c==5)<=1) && (($s==2)+($h==2)+($d==2)+($c==2)<=1)}}
deal::input smartstack north bench_balanced hcp 15 17
main {
    reject if {[hcp south] < 13}
    accept if {[spades south] == 5 || [hearts south] == 5}
}
