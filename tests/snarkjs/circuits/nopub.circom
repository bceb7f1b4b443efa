pragma circom 2.0.0;
// No public signals at all (IC holds only the ONE point): x^3 + x + 5 = y, all private.
template NoPublic() {
    signal input x;
    signal input y;
    signal x2;
    signal x3;
    x2 <== x * x;
    x3 <== x2 * x;
    y === x3 + x + 5;
}
component main = NoPublic();
