pragma circom 2.0.0;
include "circomlib/circuits/poseidon.circom";
// out = P(P(...P(in, k)..., k), k) with N applications of circomlib's Poseidon(2): a full-field witness.
template PoseidonChain(N) {
    signal input in;
    signal input k;
    signal output out;
    component p[N];
    for (var i = 0; i < N; i++) {
        p[i] = Poseidon(2);
        p[i].inputs[0] <== i == 0 ? in : p[i - 1].out;
        p[i].inputs[1] <== k;
    }
    out <== p[N - 1].out;
}
