// Dump for the groth16 outside-oracle check (groth16_check.mjs): for a seed, sets up, proves and
// verifies a few circuit shapes with proofline and prints, as one JSON array, each case's snarkjs
// files: {"name", "vk", "proof", "public"} (the last three are verification_key.json, proof.json
// and public.json contents). Usage: oracle_groth16_dump [seed]
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "../support/create_proof.hpp"
#include "../groth16/test_circuits.hpp"
#include "proofline/groth16/groth16.hpp"

using namespace proofline;
using namespace proofline::groth16;
using testing::InputsOnlyCircuit;
using testing::ShapeCircuit;
using testing::ToyCircuit;

namespace {

struct Case {
  std::string name;
  std::string vk, proof, pub;
};

template <class C>
Case run(const std::string& name, const C& c, std::uint64_t seed) {
  SetupOptions opts;
  opts.warn = false;
  SeededRandom rng(seed);
  Parameters params = generate_parameters(c, rng, opts);
  // Round trip through the bellperson file format before proving, as a real user would.
  params = Parameters::from_bytes(params.to_bytes());
  std::vector<r1cs::ProvingBuffers> parts;
  parts.push_back(synthesize_for_proving(c));
  std::vector<Fr> inputs = public_inputs(parts[0]);
  ProverResult r = prove_assignments(params, parts);  // r, s from OpenSSL
  if (!verify_proof(prepare_verifying_key(params.vk), r.proofs[0], inputs)) {
    std::fprintf(stderr, "proofline rejects its own proof for %s\n", name.c_str());
    std::exit(1);
  }
  return Case{name, snarkjs_vk_json(params.vk), snarkjs_proof_json(r.proofs[0]), snarkjs_public_json(inputs)};
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1;
  std::mt19937_64 rng(seed);
  std::vector<Case> cases;
  cases.push_back(run("toy", ToyCircuit{Fr::random(rng), Fr::random(rng)}, seed));
  cases.push_back(run("inputs_only", InputsOnlyCircuit{Fr::random(rng), Fr::random(rng)}, seed + 1));
  cases.push_back(run("no_public_inputs", ShapeCircuit{{}, Fr::random(rng), 9, false}, seed + 2));
  cases.push_back(run("five_inputs_rows_64",
                      ShapeCircuit{{Fr::random(rng), Fr::random(rng), Fr::random(rng), Fr::random(rng), Fr::random(rng)},
                                   Fr::random(rng), 51, true},
                      seed + 3));
  std::string out = "[\n";
  for (std::size_t i = 0; i < cases.size(); ++i) {
    out += "{\"name\": \"" + cases[i].name + "\",\n\"vk\": " + cases[i].vk + ",\"proof\": " + cases[i].proof +
           ",\"public\": " + cases[i].pub + "}";
    out += i + 1 < cases.size() ? ",\n" : "\n";
  }
  out += "]\n";
  std::fputs(out.c_str(), stdout);
  return 0;
}
