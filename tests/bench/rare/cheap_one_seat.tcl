# Deal 3 (smartstack) counterpart of cheap_one_seat.dlr: East 6 hearts with 5-10 HCP.
shapeclass bench_six_hearts {expr {$h==6}}
deal::input smartstack east bench_six_hearts hcp 5 10
