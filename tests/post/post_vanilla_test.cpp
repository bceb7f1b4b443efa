// Fallback PoSt inputs: registered proofs and configurations, challenge derivation (API V1_1 / V1_2),
// prover_id, the bincode of FallbackPoStSectorProof (sizes, round trips, named refusals), generated
// vanilla proofs verified natively and synthesized in test mode (satisfied; public inputs equal to
// what a verifier derives), and tampered inputs named by both checks.
#include <gtest/gtest.h>

#include "proofline/circuits/post.hpp"
#include "proofline/filecoin/post.hpp"
#include "proofline/filecoin/post_bincode.hpp"
#include "proofline/filecoin/post_json.hpp"
#include "proofline/r1cs/test_constraint_system.hpp"
#include "proofline/util/hex.hpp"

namespace proofline::filecoin {
namespace {

using circuits::post::FallbackPoStCircuit;

constexpr std::uint64_t KiB = 1024, MiB = KiB * 1024, GiB = MiB * 1024;

Domain bytes_0_to_31() {
  Domain d;
  for (std::size_t i = 0; i < 32; ++i) d[i] = static_cast<std::uint8_t>(i);
  return d;
}

TEST(PoStConfig, RegisteredProofs) {
  // cuzk prover.rs tests: 3 → Winning32GiBV1, 8 → Window32GiBV1, 13 → Window32GiBV1_2 (abi V1_1).
  const PoStConfig winning = post_config(registered_post_proof_from_u64(3));
  EXPECT_EQ(winning.type, PoStType::Winning);
  EXPECT_EQ(winning.sector_bytes, 32 * GiB);
  EXPECT_EQ(winning.challenge_count, 66u);
  EXPECT_EQ(winning.sector_count, 1u);
  const PoStConfig w8 = post_config(registered_post_proof_from_u64(8));
  EXPECT_EQ(w8.type, PoStType::Window);
  EXPECT_EQ(w8.api_version, ApiVersion::V1_0_0);
  EXPECT_EQ(w8.sector_count, 2349u);
  EXPECT_EQ(w8.challenge_count, 10u);
  const PoStConfig w13 = post_config(registered_post_proof_from_u64(13));
  EXPECT_EQ(w13.api_version, ApiVersion::V1_2_0);
  EXPECT_EQ(w13.sector_bytes, 32 * GiB);
  EXPECT_EQ(post_config(registered_post_proof_from_u64(14)).sector_count, 2300u);
  EXPECT_EQ(post_config(registered_post_proof_from_u64(5)).sector_count, 2u);
  EXPECT_EQ(to_string(registered_post_proof_from_u64(13)), "StackedDrgWindow32GiBV1_1");
  EXPECT_THROW(registered_post_proof_from_u64(15), ProoflineError);
  // filecoin-proofs parameters.rs test_winning_post_params: 66 challenges over 1 sector → circuit of
  // 66 sectors × 1 challenge.
  const FallbackParams p = fallback_params(post_config(PoStType::Winning, 2 * KiB, ApiVersion::V1_2_0));
  EXPECT_EQ(p.sector_count, 66u);
  EXPECT_EQ(p.challenge_count, 1u);
}

TEST(PoStChallenges, LeafChallengeAndIndex) {
  // SHA-256(randomness ‖ sector_id LE ‖ index LE), first 8 bytes LE, mod nodes — values from Python's
  // hashlib with randomness = bytes 0..31.
  const Domain r = bytes_0_to_31();
  EXPECT_EQ(leaf_challenge(r, 7, 3, 64), 53u);
  EXPECT_EQ(leaf_challenge(r, 1, 0, std::uint64_t{1} << 30), 1'071'472'686u);
  EXPECT_EQ(leaf_challenge(r, 123'456'789, 65, std::uint64_t{1} << 31), 989'937'579u);
  // V1_0 / V1_1: sector_index · challenge_count + n; V1_2: n.
  EXPECT_EQ(challenge_index(ApiVersion::V1_1_0, 3, 10, 4), 34u);
  EXPECT_EQ(challenge_index(ApiVersion::V1_0_0, 3, 10, 4), 34u);
  EXPECT_EQ(challenge_index(ApiVersion::V1_2_0, 3, 10, 4), 4u);
  const PoStConfig c11 = post_config(PoStType::Window, 32 * GiB, ApiVersion::V1_1_0);
  const PoStConfig c12 = post_config(PoStType::Window, 32 * GiB, ApiVersion::V1_2_0);
  EXPECT_EQ(sector_challenges(c11, r, 1, 0), sector_challenges(c12, r, 1, 0));  // position 0: same
  EXPECT_NE(sector_challenges(c11, r, 1, 1), sector_challenges(c12, r, 1, 1));
  EXPECT_EQ(sector_challenges(c12, r, 1, 0)[0], 1'071'472'686u);
}

// ---- bincode ----------------------------------------------------------------------------------

TEST(PoStBincode, SizeMatchesCurioGolden) {
  // Curio lib/proof/testgolden/post.vproof: a 32 GiB sector's proof of 10 challenges, 24,960 bytes.
  EXPECT_EQ(fallback_post_sector_proof_size(32 * GiB, 10), 24'960u);
}

TEST(PoStBincode, RoundTripsEveryTreeShape) {
  for (const std::uint64_t bytes : {2 * KiB, 4 * KiB, 16 * KiB, 32 * KiB}) {
    for (const PoStType t : {PoStType::Window, PoStType::Winning}) {
      GenPoStOptions o;
      o.config = post_config(t, bytes, ApiVersion::V1_2_0);
      o.seed = 5;
      const GeneratedPoSt g = gen_post_vanilla(o);
      const FallbackPoStSectorProof& p = g.vanilla_proofs.at(0);
      const std::vector<std::uint8_t> b = encode_fallback_post_sector_proof(p);
      EXPECT_EQ(b.size(), fallback_post_sector_proof_size(bytes, o.config.challenge_count)) << bytes;
      EXPECT_EQ(decode_fallback_post_sector_proof(b, bytes, o.config.challenge_count), p) << bytes;
    }
  }
}

// The refusal a mutated copy of a 2 KiB Window proof gets.
PostBincodeError refusal(const std::vector<std::uint8_t>& b, std::uint64_t bytes = 2 * KiB, std::size_t ch = 10) {
  try {
    (void)decode_fallback_post_sector_proof(b, bytes, ch);
  } catch (const PostBincodeError& e) {
    return e;
  }
  ADD_FAILURE() << "accepted";
  return PostBincodeError(Error::Ok, 0, "", "", "");
}

TEST(PoStBincode, NamedRefusals) {
  GenPoStOptions o;
  o.config = post_config(PoStType::Window, 2 * KiB, ApiVersion::V1_2_0);
  const std::vector<std::uint8_t> good = encode_fallback_post_sector_proof(gen_post_vanilla(o).vanilla_proofs[0]);
  // Layout at 2 KiB (8-0-0, 2 base levels): sector_id 0..8, comm_r 8..40, sectors len 40..48,
  // inclusion_proofs len 48..56, proof 0 variant 56..60, root 60..92, leaf 92..124, path len 124..132,
  // level 0 hashes len 132..140, 7 hashes 140..364, index 364..372.
  {
    auto b = good;
    b.pop_back();
    const auto e = refusal(b);
    EXPECT_EQ(e.code(), Error::BadLength);
    EXPECT_EQ(e.field(), "vanilla_proof[0].comm_r_last");
  }
  {
    auto b = good;
    b[40] = 2;  // two sector proofs
    const auto e = refusal(b);
    EXPECT_EQ(e.field(), "vanilla_proof length");
    EXPECT_EQ(e.offset(), 40u);
    EXPECT_EQ(e.expected(), "1");
  }
  {
    auto b = good;
    b[48] = 9;  // 9 inclusion proofs, 10 expected
    const auto e = refusal(b);
    EXPECT_EQ(e.field(), "vanilla_proof[0].inclusion_proofs length");
    EXPECT_EQ(e.expected(), "10");
  }
  {
    auto b = good;
    b[56] = 1;  // Sub where 8-0-0 has Single
    const auto e = refusal(b);
    EXPECT_EQ(e.code(), Error::Malformed);
    EXPECT_EQ(e.field(), "vanilla_proof[0].inclusion_proofs[0] variant");
    EXPECT_EQ(e.offset(), 56u);
  }
  {
    auto b = good;
    b[364] = 8;  // position 8 in an arity-8 level
    const auto e = refusal(b);
    EXPECT_EQ(e.field(), "vanilla_proof[0].inclusion_proofs[0].path[0].index");
    EXPECT_EQ(e.offset(), 364u);
  }
  {
    auto b = good;
    for (std::size_t i = 60; i < 92; ++i) b[i] = 0xff;  // root ≥ r
    const auto e = refusal(b);
    EXPECT_EQ(e.code(), Error::NotCanonical);
    EXPECT_EQ(e.field(), "vanilla_proof[0].inclusion_proofs[0].root");
  }
  {
    auto b = good;
    b[132] = 6;  // 6 siblings at arity 8
    const auto e = refusal(b);
    EXPECT_EQ(e.field(), "vanilla_proof[0].inclusion_proofs[0].path[0].hashes length");
    EXPECT_EQ(e.expected(), "7");
  }
  {
    auto b = good;
    b.push_back(0);
    const auto e = refusal(b);
    EXPECT_EQ(e.field(), "end of input");
    EXPECT_EQ(e.offset(), good.size());
  }
  {
    auto b = good;
    b[48] = 0xff;  // a huge count is refused before anything is allocated
    b[55] = 0xff;
    EXPECT_EQ(refusal(b).field(), "vanilla_proof[0].inclusion_proofs length");
  }
  // The same bytes read as another sector size's shape are refused too.
  EXPECT_EQ(refusal(good, 16 * KiB).field(), "vanilla_proof[0].inclusion_proofs[0] variant");
}

// ---- generated proofs: native check and the circuit in test mode --------------------------------

struct Checked {
  std::size_t partitions = 0;
};

// Every partition: native verification, then the circuit in test mode — satisfied, counts as
// count_post, inputs equal to the verifier's derivation.
Checked check_all(const GeneratedPoSt& g) {
  const FallbackParams p = fallback_params(g.config);
  const auto shape = circuits::post::shape_for(p);
  const auto counts = circuits::post::count_post(shape);
  const std::size_t parts = g.config.type == PoStType::Winning
                                ? 1
                                : (g.public_inputs.sectors.size() + p.sector_count - 1) / p.sector_count;
  for (std::size_t k = 0; k < parts; ++k) {
    const PartitionSectors part = partition_sector_proofs(p, g.public_inputs, g.vanilla_proofs, k);
    const PoStVanillaCheck v = verify_post_vanilla(p, g.public_inputs, part, k);
    EXPECT_TRUE(v.ok) << v.what;
    const FallbackPoStCircuit circuit(shape, circuits::post::circuit_sectors(part));
    r1cs::TestConstraintSystem cs;
    circuit.synthesize(cs);
    EXPECT_EQ(cs.which_is_unsatisfied(), std::nullopt);
    EXPECT_EQ(cs.num_constraints(), counts.constraints);
    EXPECT_EQ(cs.num_inputs(), counts.inputs);
    EXPECT_EQ(cs.num_aux(), counts.aux);
    const std::vector<ff::Fr> derived = circuits::post::post_public_inputs(p, g.public_inputs, k);
    EXPECT_TRUE(cs.verify(derived)) << "partition " << k;
    EXPECT_EQ(circuit.public_inputs(), derived);
  }
  return {parts};
}

TEST(PoStGenerated, WindowPartitionsPaddingAndVersions) {
  for (const ApiVersion v : {ApiVersion::V1_1_0, ApiVersion::V1_2_0}) {
    for (const std::size_t sectors : {1u, 2u, 3u}) {  // padded, full, two partitions (second padded)
      GenPoStOptions o;
      o.config = post_config(PoStType::Window, 2 * KiB, v);
      o.sectors = sectors;
      o.seed = sectors;
      const GeneratedPoSt g = gen_post_vanilla(o);
      EXPECT_EQ(check_all(g).partitions, (sectors + 1) / 2);
    }
  }
}

TEST(PoStGenerated, EveryTreeShape) {
  for (const std::uint64_t bytes : {4 * KiB, 16 * KiB, 32 * KiB}) {  // 8-2-0, 8-8-0, 8-8-2
    GenPoStOptions o;
    o.config = post_config(PoStType::Window, bytes, ApiVersion::V1_2_0);
    o.sectors = 2;
    check_all(gen_post_vanilla(o));
  }
}

TEST(PoStGenerated, Winning) {
  for (const std::uint64_t bytes : {2 * KiB, 32 * KiB}) {
    GenPoStOptions o;
    o.config = post_config(PoStType::Winning, bytes, ApiVersion::V1_0_0);
    check_all(gen_post_vanilla(o));
  }
}

TEST(PoStGenerated, LargeSectorOnlyChallengedPathsMaterialized) {
  // A 32 GiB sector's vanilla proof without a 32 GiB tree: verified natively and its size is Curio's.
  GenPoStOptions o;
  o.config = post_config(PoStType::Window, 32 * GiB, ApiVersion::V1_2_0);
  o.sectors = 1;
  const GeneratedPoSt g = gen_post_vanilla(o);
  const FallbackParams p = fallback_params(o.config);
  const PartitionSectors part = partition_sector_proofs(p, g.public_inputs, g.vanilla_proofs, 0);
  EXPECT_EQ(part.proofs.size(), 2349u);
  EXPECT_EQ(part.real_sectors, 1u);
  const PoStVanillaCheck v = verify_post_vanilla(p, g.public_inputs, part, 0);
  EXPECT_TRUE(v.ok) << v.what;
  EXPECT_EQ(encode_fallback_post_sector_proof(g.vanilla_proofs[0]).size(), 24'960u);
}

// ---- tampering ----------------------------------------------------------------------------------

struct Tampered {
  PoStVanillaCheck native;
  std::optional<std::string> unsatisfied;
  bool inputs_verify = true;
};

Tampered run_tampered(const GeneratedPoSt& g, const PoStPublicInputs& verifier_view) {
  const FallbackParams p = fallback_params(g.config);
  const PartitionSectors part = partition_sector_proofs(p, g.public_inputs, g.vanilla_proofs, 0);
  Tampered t;
  t.native = verify_post_vanilla(p, verifier_view, part, 0);
  const FallbackPoStCircuit circuit(circuits::post::shape_for(p), circuits::post::circuit_sectors(part));
  r1cs::TestConstraintSystem cs;
  circuit.synthesize(cs);
  t.unsatisfied = cs.which_is_unsatisfied();
  t.inputs_verify = cs.verify(circuits::post::post_public_inputs(p, verifier_view, 0));
  return t;
}

GeneratedPoSt two_sectors() {
  GenPoStOptions o;
  o.config = post_config(PoStType::Window, 2 * KiB, ApiVersion::V1_2_0);
  o.sectors = 2;
  o.seed = 11;
  return gen_post_vanilla(o);
}

TEST(PoStTampered, SiblingByte) {
  GeneratedPoSt g = two_sectors();
  g.vanilla_proofs[1].sectors[0].inclusion_proofs[4].base[1].hashes[2][0] ^= 1;
  const Tampered t = run_tampered(g, g.public_inputs);
  EXPECT_FALSE(t.native.ok);
  EXPECT_EQ(t.native.sector, 1u);
  EXPECT_EQ(t.native.challenge, 4u);
  EXPECT_NE(t.native.what.find("does not hash to its root"), std::string::npos) << t.native.what;
  ASSERT_TRUE(t.unsatisfied.has_value());
  EXPECT_NE(t.unsatisfied->find("sector_1/challenge_inclusion_4"), std::string::npos) << *t.unsatisfied;
}

TEST(PoStTampered, WrongCommR) {
  GeneratedPoSt g = two_sectors();
  g.public_inputs.sectors[0].comm_r[3] ^= 1;
  const Tampered t = run_tampered(g, g.public_inputs);
  EXPECT_FALSE(t.native.ok);
  EXPECT_EQ(t.native.sector, 0u);
  EXPECT_NE(t.native.what.find("comm_r ≠ Poseidon2(comm_c, comm_r_last)"), std::string::npos) << t.native.what;
  ASSERT_TRUE(t.unsatisfied.has_value());
  EXPECT_NE(t.unsatisfied->find("sector_0/enforce_comm_c_comm_r_last_hash_comm_r"), std::string::npos)
      << *t.unsatisfied;
}

// Issue 33: a vanilla proof carrying a comm_r other than the request's for its sector. The circuit
// takes the request's comm_r (so it is satisfied and its inputs are the verifier's): only
// check_vanilla_comm_r sees it, named with both values, in verify_post_vanilla as for the engine.
TEST(PoStTampered, VanillaProofsOwnCommR) {
  GeneratedPoSt g = two_sectors();
  const Domain request_comm_r = g.vanilla_proofs[1].comm_r;
  g.vanilla_proofs[1].comm_r[3] ^= 1;
  const Tampered t = run_tampered(g, g.public_inputs);
  EXPECT_FALSE(t.native.ok);
  EXPECT_EQ(t.native.sector, 1u);
  EXPECT_EQ(t.native.what, "partition 0 sector 1 (id " + std::to_string(g.public_inputs.sectors[1].sector_id) +
                               "): vanilla_proofs[1] carries comm_r " + to_hex(g.vanilla_proofs[1].comm_r) +
                               ", the request has comm_r " + to_hex(request_comm_r) + " for that sector");
  EXPECT_FALSE(t.unsatisfied.has_value()) << *t.unsatisfied;
  EXPECT_TRUE(t.inputs_verify);
  const FallbackParams p = fallback_params(g.config);
  const auto bad = check_vanilla_comm_r(partition_sector_proofs(p, g.public_inputs, g.vanilla_proofs, 0), 0);
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->what, t.native.what);

  // WinningPoSt: its one vanilla proof, spread over the circuit's 66 sectors, named once.
  GenPoStOptions o;
  o.config = post_config(PoStType::Winning, 2 * KiB, ApiVersion::V1_2_0);
  o.seed = 12;
  GeneratedPoSt w = gen_post_vanilla(o);
  const FallbackParams wp = fallback_params(w.config);
  EXPECT_FALSE(check_vanilla_comm_r(partition_sector_proofs(wp, w.public_inputs, w.vanilla_proofs, 0), 0));
  w.vanilla_proofs[0].comm_r[0] ^= 1;
  const PartitionSectors wpart = partition_sector_proofs(wp, w.public_inputs, w.vanilla_proofs, 0);
  const PoStVanillaCheck wv = verify_post_vanilla(wp, w.public_inputs, wpart, 0);
  EXPECT_FALSE(wv.ok);
  EXPECT_EQ(wv.sector, 0u);
  EXPECT_NE(wv.what.find("vanilla_proofs[0] carries comm_r " + to_hex(w.vanilla_proofs[0].comm_r)), std::string::npos)
      << wv.what;
}

TEST(PoStTampered, ChallengeIndex) {
  // A path to another leaf (the proof of challenge 0 in the place of challenge 1): the circuit is
  // satisfied, but its public input is not the challenged leaf the verifier derives.
  GeneratedPoSt g = two_sectors();
  auto& proofs = g.vanilla_proofs[0].sectors[0].inclusion_proofs;
  // Seed 11 gives two different leaves; a generator change that made them coincide must fail here,
  // not skip the check.
  ASSERT_NE(proofs[0].leaf_index(), proofs[1].leaf_index()) << "challenges 0 and 1 coincide";
  proofs[1] = proofs[0];
  const Tampered t = run_tampered(g, g.public_inputs);
  EXPECT_FALSE(t.native.ok);
  EXPECT_EQ(t.native.challenge, 1u);
  EXPECT_NE(t.native.what.find("path leads to leaf"), std::string::npos) << t.native.what;
  EXPECT_EQ(t.unsatisfied, std::nullopt);
  EXPECT_FALSE(t.inputs_verify);
}

TEST(PoStTampered, AnotherRandomnessOrSector) {
  const GeneratedPoSt g = two_sectors();
  PoStPublicInputs other = g.public_inputs;
  other.randomness[0] ^= 1;
  const Tampered t = run_tampered(g, other);
  EXPECT_FALSE(t.native.ok);
  EXPECT_FALSE(t.inputs_verify);
  PoStPublicInputs swapped = g.public_inputs;
  swapped.sectors[0].sector_id += 1;
  EXPECT_FALSE(run_tampered(g, swapped).inputs_verify);
}

// Vanilla proofs beyond the request's sectors are refused with the counts, and one of a sector the
// request does not have is named, in the request form as in the cuzk.v1 form (whose sectors are the
// proofs' own, at most one partition's): never silently ignored.
TEST(PoStPartition, ExtraVanillaProofsAreRefused) {
  const GeneratedPoSt g = two_sectors();
  const FallbackParams p = fallback_params(g.config);
  GenPoStOptions o;
  o.config = g.config;
  o.sectors = 1;
  o.seed = 12;
  FallbackPoStSectorProof foreign = gen_post_vanilla(o).vanilla_proofs[0];
  foreign.sector_id = 4242;
  auto error_of = [&](const std::vector<FallbackPoStSectorProof>& proofs) -> std::string {
    try {
      (void)partition_sector_proofs(p, g.public_inputs, proofs, 0);
    } catch (const ProoflineError& e) {
      return e.what();
    }
    return "accepted";
  };
  std::vector<FallbackPoStSectorProof> three = g.vanilla_proofs;
  three.push_back(foreign);
  EXPECT_NE(error_of(three).find("3 vanilla proofs for the request's 2 sectors: at most one per sector"),
            std::string::npos)
      << error_of(three);
  const std::vector<FallbackPoStSectorProof> swapped = {g.vanilla_proofs[0], foreign};
  EXPECT_NE(error_of(swapped).find("vanilla_proofs[1] is of sector id 4242, which is not one of the request's 2 sectors"),
            std::string::npos)
      << error_of(swapped);
  // A sector's proof twice (and another's missing): the repeat is named with its first index, not
  // reported as "unsupported argument: no vanilla proof for …" (new-user session 4, finding 7).
  const std::vector<FallbackPoStSectorProof> twice = {g.vanilla_proofs[0], g.vanilla_proofs[0]};
  const std::string again = "vanilla_proofs[1] is of sector id " + std::to_string(g.vanilla_proofs[0].sector_id) +
                            " again (already vanilla_proofs[0])";
  EXPECT_NE(error_of(twice).find(again), std::string::npos) << error_of(twice);
  EXPECT_EQ(error_of(twice).rfind("malformed input: ", 0), 0u) << error_of(twice);
  // The cuzk.v1 form refuses more than a partition's sectors (2 at 2 KiB) likewise, with the counts.
  try {
    (void)post_request_from_vanilla(g.config, 1000, g.public_inputs.randomness, 0, three);
    ADD_FAILURE() << "accepted";
  } catch (const ProoflineError& e) {
    EXPECT_NE(std::string(e.what()).find("3 vanilla proofs, expected 1 … 2 (one per sector of the partition)"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace proofline::filecoin

namespace proofline::circuits::post {
namespace {

using filecoin::ApiVersion;
using filecoin::PoStType;

TEST(PoStCheck, NamesWhatIsWrong) {
  filecoin::GenPoStOptions o;
  o.config = filecoin::post_config(PoStType::Window, 2048, ApiVersion::V1_1_0);
  o.sectors = 2;
  filecoin::GeneratedPoSt g = filecoin::gen_post_vanilla(o);
  const auto p = filecoin::fallback_params(o.config);
  EXPECT_EQ(check_post_partition(p, g.public_inputs, g.vanilla_proofs, 0).describe(), "ok");

  g.vanilla_proofs[1].sectors[0].inclusion_proofs[2].base[0].hashes[5][1] ^= 4;
  const PoStPartitionCheck c = check_post_partition(p, g.public_inputs, g.vanilla_proofs, 0);
  EXPECT_FALSE(c.ok());
  ASSERT_TRUE(c.unsatisfied.has_value());
  EXPECT_EQ(c.where, "sector 1 challenge 2: challenged leaf inclusion in tree R (comm_r_last)");
  EXPECT_EQ(c.name.rfind("outer namespace/sector_1/challenge_inclusion_2/", 0), 0u) << c.name;
  EXPECT_NE(c.describe().find("vanilla: sector 1 (id "), std::string::npos) << c.describe();
  EXPECT_TRUE(c.inputs_match);

  filecoin::PoStPublicInputs other = g.public_inputs;
  other.randomness[5] ^= 1;  // a verifier with another randomness: its challenged leaves differ
  g = filecoin::gen_post_vanilla(o);
  const PoStPartitionCheck d = check_post_partition(p, other, g.vanilla_proofs, 0);
  EXPECT_FALSE(d.inputs_match);
  EXPECT_EQ(d.first_input_mismatch, 1u);  // sector 0's first challenged leaf (comm_r is the same)
  EXPECT_FALSE(d.native.ok);
  EXPECT_FALSE(d.unsatisfied.has_value());
}

}  // namespace
}  // namespace proofline::circuits::post

namespace proofline::circuits::post {
namespace {

// The parallel path (sectors as parts on oneTBB threads) gives the buffers of the sequential
// synthesis: a, b, c, both assignments and the three densities.
TEST(PoStParallel, GroupsGiveTheSequentialBuffers) {
  filecoin::GenPoStOptions o;
  o.config = filecoin::post_config(filecoin::PoStType::Winning, 16384, filecoin::ApiVersion::V1_0_0);
  const filecoin::GeneratedPoSt g = filecoin::gen_post_vanilla(o);
  const auto p = filecoin::fallback_params(o.config);
  const auto part = filecoin::partition_sector_proofs(p, g.public_inputs, g.vanilla_proofs, 0);
  const FallbackPoStCircuit circuit(shape_for(p), circuit_sectors(part));
  FallbackPoStCircuit in_order = circuit;
  in_order.set_synthesis_threads(1);  // synthesize(): the sectors in order, in their namespaces
  r1cs::ProvingAssignment seq;
  in_order.synthesize(seq);
  for (const std::size_t threads : {0u, 1u, 2u, 7u}) {
    r1cs::ProvingAssignment par;
    circuit.synthesize_parallel(par, threads);
    r1cs::ProvingAssignment by_default;  // synthesize() with the default threads: the parts
    circuit.synthesize(by_default);
    EXPECT_TRUE(by_default.buffers().a == seq.buffers().a && by_default.buffers().aux_assignment == seq.buffers().aux_assignment);
    const auto& a = seq.buffers();
    const auto& b = par.buffers();
    EXPECT_TRUE(a.a == b.a && a.b == b.b && a.c == b.c) << threads;
    EXPECT_TRUE(a.input_assignment == b.input_assignment && a.aux_assignment == b.aux_assignment) << threads;
    EXPECT_TRUE(a.a_aux_density == b.a_aux_density && a.b_input_density == b.b_input_density &&
                a.b_aux_density == b.b_aux_density)
        << threads;
  }
}

}  // namespace
}  // namespace proofline::circuits::post
