// SnapDeals inputs: sector shapes and parameter names, challenge derivation against upstream's
// hard-coded vectors, k_and_h_select, the bincode of PartitionProof (sizes, round trips, named
// refusals), the request and vanilla JSON, generated vanilla proofs verified natively at every size
// (the periodic construction up to 64 GiB), and tampered proofs named by the native check.
#include <gtest/gtest.h>

#include <cstdio>

#include "proofline/filecoin/hashers.hpp"
#include "proofline/filecoin/snap.hpp"
#include "proofline/filecoin/snap_bincode.hpp"
#include "proofline/filecoin/snap_json.hpp"
#include "proofline/groth16/param_cache.hpp"
#include "proofline/util/base64.hpp"

namespace proofline::filecoin {
namespace {

constexpr std::uint64_t KiB = 1024, MiB = KiB * 1024, GiB = MiB * 1024;

Domain from_hex(const char* h) {
  Domain d{};
  for (std::size_t i = 0; i < 32; ++i) {
    unsigned v = 0;
    std::sscanf(h + 2 * i, "%2x", &v);
    d[i] = static_cast<std::uint8_t>(v);
  }
  return d;
}

TEST(SnapParams, ShapesOfEverySize) {
  struct Case {
    std::uint64_t bytes;
    std::size_t partitions, challenges, apex, h;
    hash::TreeShape tree;
    std::size_t base_levels;
  };
  const Case cases[] = {
      {1 * KiB, 1, 10, 8, 1, {8, 4, 0}, 1},        {2 * KiB, 1, 10, 8, 1, {8, 0, 0}, 2},
      {4 * KiB, 1, 10, 8, 1, {8, 2, 0}, 2},        {8 * KiB, 1, 10, 8, 1, {8, 4, 0}, 2},
      {16 * KiB, 2, 10, 128, 1, {8, 8, 0}, 2},     {32 * KiB, 2, 10, 128, 1, {8, 8, 2}, 2},
      {8 * MiB, 4, 10, 128, 10, {8, 0, 0}, 6},     {16 * MiB, 4, 10, 128, 10, {8, 2, 0}, 6},
      {512 * MiB, 16, 86, 128, 10, {8, 0, 0}, 8},  {32 * GiB, 16, 86, 128, 10, {8, 8, 0}, 9},
      {64 * GiB, 16, 86, 128, 10, {8, 8, 2}, 9}};
  ASSERT_EQ(all_snap_params().size(), std::size(cases));
  for (const Case& c : cases) {
    const SnapParams& p = snap_params(c.bytes);
    EXPECT_EQ(p.partition_count, c.partitions) << p.name;
    EXPECT_EQ(p.challenge_count, c.challenges) << p.name;
    EXPECT_EQ(p.apex_leaf_count, c.apex) << p.name;
    EXPECT_EQ(p.h_default(), c.h) << p.name;
    EXPECT_EQ(p.tree_r.base, c.tree.base) << p.name;
    EXPECT_EQ(p.tree_r.sub, c.tree.sub) << p.name;
    EXPECT_EQ(p.tree_r.top, c.tree.top) << p.name;
    EXPECT_EQ(p.tree_r_base_levels, c.base_levels) << p.name;
  }
  EXPECT_THROW(snap_params(3 * KiB), ProoflineError);
  // 32 GiB: 30-bit challenges, 26 random bits each, 9 per digest, 10 digests per partition.
  const SnapParams& p32 = snap_params(32 * GiB);
  EXPECT_EQ(p32.random_bits(), 26u);
  EXPECT_EQ(p32.challenges_per_digest(), 9u);
  EXPECT_EQ(p32.digests_per_partition(), 10u);
  EXPECT_EQ(p32.apex_leaf_height(), 19u);
}

TEST(SnapParams, RegisteredProofsAndPublishedParameterNames) {
  EXPECT_EQ(sector_size(registered_update_proof_from_u64(3)), 32 * GiB);
  EXPECT_EQ(to_string(registered_update_proof_from_u64(0)), "StackedDrg2KiBV1");
  EXPECT_THROW(registered_update_proof_from_u64(5), ProoflineError);
  const auto& manifest = groth16::ParamManifest::builtin();
  for (const std::uint64_t bytes : {2 * KiB, 8 * MiB, 512 * MiB, 32 * GiB, 64 * GiB}) {
    for (const char* ext : {".params", ".vk"}) {
      const std::string name = snap_parameter_file_name(snap_params(bytes), ext);
      EXPECT_NE(manifest.find(name), nullptr) << name;
    }
  }
  EXPECT_EQ(snap_parameter_cache_id(snap_params(32 * GiB)),
            "empty-sector-update-merkletree-poseidon_hasher-8-8-0-"
            "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18");
}

// storage-proofs-update challenges.rs test_challenges_against_hardcoded: comm_r_new =
// TreeRDomain::random(XorShiftRng::from_seed(TEST_SEED)) — the bytes below, computed in Python (xorshift
// 128 from the seed's four LE u32, Fr::random = four next_u64 with the top bit cleared, redrawn
// while ≥ r) — and the first five challenges of partition k.
TEST(SnapChallenges, UpstreamVectors) {
  const Domain comm_r_new = from_hex("101cbe4b9c42604f04c703c396f788c6cb2d6d7d58f45430b12eb2edd640076c");
  struct Case {
    std::uint64_t bytes;
    std::size_t k;
    std::array<std::uint64_t, 5> first;
  };
  const Case cases[] = {
      {1 * KiB, 0, {21, 7, 3, 31, 0}},
      {2 * KiB, 0, {53, 51, 56, 3, 0}},
      {4 * KiB, 0, {117, 25, 62, 0, 72}},
      {8 * KiB, 0, {245, 140, 15, 128, 28}},
      {16 * KiB, 1, {286, 308, 493, 510, 508}},
      {32 * KiB, 1, {542, 666, 955, 927, 911}},
      {8 * MiB, 1, {78878, 130797, 112892, 93994, 78379}},
      {16 * MiB, 0, {101621, 16391, 109319, 25944, 41193}},
      {512 * MiB, 15, {16388544, 15794686, 16637142, 16319148, 16328348}},
      {32 * GiB, 0, {1019125, 27985696, 15282860, 11586600, 44651330}},
      {32 * GiB, 14, {990420169, 955146989, 968005601, 976863263, 944650706}},
      {64 * GiB, 15, {2045262457, 2036941247, 2136653521, 2091356007, 2147167623}},
  };
  for (const Case& c : cases) {
    const SnapParams& p = snap_params(c.bytes);
    const std::vector<std::uint64_t> got = snap_challenges(p, comm_r_new, c.k);
    ASSERT_EQ(got.size(), p.challenge_count);
    EXPECT_EQ(std::vector<std::uint64_t>(got.begin(), got.begin() + 5),
              std::vector<std::uint64_t>(c.first.begin(), c.first.end()))
        << p.name << " k=" << c.k;
    // Every challenge lies in partition k's nodes.
    for (const std::uint64_t ch : got) EXPECT_EQ(ch >> p.random_bits(), c.k) << p.name;
  }
  EXPECT_THROW(snap_challenges(snap_params(1 * KiB), comm_r_new, 1), ProoflineError);
}

TEST(SnapPublicInputs, KAndHSelect) {
  EXPECT_EQ(k_and_h_select(snap_params(1 * KiB), 0, 1), 1u);          // h_select = 2^0 (hs = [1; 6])
  EXPECT_EQ(k_and_h_select(snap_params(16 * KiB), 1, 1), 1u | 1u << 1);  // 1 partition bit
  EXPECT_EQ(k_and_h_select(snap_params(32 * GiB), 5, 10), 5u | 8u << 4);  // h = hs[3]: bit 3, after 4 bits
  EXPECT_EQ(k_and_h_select(snap_params(32 * GiB), 15, 12), 15u | 32u << 4);
  EXPECT_THROW(k_and_h_select(snap_params(32 * GiB), 16, 10), ProoflineError);
  EXPECT_THROW(k_and_h_select(snap_params(32 * GiB), 0, 6), ProoflineError);
  EXPECT_THROW(k_and_h_select(snap_params(2 * KiB), 0, 10), ProoflineError);
}

// ---- generated vanilla proofs, verified natively -------------------------------------------------

GeneratedSnap gen(std::uint64_t bytes, std::uint64_t seed = 3, std::size_t h = 0) {
  GenSnapOptions o;
  o.sector_bytes = bytes;
  o.seed = seed;
  o.h = h;
  return gen_snap_vanilla(o);
}

TEST(SnapVanilla, GeneratedProofsVerifyAtEverySize) {
  for (const SnapParams& p : all_snap_params()) {
    const GeneratedSnap g = gen(p.sector_bytes);
    ASSERT_EQ(g.partition_proofs.size(), p.partition_count) << p.name;
    EXPECT_EQ(g.public_inputs.h, p.h_default());
    // Every partition up to 16 MiB; the first and the last above (1 s for all 16 at 32 GiB).
    for (std::size_t k = 0; k < p.partition_count; ++k) {
      if (p.partition_count == 16 && k != 0 && k != 15) continue;
      const SnapVanillaCheck v = verify_snap_vanilla(p, g.public_inputs, k, g.partition_proofs[k]);
      EXPECT_TRUE(v.ok) << p.name << " partition " << k << ": " << v.what;
    }
    // Another partition's proof is refused (its challenges are not this partition's).
    if (p.partition_count > 1) EXPECT_FALSE(verify_snap_vanilla(p, g.public_inputs, 1, g.partition_proofs[0]).ok);
  }
  // Another allowed h (32 GiB: 12) gives other rho regions; the proofs still verify with it only.
  const SnapParams& p = snap_params(32 * GiB);
  const GeneratedSnap g = gen(32 * GiB, 4, 12);
  EXPECT_TRUE(verify_snap_vanilla(p, g.public_inputs, 3, g.partition_proofs[3]).ok);
  SnapPublicInputs other = g.public_inputs;
  other.h = 10;
  const SnapVanillaCheck v = verify_snap_vanilla(p, other, 3, g.partition_proofs[3]);
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.what.find("): leaf_r_new ≠ leaf_r_old + leaf_d_new · rho"), std::string::npos) << v.what;
}

TEST(SnapVanilla, GenerationIsDeterministicAndRandomAtSmallSizes) {
  EXPECT_EQ(gen(2 * KiB, 9).partition_proofs, gen(2 * KiB, 9).partition_proofs);
  EXPECT_NE(gen(2 * KiB, 9).public_inputs, gen(2 * KiB, 10).public_inputs);
  // Up to 8 MiB nothing repeats: the 8 apex leaves of a 1 KiB sector differ pairwise.
  const GeneratedSnap g = gen(1 * KiB);
  const auto& a = g.partition_proofs[0].apex_leafs;
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = i + 1; j < a.size(); ++j) EXPECT_NE(a[i], a[j]);
  }
}

TEST(SnapVanilla, TamperedProofsAreNamed) {
  const SnapParams& p = snap_params(1 * KiB);
  const GeneratedSnap g = gen(1 * KiB);
  const SnapPartitionProof& good = g.partition_proofs[0];
  ASSERT_TRUE(verify_snap_vanilla(p, g.public_inputs, 0, good).ok);
  const std::vector<std::uint64_t> c = snap_challenges(p, g.public_inputs.comm_r_new, 0);
  {
    SnapPartitionProof bad = good;
    bad.challenge_proofs[3].proof_d_new.base[1].hashes[0][0] ^= 1;  // one sibling byte
    const SnapVanillaCheck v = verify_snap_vanilla(p, g.public_inputs, 0, bad);
    EXPECT_FALSE(v.ok);
    EXPECT_EQ(v.challenge, 3u);
    EXPECT_EQ(v.what, "partition 0 challenge 3 (node " + std::to_string(c[3]) +
                          "): tree D new path does not hash to its root");
  }
  {
    SnapPublicInputs bad = g.public_inputs;
    bad.comm_r_old[0] ^= 1;
    const SnapVanillaCheck v = verify_snap_vanilla(p, bad, 0, good);
    EXPECT_EQ(v.what, "partition 0: comm_r_old ≠ Poseidon2(comm_c, root of tree R old)");
    EXPECT_FALSE(v.challenge.has_value());
  }
  {
    // Challenge 2's proofs are those of challenge 4's node.
    ASSERT_NE(c[2], c[4]);
    SnapPartitionProof bad = good;
    bad.challenge_proofs[2] = good.challenge_proofs[4];
    const SnapVanillaCheck v = verify_snap_vanilla(p, g.public_inputs, 0, bad);
    EXPECT_EQ(v.challenge, 2u);
    EXPECT_EQ(v.what, "partition 0 challenge 2 (node " + std::to_string(c[2]) + "): tree R old path leads to leaf " +
                          std::to_string(c[4]) + ", challenged leaf " + std::to_string(c[2]));
  }
  {
    // A new replica leaf that is not old + data · rho (its tree R new path rehashed to match).
    SnapPartitionProof bad = good;
    SnapChallengeProof& cp = bad.challenge_proofs[5];
    cp.proof_r_new.leaf = cp.proof_r_old.leaf;
    SnapVanillaCheck v = verify_snap_vanilla(p, g.public_inputs, 0, bad);
    EXPECT_EQ(v.what, "partition 0 challenge 5 (node " + std::to_string(c[5]) + "): tree R new path does not hash to its root");
  }
  {
    SnapPartitionProof bad = good;
    bad.apex_leafs[6][1] ^= 2;
    EXPECT_EQ(verify_snap_vanilla(p, g.public_inputs, 0, bad).what,
              "partition 0: the apex leaves with challenge 0's partition path do not hash to comm_d_new");
  }
  {
    SnapPublicInputs bad = g.public_inputs;
    bad.comm_r_new[2] ^= 4;
    EXPECT_EQ(verify_snap_vanilla(p, bad, 0, good).what, "partition 0: comm_r_new ≠ Poseidon2(comm_c, root of tree R new)");
    bad = g.public_inputs;
    bad.h = 2;
    EXPECT_EQ(verify_snap_vanilla(p, bad, 0, good).what, "h = 2 is not allowed for 1KiB sectors");
    EXPECT_EQ(verify_snap_vanilla(p, g.public_inputs, 1, good).what, "partition 1: a 1KiB sector has 1 partitions");
  }
  {
    SnapPartitionProof bad = good;
    bad.challenge_proofs.pop_back();
    EXPECT_EQ(verify_snap_vanilla(p, g.public_inputs, 0, bad).what, "partition 0: 9 challenge proofs, expected 10");
  }
}

// ---- bincode ----------------------------------------------------------------------------------------

TEST(SnapBincode, SizesAndRoundTrips) {
  EXPECT_EQ(snap_partition_proof_size(1 * KiB), 12'184u);
  EXPECT_EQ(snap_partition_proof_size(32 * GiB), 561'768u);
  EXPECT_EQ(snap_partition_proof_size(64 * GiB), 575'528u);
  for (const std::uint64_t bytes : {1 * KiB, 2 * KiB, 4 * KiB, 16 * KiB, 32 * KiB, 32 * GiB, 64 * GiB}) {
    const GeneratedSnap g = gen(bytes);
    for (const SnapPartitionProof& pp : g.partition_proofs) {
      const std::vector<std::uint8_t> b = encode_snap_partition_proof(pp);
      EXPECT_EQ(b.size(), snap_partition_proof_size(bytes)) << bytes;
      EXPECT_EQ(decode_snap_partition_proof(b, bytes), pp) << bytes;
    }
  }
}

SnapBincodeError refusal(const std::vector<std::uint8_t>& b, std::uint64_t bytes = 1 * KiB) {
  try {
    (void)decode_snap_partition_proof(b, bytes);
  } catch (const SnapBincodeError& e) {
    return e;
  }
  ADD_FAILURE() << "accepted";
  return SnapBincodeError(Error::Ok, 0, "", "", "");
}

TEST(SnapBincode, NamedRefusals) {
  const std::vector<std::uint8_t> good = encode_snap_partition_proof(gen(1 * KiB).partition_proofs[0]);
  // 1 KiB layout: comm_c 0..32, apex_leafs length 32..40, 8 leaves 40..296, challenge_proofs length
  // 296..304; challenge 0 from 304: proof_r_old (Sub, 8-4-0) variant 304..308, base_proof length
  // 308..316, level 0 hashes length 316..324, 7 hashes 324..548, index 548..556, sub_proof 556..676,
  // root 676..708, leaf 708..740; proof_d_new (Single) variant 740..744, root 744..776, leaf 776..808,
  // path length 808..816, level 0 hashes length 816..824, hash 824..856, index 856..864; 1,188 bytes
  // per challenge.
  struct Case {
    std::size_t at;
    std::uint8_t value;
    Error code;
    std::string field, expected;
    std::size_t offset;
  };
  const Case cases[] = {
      {32, 7, Error::BadLength, "apex_leafs length", "8", 32},
      {296, 11, Error::BadLength, "challenge_proofs length", "10", 296},
      {304, 0, Error::Malformed, "challenge_proofs[0].proof_r_old variant", "1 (Sub, the tree R shape)", 304},
      {740, 1, Error::Malformed, "challenge_proofs[0].proof_d_new variant", "0 (Single, the tree D shape)", 740},
      {548, 8, Error::Malformed, "challenge_proofs[0].proof_r_old.base_proof[0].index", "< arity 8", 548},
      {808, 4, Error::BadLength, "challenge_proofs[0].proof_d_new.path length", "5", 808},
      {304 + 1188 + 740 - 304 + 8, 0, Error::NotCanonical, "challenge_proofs[1].proof_d_new.root", "a little-endian value < r",
       304 + 1188 + 740 - 304 + 4},
  };
  for (const Case& c : cases) {
    auto b = good;
    if (c.code == Error::NotCanonical) {
      std::fill(b.begin() + static_cast<std::ptrdiff_t>(c.offset), b.begin() + static_cast<std::ptrdiff_t>(c.offset + 32),
                std::uint8_t{0xff});
    } else {
      b[c.at] = c.value;
    }
    const SnapBincodeError e = refusal(b);
    EXPECT_EQ(e.code(), c.code) << c.field;
    EXPECT_EQ(e.field(), c.field);
    EXPECT_EQ(e.expected(), c.expected) << c.field;
    EXPECT_EQ(e.offset(), c.offset) << c.field;
  }
  {
    auto b = good;
    b.pop_back();
    const SnapBincodeError e = refusal(b);
    EXPECT_EQ(e.code(), Error::BadLength);
    EXPECT_EQ(e.field(), "challenge_proofs[9].proof_r_new.leaf");
  }
  {
    auto b = good;
    b.push_back(0);
    const SnapBincodeError e = refusal(b);
    EXPECT_EQ(e.field(), "end of input");
    EXPECT_EQ(e.offset(), good.size());
    EXPECT_NE(std::string(e.what()).find("bincode PartitionProof: end of input at byte 12184: 1 trailing bytes"),
              std::string::npos)
        << e.what();
  }
  // A 2 KiB proof read as a 1 KiB one: the first difference (tree R variant Single vs Sub) is named.
  const SnapBincodeError e = refusal(encode_snap_partition_proof(gen(2 * KiB).partition_proofs[0]));
  EXPECT_EQ(e.field(), "challenge_proofs[0].proof_r_old variant");
  // Oversized input is refused before reading.
  EXPECT_THROW(decode_snap_partition_proof(std::vector<std::uint8_t>(SnapDecodeLimits{}.max_bytes + 1), 32 * GiB),
               SnapBincodeError);
}

// ---- JSON --------------------------------------------------------------------------------------------

TEST(SnapJson, RequestAndVanillaRoundTrip) {
  const GeneratedSnap g = gen(16 * KiB);
  const SnapRequest r{16 * KiB, g.public_inputs};
  const std::string text = to_json(r);
  EXPECT_TRUE(is_snap_request_json(text));
  EXPECT_FALSE(is_snap_request_json(R"({"post_type": "window"})"));
  EXPECT_FALSE(is_snap_request_json("not json"));
  EXPECT_EQ(parse_snap_request_json(text), r);
  const std::string v = snap_vanilla_proofs_to_json(g.partition_proofs);
  EXPECT_EQ(parse_snap_vanilla_proofs_json(v, 16 * KiB), g.partition_proofs);
  // Curio's form: a JSON array of base64 strings, one per partition.
  EXPECT_EQ(v.substr(0, 2), "[\"");
  EXPECT_EQ(base64_decode(v.substr(2, v.find('"', 2) - 2)), encode_snap_partition_proof(g.partition_proofs[0]));
}

TEST(SnapJson, NamedRefusals) {
  auto msg = [](const std::string& text) -> std::string {
    try {
      (void)parse_snap_request_json(text);
    } catch (const ProoflineError& e) {
      return e.what();
    }
    return "accepted";
  };
  const std::string h64(64, '1');
  const std::string rest = R"(, "comm_r_old": ")" + h64 + R"(", "comm_d_new": ")" + h64 + R"(", "comm_r_new": ")" + h64 + "\"}";
  EXPECT_NE(msg(R"({"sector_size": 3072)" + rest).find("Snap request: sector_size: "), std::string::npos);
  EXPECT_NE(msg(R"({"sector_size": 2048, "h": 10)" + rest).find("Snap request: h: "), std::string::npos);
  EXPECT_NE(msg(R"({"sector_size": 2048, "comm_r_old": "11"})").find("Snap request: comm_r_old: 2 hex digits, expected 64"),
            std::string::npos);
  EXPECT_NE(msg(R"({"sector_size": 2048, "comm_r_old": ")" + std::string(64, 'f') + "\"}").find("comm_r_old: value >= r"),
            std::string::npos);
  EXPECT_NE(msg(R"({"sector_size": 2048, "comm_r_old": ")" + h64 + "\"}").find("comm_d_new: missing"), std::string::npos);
  EXPECT_NE(msg(R"({"proof": "window-post", "sector_size": 2048)" + rest).find("proof: expected \"snap-update\""),
            std::string::npos);
  // The size from the registered update proof (3: 32 GiB), and a sector_size that contradicts it.
  EXPECT_EQ(parse_snap_request_json(R"({"registered_update_proof": 3)" + rest).sector_bytes, 32 * GiB);
  EXPECT_NE(msg(R"({"registered_update_proof": 3, "sector_size": 2048)" + rest)
                .find("Snap request: sector_size: not the size of registered_update_proof 3 (34359738368 bytes)"),
            std::string::npos);
  EXPECT_NE(msg(R"({"registered_update_proof": 5)" + rest).find("Snap request: registered_update_proof: "),
            std::string::npos);
  EXPECT_NE(to_json(SnapRequest{2 * KiB, {}}).find("\"registered_update_proof\": 0"), std::string::npos);
  EXPECT_EQ(to_json(SnapRequest{1 * KiB, {}}).find("registered_update_proof"), std::string::npos);
  // Without "h": the size's default.
  EXPECT_EQ(parse_snap_request_json(R"({"sector_size": 8388608)" + rest).public_inputs.h, 10u);
  // A bad element of the vanilla array is named with the decoder's error.
  const GeneratedSnap g = gen(1 * KiB);
  std::vector<SnapPartitionProof> two = {g.partition_proofs[0], g.partition_proofs[0]};
  two[1].apex_leafs.pop_back();
  try {
    (void)parse_snap_vanilla_proofs_json(snap_vanilla_proofs_to_json(two), 1 * KiB);
    ADD_FAILURE() << "accepted";
  } catch (const ProoflineError& e) {
    EXPECT_NE(std::string(e.what()).find("vanilla_proofs[1]: "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("apex_leafs length"), std::string::npos) << e.what();
  }
}

// Vanilla proofs of another sector size (a user's file mix-up) are named by their size, not by the
// first byte that does not fit; bytes that are no proof of any size keep the decoder's message.
TEST(SnapJson, VanillaProofsOfAnotherSizeAreNamed) {
  const GeneratedSnap g = gen(1 * KiB);
  const std::string text = snap_vanilla_proofs_to_json(g.partition_proofs);
  for (const auto& [bytes, want] : std::vector<std::pair<std::uint64_t, std::string>>{
           {2 * KiB, "vanilla_proofs[0]: these vanilla proofs are for 1KiB sectors, the request is for 2KiB sectors"},
           {32 * KiB, "vanilla_proofs[0]: these vanilla proofs are for 1KiB sectors, the request is for 32KiB sectors"}}) {
    try {
      (void)parse_snap_vanilla_proofs_json(text, bytes);
      ADD_FAILURE() << "accepted at " << bytes;
    } catch (const ProoflineError& e) {
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  }
  std::vector<std::uint8_t> cut = encode_snap_partition_proof(g.partition_proofs[0]);
  cut.pop_back();
  try {
    (void)parse_snap_vanilla_proofs_json("[\"" + base64_encode(cut) + "\"]", 2 * KiB);
    ADD_FAILURE() << "accepted";
  } catch (const ProoflineError& e) {
    EXPECT_NE(std::string(e.what()).find("vanilla_proofs[0]: bincode PartitionProof"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("these vanilla proofs"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace proofline::filecoin
