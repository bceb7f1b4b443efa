// Fallback PoSt end to end on the CPU at 2 KiB: generated vanilla proofs → circuit → dev setup →
// Groth16 proof → verification with the public inputs a verifier derives from randomness, sector
// ids and comm_r (never from the vanilla proof). A proof does not verify with another sector's,
// another randomness' or another comm_r's inputs.
#include <gtest/gtest.h>

#include "../support/create_proof.hpp"
#include "proofline/circuits/post.hpp"
#include "proofline/filecoin/post.hpp"
#include "proofline/groth16/setup.hpp"
#include "proofline/groth16/verifier.hpp"

namespace proofline::circuits::post {
namespace {

using filecoin::ApiVersion;
using filecoin::PoStType;

void prove_and_verify(PoStType type, std::size_t sectors) {
  filecoin::GenPoStOptions o;
  o.config = filecoin::post_config(type, 2048, ApiVersion::V1_2_0);
  o.sectors = sectors;
  o.seed = 77;
  const filecoin::GeneratedPoSt g = filecoin::gen_post_vanilla(o);
  const filecoin::FallbackParams p = filecoin::fallback_params(o.config);
  const FallbackPoStShape shape = shape_for(p);

  groth16::SetupOptions quiet;
  quiet.warn = false;
  groth16::SeededRandom rng(2026);
  const FallbackPoStCircuit blank(shape, blank_sectors(shape));
  const groth16::Parameters params = groth16::generate_parameters(blank, rng, quiet);
  const PoStCounts counts = count_post(shape);
  EXPECT_EQ(params.vk.ic.size(), counts.inputs);
  EXPECT_EQ(params.l.size(), counts.aux);
  const groth16::PreparedVerifyingKey pvk = groth16::prepare_verifying_key(params.vk);

  const filecoin::PartitionSectors part = filecoin::partition_sector_proofs(p, g.public_inputs, g.vanilla_proofs, 0);
  const FallbackPoStCircuit circuit(shape, circuit_sectors(part));
  const groth16::Proof proof = groth16::create_proof(params, circuit);

  const std::vector<Fr> inputs = post_public_inputs(p, g.public_inputs, 0);
  EXPECT_TRUE(groth16::verify_proof(pvk, proof, inputs));

  filecoin::PoStPublicInputs other = g.public_inputs;
  other.randomness[0] ^= 1;
  EXPECT_FALSE(groth16::verify_proof(pvk, proof, post_public_inputs(p, other, 0)));
  other = g.public_inputs;
  other.sectors.back().sector_id += 1;
  EXPECT_FALSE(groth16::verify_proof(pvk, proof, post_public_inputs(p, other, 0)));
  other = g.public_inputs;
  other.sectors.front().comm_r[0] ^= 1;
  EXPECT_FALSE(groth16::verify_proof(pvk, proof, post_public_inputs(p, other, 0)));
}

TEST(PoStProve, Window2KiBPadded) { prove_and_verify(PoStType::Window, 1); }
TEST(PoStProve, Winning2KiB) { prove_and_verify(PoStType::Winning, 1); }

}  // namespace
}  // namespace proofline::circuits::post
