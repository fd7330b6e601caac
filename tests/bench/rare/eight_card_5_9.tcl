# Deal 3 (smartstack) counterpart of eight_card_5_9.dlr: North has an 8-card suit, 5-9 HCP.
shapeclass bench_eight {expr {$s==8 || $h==8 || $d==8 || $c==8}}
deal::input smartstack north bench_eight hcp 5 9
