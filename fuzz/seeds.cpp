// fuzz_seeds — writes the seed corpora of the fuzz targets: `fuzz_seeds <dir>` creates
// <dir>/<target>/<name> for every target of fuzz/ (the committed fuzz/corpus/ was made this way).
//
// The seeds are the test fixtures of the layers (tests/groth16/test_util.hpp: random-point
// parameters of bellperson's toy shape; tests/snarkjs/toy_setup.hpp: the hand-built circom/snarkjs
// toy circuit, its zkey and witness; filecoin/seal.hpp: a generated 2 KiB C1 output; PoSt and SnapDeals
// vanilla proofs of filecoin/post.hpp and snap.hpp), encoded by proofline's writers, plus the edge encodings of
// points (identity, generator, sign flag, points outside the subgroup). The random generator has a
// fixed seed, so the corpus is the same on every run.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "../tests/groth16/test_util.hpp"
#include "../tests/snarkjs/toy_setup.hpp"
#include "proofline/filecoin/post_bincode.hpp"
#include "proofline/filecoin/seal.hpp"
#include "proofline/filecoin/snap_bincode.hpp"
#include "proofline/groth16/snarkjs.hpp"
#ifdef PROOFLINE_FUZZ_HAVE_SERVER
#include "proofline/server/service.hpp"
#endif

namespace fs = std::filesystem;
using namespace proofline;
using namespace proofline::groth16;

namespace {

fs::path root;

void put(const std::string& target, const std::string& name, const std::string& bytes) {
  const fs::path dir = root / target;
  fs::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}
template <class Bytes>
void put(const std::string& target, const std::string& name, const Bytes& b) {
  put(target, name, std::string(b.begin(), b.end()));
}

/// The edge encodings of one curve: identity, generator, its negation, a random point and one
/// outside the subgroup, each compressed (`_c`) and uncompressed (`_u`).
template <class Affine>
void points(const std::string& target, const Affine& random, const Affine& outside) {
  const std::vector<std::pair<std::string, Affine>> named{{"identity", Affine::identity()},
                                                          {"generator", Affine::generator()},
                                                          {"neg_generator", -Affine::generator()},
                                                          {"random", random},
                                                          {"outside_subgroup", outside}};
  for (const auto& [name, p] : named) {
    put(target, name + "_c", p.to_compressed());
    put(target, name + "_u", p.to_uncompressed());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_seeds <corpus dir>\n");
    return 2;
  }
  root = argv[1];
  std::mt19937_64 rng(20261129);

  points<ec::G1Affine>("g1", testing::random_g1(rng), testing::g1_outside_subgroup());
  points<ec::G2Affine>("g2", testing::random_g2(rng), testing::g2_outside_subgroup());

  const Proof p1{testing::random_g1(rng), testing::random_g2(rng), testing::random_g1(rng)};
  const Proof p2{testing::random_g1(rng), testing::random_g2(rng), testing::random_g1(rng)};
  put("proof", "one", p1.to_bytes());
  const std::vector<Proof> both{p1, p2};
  put("proof", "two", encode_proofs(both));

  // bellperson's toy shape (2 inputs, h 1, l 2, a 2, b 2: 2136 bytes) and a minimal one.
  const Parameters toy = testing::random_parameters(rng, 2, 1, 2, 2, 2);
  const Parameters small = testing::random_parameters(rng, 1, 1, 0, 1, 0);
  put("params", "toy", toy.to_bytes());
  put("params", "small", small.to_bytes());
  put("vk", "toy", toy.vk.to_bytes());
  put("vk", "one_input", small.vk.to_bytes());

  // circom/snarkjs toy circuit (tests/snarkjs/toy_setup.hpp).
  namespace sj = groth16::snarkjs;
  const sj::R1cs r1cs = sj::testing::toy_r1cs();
  put("r1cs", "toy", r1cs.to_bytes());
  sj::R1cs unlabelled = r1cs;
  unlabelled.wire_to_label.clear();
  put("r1cs", "toy_no_labels", unlabelled.to_bytes());
  const sj::Witness wit = sj::testing::toy_witness(3, 17);
  put("wtns", "toy", wit.to_bytes());
  const sj::testing::Toxic toxic{Fr::from_u64(1234567), Fr::from_u64(89), Fr::from_u64(1011), Fr::from_u64(121314)};
  const sj::testing::ToyKey key = sj::testing::toy_setup(r1cs, toxic);
  put("zkey", "toy", key.zkey.to_bytes());

  const Proof proof = sj::testing::expected_proof(key, wit, Fr::from_u64(7), Fr::from_u64(9));
  put("snarkjs_vk", "toy", snarkjs_vk_json(key.zkey.verifying_key()));
  put("snarkjs_proof", "toy", snarkjs_proof_json(proof));
  put("snarkjs_public", "toy", snarkjs_public_json(wit.public_inputs(key.zkey.n_public)));
  put("snarkjs_public", "empty", snarkjs_public_json({}));

  // PoSt vanilla proofs (filecoin/post.hpp gen_post_vanilla): the shape byte of post_vanilla_fuzz
  // (bits 0-1: 2 / 4 / 16 / 32 KiB, bit 2: Winning's 66 challenges), then the bincode.
  for (std::uint8_t shape = 0; shape < 8; ++shape) {
    static constexpr std::uint64_t kSizes[4] = {2048, 4096, 16384, 32768};
    const auto type = (shape & 4) ? filecoin::PoStType::Winning : filecoin::PoStType::Window;
    filecoin::GenPoStOptions o;
    o.config = filecoin::post_config(type, kSizes[shape & 3], filecoin::ApiVersion::V1_2_0);
    o.seed = shape;
    std::vector<std::uint8_t> b{shape};
    const auto v = filecoin::encode_fallback_post_sector_proof(filecoin::gen_post_vanilla(o).vanilla_proofs[0]);
    b.insert(b.end(), v.begin(), v.end());
    put("post_vanilla", std::string(filecoin::to_string(type)) + "_" + std::to_string(kSizes[shape & 3] / 1024) + "k", b);
  }

  // SnapDeals vanilla proofs (filecoin/snap.hpp gen_snap_vanilla): the shape byte of snap_vanilla_fuzz
  // (bits 0-1: 1 / 2 / 4 / 32 KiB), then the bincode of partition 0.
  for (std::uint8_t shape = 0; shape < 4; ++shape) {
    static constexpr std::uint64_t kSizes[4] = {1024, 2048, 4096, 32768};
    filecoin::GenSnapOptions o;
    o.sector_bytes = kSizes[shape];
    o.seed = shape;
    std::vector<std::uint8_t> b{shape};
    const auto v = filecoin::encode_snap_partition_proof(filecoin::gen_snap_vanilla(o).partition_proofs[0]);
    b.insert(b.end(), v.begin(), v.end());
    put("snap_vanilla", std::to_string(kSizes[shape] / 1024) + "k", b);
  }

  // Filecoin C1 output of a 2 KiB sector (filecoin/seal.hpp gen_c1, as tests/filecoin uses it).
  const std::string c1 = filecoin::to_json(filecoin::gen_c1({filecoin::RegisteredSealProof::StackedDrg2KiBV1_1, 5}));
  put("c1", "2k", c1);

#ifdef PROOFLINE_FUZZ_HAVE_SERVER
  // gRPC ProofRequest messages (proto/proofline/v1/engine.proto) of each built-in kind.
  {
    server::pb::ProofRequest bench;
    bench.set_request_id("seed-bench");
    bench.set_kind("bench");
    (*bench.mutable_args())["size"] = "2^4";
    (*bench.mutable_args())["input"] = "7";
    (*bench.mutable_args())["partitions"] = "2";
    put("grpc_request", "bench", bench.SerializeAsString());
    server::pb::ProofRequest mul;
    mul.set_kind("mul");
    (*mul.mutable_args())["input"] = "12";
    put("grpc_request", "mul", mul.SerializeAsString());
    server::pb::ProofRequest sj;
    sj.set_request_id("seed-snarkjs");
    sj.set_kind("snarkjs");
    sj.set_priority(server::pb::Priority(2));
    const auto wbytes = wit.to_bytes();
    sj.set_payload(std::string(wbytes.begin(), wbytes.end()));
    put("grpc_request", "snarkjs", sj.SerializeAsString());
    server::pb::ProofRequest c2;
    c2.set_kind("porep-c2");
    c2.set_payload(c1);
    (*c2.mutable_args())["sector_id"] = "1";
    (*c2.mutable_args())["prover_id"] = std::string(64, '1');
    put("grpc_request", "porep_c2", c2.SerializeAsString());
  }
#endif
  return 0;
}
