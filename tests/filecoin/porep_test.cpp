// PoRep values and C1 producers: replica_id and challenge derivations (interactive, NI, synthetic)
// against vectors computed with Python's hashlib/blake2 and cryptography's ChaCha20; the sealer's
// zero-sector comm_d (reference §5); sealed and generated C1s pass verify_vanilla; tampering is
// caught and named by challenge; public inputs agree between C1 and graph derivations.
#include <gtest/gtest.h>

#include "filecoin_test_util.hpp"

#include <chrono>
#include <random>
#include <vector>

#include "proofline/filecoin/porep.hpp"
#include "proofline/filecoin/seal.hpp"
#include "proofline/filecoin/tree.hpp"
#include "proofline/filecoin/vanilla.hpp"
#include "proofline/util/error.hpp"

namespace {

using namespace proofline;
using namespace proofline::filecoin;
using ff::Fr;

using filecoin_test::filled;
using filecoin_test::hex;

TEST(Porep, ReplicaId) {
  const Domain comm_d = zero_comm_d(2048);
  EXPECT_EQ(hex(comm_d), "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
  const Domain r = replica_id(filled(1), 42, filled(2), comm_d, porep_id(RegisteredSealProof::StackedDrg2KiBV1_1));
  EXPECT_EQ(hex(r), "0fb44e824d4ee361824f036216ac72efb642cdb02ce14ac56f90fc27d2467b38");
}

TEST(Porep, Challenges) {
  const std::uint64_t nodes = std::uint64_t{1} << 30;
  EXPECT_EQ(interactive_challenges(nodes, filled(3), filled(4), 3, 18),
            (std::vector<std::uint64_t>{427284178, 184616643, 852516895, 936073509, 523109535, 108128203, 926271342,
                                        562785385, 523664056, 384211451, 600572433, 414649856, 433227528, 391253856,
                                        618186049, 974181683, 247128930, 976776990}));
  EXPECT_EQ(ni_challenges(nodes, filled(3), filled(5), 125, 18),
            (std::vector<std::uint64_t>{245962569, 462710815, 8547378, 912836927, 753238559, 255048883, 185734690,
                                        745494076, 498733965, 788443579, 143156906, 756678549, 1022227132, 1011070812,
                                        450159691, 484742044, 382649115, 102891049}));
  EXPECT_EQ(synthetic_challenges(nodes, filled(3), filled(5), filled(4), 2, 18),
            (std::vector<std::uint64_t>{780839465, 402015871, 565775963, 728149583, 327383141, 572983428, 106502422,
                                        967430730, 19379276, 864384253, 3760421, 205753609, 165012793, 730390167,
                                        573390881, 459465755, 1048503651, 464049595}));
  // never node 0, always < nodes; partitions continue the same sequence
  const auto all = interactive_challenges(64, filled(9), filled(8), 0, 200);
  for (auto c : all) {
    EXPECT_GE(c, 1u);
    EXPECT_LT(c, 64u);
  }
  const auto p1 = interactive_challenges(64, filled(9), filled(8), 1, 100);
  EXPECT_EQ(std::vector<std::uint64_t>(all.begin() + 100, all.end()), p1);
}

TEST(Porep, LabelParentsOrder) {
  std::array<Domain, 6> d;
  std::array<Domain, 8> e;
  for (int i = 0; i < 6; ++i) d[i] = filled(static_cast<std::uint8_t>(i));
  for (int i = 0; i < 8; ++i) e[i] = filled(static_cast<std::uint8_t>(10 + i));
  const auto l1 = label_parents(1, d, e);
  ASSERT_EQ(l1.size(), 37u);
  EXPECT_EQ(l1[35], d[5]);
  EXPECT_EQ(l1[36], d[0]);
  const auto l2 = label_parents(2, d, e);
  EXPECT_EQ(l2[6], e[0]);
  EXPECT_EQ(l2[14], d[0]);
  EXPECT_EQ(l2[36], e[2]);  // 28 + 8 → base index 8 = exp[2]
}

std::vector<Domain> random_data(std::uint64_t nodes, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<Domain> data(nodes);
  for (auto& d : data) {
    for (auto& b : d) b = static_cast<std::uint8_t>(rng());
    d[31] &= 0x3f;
  }
  return data;
}

SealRequest request(RegisteredSealProof p) {
  SealRequest r;
  r.proof = p;
  r.prover_id = filled(7);
  r.sector_id = 1234;
  r.ticket = filled(0x21);
  r.seed = filled(0x42);
  return r;
}

TEST(Sealer, ZeroSectorCommD) {
  const std::vector<Domain> zeros(64);
  const SealResult r = seal_sector(request(RegisteredSealProof::StackedDrg2KiBV1_1), zeros);
  EXPECT_EQ(hex(r.c1.comm_d), "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
  EXPECT_TRUE(verify_vanilla(r.c1).ok) << verify_vanilla(r.c1).what;
  const std::vector<Domain> zeros4k(128);
  EXPECT_EQ(hex(seal_sector(request(RegisteredSealProof::StackedDrg4KiBV1_1_Test), zeros4k).c1.comm_d),
            "08c47b38ee13bc43f41b915c0eed9911a26086b3ed62401bf9d58b8d19dff624");
}

TEST(Sealer, C1PassesVerifyVanillaInEveryMode) {
  const auto data = random_data(64, 1);
  for (auto p : {RegisteredSealProof::StackedDrg2KiBV1, RegisteredSealProof::StackedDrg2KiBV1_1,
                 RegisteredSealProof::StackedDrg2KiBV1_1_Feat_SyntheticPoRep,
                 RegisteredSealProof::StackedDrg2KiBV1_2_Feat_NonInteractivePoRep}) {
    const SealResult r = seal_sector(request(p), data);
    const PorepConfig cfg = porep_config(p);
    ASSERT_EQ(r.c1.vanilla_proofs.size(), cfg.partitions);
    EXPECT_EQ(r.c1.replica_id, replica_id(filled(7), 1234, filled(0x21), r.c1.comm_d, cfg.porep_id));
    EXPECT_EQ(r.c1.comm_r, fr_domain(comm_r(domain_fr(r.comm_c), domain_fr(r.comm_r_last))));
    const VanillaCheck v = verify_vanilla(r.c1);
    EXPECT_TRUE(v.ok) << to_string(p) << ": " << v.what;
  }
}

TEST(Sealer, TestSizesWithSubAndTopTrees) {
  for (auto p : {RegisteredSealProof::StackedDrg4KiBV1_1_Test, RegisteredSealProof::StackedDrg16KiBV1_1_Test,
                 RegisteredSealProof::StackedDrg32KiBV1_1_Test}) {
    const auto data = random_data(porep_config(p).shape->nodes, 3);
    const SealResult r = seal_sector(request(p), data);
    const VanillaCheck v = verify_vanilla(r.c1);
    EXPECT_TRUE(v.ok) << to_string(p) << ": " << v.what;
  }
}

TEST(Sealer, TamperingNamesTheChallenge) {
  const SealResult r = seal_sector(request(RegisteredSealProof::StackedDrg2KiBV1_1), random_data(64, 2));
  {  // a flipped label byte (a labeling parent) → that challenge fails
    auto c1 = r.c1;
    c1.vanilla_proofs[0][1].labeling_proofs[1].parents[3][0] ^= 1;
    const VanillaCheck v = verify_vanilla(c1);
    ASSERT_FALSE(v.ok);
    EXPECT_EQ(v.partition, 0u);
    EXPECT_EQ(v.challenge, 1u);
    EXPECT_NE(v.what.find("partition 0 challenge 1"), std::string::npos) << v.what;
    EXPECT_NE(v.what.find("labeling_proofs[1].parents[3]"), std::string::npos) << v.what;
  }
  {  // a flipped byte of a label in the challenged column → the column leaf no longer matches
    auto c1 = r.c1;
    c1.vanilla_proofs[0][0].replica_column_proofs.c_x.column.rows[0][5] ^= 0x10;
    const VanillaCheck v = verify_vanilla(c1);
    ASSERT_FALSE(v.ok);
    EXPECT_EQ(v.challenge, 0u);
    EXPECT_NE(v.what.find("c_x"), std::string::npos) << v.what;
  }
  {  // a wrong path sibling in tree D
    auto c1 = r.c1;
    c1.vanilla_proofs[0][1].comm_d_proofs.base[2].hashes[0][7] ^= 1;
    const VanillaCheck v = verify_vanilla(c1);
    ASSERT_FALSE(v.ok);
    EXPECT_EQ(v.challenge, 1u);
    EXPECT_NE(v.what.find("comm_d_proofs"), std::string::npos) << v.what;
  }
  {  // comm_r ≠ Poseidon(comm_c, comm_r_last): not tied to one challenge
    auto c1 = r.c1;
    c1.comm_r[0] ^= 1;
    const VanillaCheck v = verify_vanilla(c1);
    ASSERT_FALSE(v.ok);
    EXPECT_TRUE(v.global);
  }
  {  // a challenge that is not the derived one
    auto c1 = r.c1;
    c1.seed[0] ^= 1;
    const VanillaCheck v = verify_vanilla(c1);
    ASSERT_FALSE(v.ok);
    EXPECT_NE(v.what.find("derived challenge"), std::string::npos) << v.what;
    EXPECT_TRUE(verify_vanilla(c1, VerifyVanillaOptions{false}).ok);
  }
}

TEST(Sealer, PublicInputs) {
  const SealResult r = seal_sector(request(RegisteredSealProof::StackedDrg2KiBV1_1), random_data(64, 4));
  const auto pi = public_inputs(r.c1, 0);
  ASSERT_EQ(pi.size(), 3u + 18 * 2);
  EXPECT_EQ(pi[0], domain_fr(r.c1.replica_id));
  EXPECT_EQ(pi[2], domain_fr(r.c1.comm_r));
  const std::uint64_t ch = r.c1.vanilla_proofs[0][1].challenge();
  EXPECT_EQ(pi[3 + 18], Fr::from_u64(ch));
  EXPECT_EQ(pi[3 + 18 + 1], Fr::from_u64(r.c1.vanilla_proofs[0][1].replica_column_proofs.drg_parents[0].column.index));
  EXPECT_EQ(pi[3 + 18 + 17], Fr::from_u64(ch));
  const PorepConfig cfg = porep_config(r.c1.registered_proof);
  EXPECT_EQ(public_inputs(cfg, StackedGraph(cfg), r.c1.replica_id, r.c1.comm_d, r.c1.comm_r, r.c1.seed, 0), pi);
}

TEST(Sealer, RejectsBadData) {
  auto data = random_data(64, 5);
  data[9][31] = 0x80;
  EXPECT_THROW(seal_sector(request(RegisteredSealProof::StackedDrg2KiBV1_1), data), ProoflineError);
  EXPECT_THROW(seal_sector(request(RegisteredSealProof::StackedDrg2KiBV1_1), random_data(32, 5)), ProoflineError);
}

TEST(GenC1, ValidForEverySizeAndDeterministic) {
  for (auto p : {RegisteredSealProof::StackedDrg2KiBV1_1, RegisteredSealProof::StackedDrg2KiBV1,
                 RegisteredSealProof::StackedDrg8MiBV1_1, RegisteredSealProof::StackedDrg4KiBV1_1_Test,
                 RegisteredSealProof::StackedDrg32KiBV1_1_Test, RegisteredSealProof::StackedDrg512MiBV1_1}) {
    const auto c1 = gen_c1({p, 7});
    const VanillaCheck v = verify_vanilla(c1);
    EXPECT_TRUE(v.ok) << to_string(p) << ": " << v.what;
  }
  EXPECT_EQ(gen_c1({RegisteredSealProof::StackedDrg2KiBV1_1, 3}), gen_c1({RegisteredSealProof::StackedDrg2KiBV1_1, 3}));
  EXPECT_NE(gen_c1({RegisteredSealProof::StackedDrg2KiBV1_1, 3}).comm_r,
            gen_c1({RegisteredSealProof::StackedDrg2KiBV1_1, 4}).comm_r);
  EXPECT_THROW(gen_c1({RegisteredSealProof::StackedDrg2KiBV1_2_Feat_NonInteractivePoRep, 1}), ProoflineError);
}

TEST(GenC1, LargeSectorsOnlyMaterializePaths) {
  // 32 GiB: 10 partitions × 18 challenges, 11 layers, tree R/C 8-8-0 (64 GiB, 8-8-2, is the same work
  // plus one level; its Top proofs are covered at 32 KiB).
  for (auto p : {RegisteredSealProof::StackedDrg32GiBV1_1}) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto c1 = gen_c1({p, 11});
    const double gen_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_EQ(c1.vanilla_proofs.size(), 10u);
    ASSERT_EQ(c1.vanilla_proofs[9].size(), 18u);
    const VanillaCheck v = verify_vanilla(c1);
    EXPECT_TRUE(v.ok) << to_string(p) << ": " << v.what;
    RecordProperty(std::string(to_string(p)) + "_gen_ms", std::to_string(gen_ms));
    // a flipped label byte in a late partition is named
    auto bad = c1;
    bad.vanilla_proofs[1][5].labeling_proofs[10].parents[20][3] ^= 4;
    const VanillaCheck b = verify_vanilla(bad);
    ASSERT_FALSE(b.ok);
    EXPECT_EQ(b.partition, 1u);
    EXPECT_EQ(b.challenge, 5u);
  }
}

}  // namespace
