// src/cli/snarkjs_cmds.hpp — the snarkjs-compatible commands of `proofline` (circom/snarkjs files).
//
//   proofline prove  --zkey c.zkey --wtns w.wtns --proof proof.json --public public.json
//                    [--check --r1cs c.r1cs] [--rs R,S] [--checked-points]
//                    [--backend cpu|cuda|auto] [--memory-budget B] [--threads N]
//   proofline verify --vk verification_key.json --public public.json --proof proof.json
//
// Same meaning as `snarkjs groth16 prove` / `snarkjs groth16 verify` (curve bls12381 only). `prove`
// is a thin client of an engine started in the process (engine_client.hpp: kind "snarkjs", the
// daemon's engine options, progress on stderr, the proof verified by the engine's self-check before
// anything is written; --no-verify is refused); --check reads the zkey's header, the r1cs and the
// witness first and names the first failing constraint; --rs passes fixed randomizers (testing only).
// Wiring into the main CLI (src/cli/main.cpp): `add_snarkjs_prove_options(*prove, args)` adds --zkey,
// --wtns, --r1cs, --check, --rs, --checked-points to the existing `prove` subcommand (which already
// owns --proof, --public, --no-verify, --json, --threads, --backend, --memory-budget); when --zkey
// was given, call `run_snarkjs_prove`. In `verify`, when `is_snarkjs_json(vk path)` call
// `run_snarkjs_verify`. `snarkjs_main` is a standalone front end with both subcommands (built as
// `proofline-snarkjs` by tests/snarkjs/CMakeLists.txt), used by the oracle tests and bench/snarkjs.sh.
//
// Exit codes (common.hpp): 0 ok / valid, 1 proof invalid, 2 usage (also: an unwritable output, a
// flag of the built-in circuits next to --zkey, --backend cuda without a usable device), 3 bad input
// (a file, or a witness that does not satisfy the circuit), 4 internal.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

#include "engine_client.hpp"

namespace proofline::cli {

struct SnarkjsProveArgs {
  std::string zkey, wtns, proof, pub, r1cs;
  std::optional<std::string> rs;  ///< --rs "R,S" when given (an empty value is refused, exit 2)
  bool check = false;           ///< check the witness against --r1cs before proving
  bool checked_points = false;  ///< subgroup-check every zkey point on load
  bool no_verify = false;       ///< given: refused (exit 2); every proof is verified
  bool json = false;
  int threads = 0;
  EngineOptions engine;         ///< --backend, --memory-budget (threads: `threads`)
};

struct SnarkjsVerifyArgs {
  std::string vk, pub, proof;
  bool json = false;
};

/// Adds --zkey --wtns --r1cs --check --rs --checked-points (not --proof/--public/--json/--threads/--no-verify
/// nor the engine options).
void add_snarkjs_prove_options(CLI::App& prove, SnarkjsProveArgs& a);
int run_snarkjs_prove(const SnarkjsProveArgs& a);
/// True when the file's first non-blank byte is '{' (a JSON verification key, not a bellperson .vk).
bool is_snarkjs_json(const std::string& path);
int run_snarkjs_verify(const SnarkjsVerifyArgs& a);
/// Standalone front end: `prove` and `verify` subcommands with the flags above.
int snarkjs_main(int argc, char** argv);

}  // namespace proofline::cli
