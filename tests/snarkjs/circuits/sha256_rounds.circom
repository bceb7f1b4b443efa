pragma circom 2.0.0;
include "circomlib/circuits/sha256/constants.circom";
include "circomlib/circuits/sha256/t1.circom";
include "circomlib/circuits/sha256/t2.circom";
include "circomlib/circuits/binsum.circom";
include "circomlib/circuits/bitify.circom";
// The first R rounds (R <= 16) of the SHA-256 compression function from the standard initial state,
// on 16 message words given as numbers and decomposed to bits: the bit-heavy workload of SHA-256
// at a size that fits a CI-sized domain. Outputs the eight state words after R rounds.
template Sha256Rounds(R) {
    signal input words[16];
    signal output state[8];
    component wb[16];
    for (var t = 0; t < 16; t++) {
        wb[t] = Num2Bits(32);
        wb[t].in <== words[t];
    }
    component iv[8];
    for (var j = 0; j < 8; j++) iv[j] = H(j);
    signal s[R + 1][8][32];  // a..h, little-endian bits
    for (var j = 0; j < 8; j++) for (var k = 0; k < 32; k++) s[0][j][k] <== iv[j].out[k];
    component t1[R];
    component t2[R];
    component kc[R];
    component suma[R];
    component sume[R];
    for (var t = 0; t < R; t++) {
        kc[t] = K(t);
        t1[t] = T1();
        t2[t] = T2();
        suma[t] = BinSum(32, 2);
        sume[t] = BinSum(32, 2);
        for (var k = 0; k < 32; k++) {
            t1[t].h[k] <== s[t][7][k];
            t1[t].e[k] <== s[t][4][k];
            t1[t].f[k] <== s[t][5][k];
            t1[t].g[k] <== s[t][6][k];
            t1[t].k[k] <== kc[t].out[k];
            t1[t].w[k] <== wb[t].out[k];
            t2[t].a[k] <== s[t][0][k];
            t2[t].b[k] <== s[t][1][k];
            t2[t].c[k] <== s[t][2][k];
        }
        for (var k = 0; k < 32; k++) {
            sume[t].in[0][k] <== s[t][3][k];
            sume[t].in[1][k] <== t1[t].out[k];
            suma[t].in[0][k] <== t1[t].out[k];
            suma[t].in[1][k] <== t2[t].out[k];
        }
        for (var k = 0; k < 32; k++) {
            s[t + 1][0][k] <== suma[t].out[k];
            s[t + 1][1][k] <== s[t][0][k];
            s[t + 1][2][k] <== s[t][1][k];
            s[t + 1][3][k] <== s[t][2][k];
            s[t + 1][4][k] <== sume[t].out[k];
            s[t + 1][5][k] <== s[t][4][k];
            s[t + 1][6][k] <== s[t][5][k];
            s[t + 1][7][k] <== s[t][6][k];
        }
    }
    component pack[8];
    for (var j = 0; j < 8; j++) {
        pack[j] = Bits2Num(32);
        for (var k = 0; k < 32; k++) pack[j].in[k] <== s[R][j][k];
        state[j] <== pack[j].out;
    }
}
component main = Sha256Rounds(10);
