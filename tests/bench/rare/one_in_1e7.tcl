# Deal 3 (smartstack) counterpart of one_in_1e7.dlr: North 9 spades, 4 hearts, exactly 10 HCP.
shapeclass bench_9400 {expr {$s==9 && $h==4}}
deal::input smartstack north bench_9400 hcp 10 10
