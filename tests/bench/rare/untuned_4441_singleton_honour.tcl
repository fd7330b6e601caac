# Deal 3 (smartstack) counterpart of untuned_4441_singleton_honour.dlr: South 4-4-4-1, 11-15 HCP,
# the singleton the ace, king or queen.
shapeclass bench_4441 {expr {($s==1 || $s==4) && ($h==1 || $h==4) && ($d==1 || $d==4) && ($c==1 || $c==4)}}
holdingProc -boolean bench_singleton_honour {length A K Q} {
    accept if {$length != 1}
    accept if {$A || $K || $Q}
    reject
}
deal::input smartstack south bench_4441 hcp 11 15
foreach suit {spades hearts diamonds clubs} {
    smartstack::restrictHolding $suit bench_singleton_honour 1 1
}
