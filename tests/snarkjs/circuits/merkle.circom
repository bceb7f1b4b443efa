pragma circom 2.0.0;
include "circomlib/circuits/poseidon.circom";
include "circomlib/circuits/bitify.circom";
// Merkle inclusion: hashes a leaf up a binary Poseidon tree of `levels` levels along a path given by
// sibling hashes and direction bits (packed in one number, decomposed here), and checks the root.
template MerkleTreeChecker(levels) {
    signal input leaf;
    signal input root;
    signal input siblings[levels];
    signal input index;
    component bits = Num2Bits(levels);
    bits.in <== index;
    component h[levels];
    signal cur[levels + 1];
    signal left[levels];
    signal right[levels];
    cur[0] <== leaf;
    for (var i = 0; i < levels; i++) {
        // bit = 0: cur is the left child; bit = 1: cur is the right child.
        left[i] <== cur[i] + bits.out[i] * (siblings[i] - cur[i]);
        right[i] <== cur[i] + siblings[i] - left[i];
        h[i] = Poseidon(2);
        h[i].inputs[0] <== left[i];
        h[i].inputs[1] <== right[i];
        cur[i + 1] <== h[i].out;
    }
    root === cur[levels];
}
component main {public [leaf, root]} = MerkleTreeChecker(4);
