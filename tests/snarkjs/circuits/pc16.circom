pragma circom 2.0.0;
include "poseidon_chain.circom";
component main {public [in]} = PoseidonChain(16);
