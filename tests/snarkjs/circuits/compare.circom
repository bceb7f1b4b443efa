pragma circom 2.0.0;
include "circomlib/circuits/comparators.circom";
include "circomlib/circuits/bitify.circom";
// Range checks and comparisons: bit decompositions of 64-bit values, LessThan / GreaterEqThan,
// IsZero / IsEqual, and a recomposition; outputs count how many checks hold.
template Compare(n) {
    signal input x[n];
    signal input y[n];
    signal output lt;
    signal output eq;
    signal output packed;
    component bx[n];
    component by[n];
    component less[n];
    component ge[n];
    component same[n];
    component zero[n];
    var nl = 0;
    var ne = 0;
    for (var i = 0; i < n; i++) {
        bx[i] = Num2Bits(64);
        bx[i].in <== x[i];
        by[i] = Num2Bits(64);
        by[i].in <== y[i];
        less[i] = LessThan(64);
        less[i].in[0] <== x[i];
        less[i].in[1] <== y[i];
        ge[i] = GreaterEqThan(64);
        ge[i].in[0] <== x[i];
        ge[i].in[1] <== y[i];
        less[i].out + ge[i].out === 1;
        same[i] = IsEqual();
        same[i].in[0] <== x[i];
        same[i].in[1] <== y[i];
        zero[i] = IsZero();
        zero[i].in <== x[i] - y[i];
        same[i].out === zero[i].out;
        nl += less[i].out;
        ne += same[i].out;
    }
    lt <== nl;
    eq <== ne;
    component pack = Bits2Num(64);
    for (var j = 0; j < 64; j++) pack.in[j] <== bx[0].out[j] * by[0].out[j];
    packed <== pack.out;
}
component main {public [y]} = Compare(4);
