# Deal 3 (smartstack) counterpart of untuned_gambling_3nt.dlr: West a solid seven-card minor
# (A, K, Q) and at most a jack outside: 9 or 10 HCP.
shapeclass bench_seven_minor {expr {$c==7 || $d==7}}
holdingProc -boolean bench_solid_seven {length A K Q} {
    accept if {$length != 7}
    accept if {$A && $K && $Q}
    reject
}
deal::input smartstack west bench_seven_minor hcp 9 10
foreach suit {diamonds clubs} {
    smartstack::restrictHolding $suit bench_solid_seven 1 1
}
