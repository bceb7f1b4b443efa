pragma circom 2.0.0;
// One product: a public input, a private input, a public output (2^2 domain).
template Mul() {
    signal input a;
    signal input b;
    signal output c;
    c <== a * b;
}
component main {public [a]} = Mul();
