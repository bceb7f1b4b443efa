// proofline-snarkjs: the snarkjs-compatible prove / verify commands as their own executable
// (the same code the main `proofline` CLI registers; see src/cli/snarkjs_cmds.hpp).
#include "../../src/cli/snarkjs_cmds.hpp"

int main(int argc, char** argv) { return proofline::cli::snarkjs_main(argc, argv); }
