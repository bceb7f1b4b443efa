// The streamed setup (QapEvaluator, shape from count_porep as `proofline setup --circuit porep`
// gives it) against the former whole-matrix setup (tests/groth16/setup_oracle.hpp) on a whole 2 KiB
// PoRep partition (2.7 M constraints). The fixed-base multiplications are the same code on both
// sides (FixedBaseTable, tested on its own), so what is compared is what differs: the vk points
// and every scalar handed to the fixed-base work, in order (a running digest over G1: ic, h, l, a,
// b_g1; over G2: b_g2), and the section lengths. Equal scalars in equal order ⇒ equal .params.
// About a minute of CPU here: DISABLED_ in the per-case run, run once by ctest as porep_setup_stream
// (label slow).
#include <gtest/gtest.h>

#include "../groth16/setup_oracle.hpp"
#include "../support/setup_test_util.hpp"
#include "proofline/circuits/porep.hpp"
#include "proofline/groth16/groth16.hpp"

namespace proofline::circuits::porep {
namespace {

using Digest = proofline::testing::ScalarDigest;
using proofline::testing::CountingSink;

TEST(PoRepSetupSlow, DISABLED_StreamedSetupEqualsWholeMatrixSetup2KiB) {
  const PoRepShape shape = shape_for_sector_size(2048);
  const PoRepCircuit circuit(shape, blank_inputs(shape));
  groth16::SeededRandom rng(20261201);
  const groth16::ToxicWaste tw = groth16::draw_toxic_waste(rng);

  Digest new_g1, new_g2, old_g1, old_g2;
  groth16::SetupOptions o;
  o.warn = false;
  o.progress_min_constraints = ~std::size_t{0};
  const PoRepCounts counts = count_porep(shape);
  o.shape = r1cs::CircuitShape{counts.constraints + counts.inputs, counts.inputs, counts.aux};
  proofline::testing::digest_scalars(o, &new_g1, &new_g2);
  CountingSink got;
  groth16::generate_parameters(circuit, tw, got, o);

  groth16::oracle::OracleMul hooks;
  hooks.g1 = [&](std::span<const Fr> ks) {
    old_g1.add(ks);
    return std::vector<ec::G1Affine>(ks.size(), ec::G1Affine::generator());
  };
  hooks.g2 = [&](std::span<const Fr> ks) {
    old_g2.add(ks);
    return std::vector<ec::G2Affine>(ks.size(), ec::G2Affine::generator());
  };
  const groth16::Parameters want = groth16::oracle::generate_parameters(circuit, tw, hooks);

  // The vk's six points are real on both sides; ic came from the hooks (generators), counted below.
  EXPECT_EQ(got.vk_, want.vk);
  EXPECT_EQ(got.len[0], want.h.size());
  EXPECT_EQ(got.len[1], want.l.size());
  EXPECT_EQ(got.len[2], want.a.size());
  EXPECT_EQ(got.len[3], want.b_g1.size());
  EXPECT_EQ(got.len[4], want.b_g2.size());
  EXPECT_EQ(got.len[0] + 1, std::size_t{1} << 22);
  EXPECT_EQ(got.len[1], counts.aux);
  EXPECT_EQ(new_g1.n, old_g1.n);
  EXPECT_TRUE(new_g1 == old_g1);
  EXPECT_EQ(new_g2.n, old_g2.n);
  EXPECT_TRUE(new_g2 == old_g2);
}

}  // namespace
}  // namespace proofline::circuits::porep
