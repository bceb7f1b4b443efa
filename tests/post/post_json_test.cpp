// PoSt request files: base64 (RFC 4648 vectors, strict refusals), the JSON array of base64 vanilla
// proofs (round trip, errors naming the element, a full partition within the limit), the request
// JSON (round trip, named refusals) and the cuzk.v1 form (post_request_from_vanilla).
#include <gtest/gtest.h>

#include "proofline/filecoin/post_bincode.hpp"
#include "proofline/filecoin/post_json.hpp"
#include "proofline/util/base64.hpp"

namespace proofline::filecoin {
namespace {

std::vector<std::uint8_t> bytes_of(std::string_view s) { return {s.begin(), s.end()}; }

std::string error_of(auto&& f) {
  try {
    f();
  } catch (const ProoflineError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(Base64, Rfc4648Vectors) {
  const std::pair<std::string_view, std::string_view> v[] = {
      {"", ""}, {"f", "Zg=="}, {"fo", "Zm8="}, {"foo", "Zm9v"}, {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, enc] : v) {
    EXPECT_EQ(base64_encode(bytes_of(plain)), enc);
    EXPECT_EQ(base64_decode(enc), bytes_of(plain));
  }
  // Curio's zero randomness in postpub.json: 32 zero bytes.
  EXPECT_EQ(base64_decode("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="), std::vector<std::uint8_t>(32, 0));
}

TEST(Base64, StrictRefusals) {
  EXPECT_NE(error_of([] { base64_decode("Zm9"); }).find("base64: base64 text of 3 characters (expected a multiple of 4)"),
            std::string::npos);
  EXPECT_NE(error_of([] { base64_decode("Zm-v"); }).find("not base64 at character 2"), std::string::npos);
  EXPECT_NE(error_of([] { base64_decode("Z=9v"); }).find("not base64 at character 1"), std::string::npos);
  EXPECT_NE(error_of([] { base64_decode("Zh=="); }).find("not canonical base64 at character 1"), std::string::npos);
  EXPECT_NE(error_of([] { base64_decode("Zm9="); }).find("not canonical base64 at character 2"), std::string::npos);
  std::vector<std::uint8_t> out;
  EXPECT_EQ(base64_decode_into("Zm9v", out), "");
  EXPECT_EQ(out, bytes_of("foo"));
}

GeneratedPoSt generated() {
  GenPoStOptions o;
  o.config = post_config(PoStType::Window, 2048, ApiVersion::V1_1_0);
  o.sectors = 3;
  o.miner_id = 1000;
  return gen_post_vanilla(o);
}

TEST(PoStJson, VanillaArrayRoundTrip) {
  const GeneratedPoSt g = generated();
  const std::string text = vanilla_proofs_to_json(g.vanilla_proofs);
  EXPECT_EQ(text.front(), '[');
  EXPECT_EQ(parse_vanilla_proofs_json(text, 2048, 10), g.vanilla_proofs);
  // Proofs of another size or challenge count are named as such (not by the first byte that differs).
  EXPECT_NE(error_of([&] { parse_vanilla_proofs_json(text, 16384, 10); })
                .find("vanilla_proofs[0]: these vanilla proofs are for 2KiB sectors, the request is for 16KiB sectors"),
            std::string::npos);
  EXPECT_NE(error_of([&] { parse_vanilla_proofs_json(text, 2048, 66); })
                .find("vanilla_proofs[0]: these vanilla proofs are for 2KiB sectors with 10 challenges (WindowPoSt's) "
                      "each, the request is for 2KiB sectors with 66 challenges (WinningPoSt's)"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_vanilla_proofs_json("[\"Zg==\", 3]", 2048, 10); }).find("vanilla_proofs[0]: "),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_vanilla_proofs_json("{}", 2048, 10); }).find("not a JSON array"), std::string::npos);
}

TEST(PoStJson, RequestRoundTripAndRefusals) {
  const GeneratedPoSt g = generated();
  PoStRequest r;
  r.config = g.config;
  r.miner_id = 1000;
  r.partition = 1;
  r.public_inputs = g.public_inputs;
  const std::string text = to_json(r);
  const PoStRequest back = parse_post_request_json(text);
  EXPECT_EQ(back.config.type, PoStType::Window);
  EXPECT_EQ(back.config.sector_bytes, 2048u);
  EXPECT_EQ(back.config.api_version, ApiVersion::V1_1_0);
  EXPECT_EQ(back.partition, 1u);
  EXPECT_EQ(back.public_inputs.randomness, g.public_inputs.randomness);
  EXPECT_EQ(back.public_inputs.prover_id, g.public_inputs.prover_id);
  EXPECT_EQ(back.public_inputs.sectors, g.public_inputs.sectors);
  EXPECT_EQ(to_json(back), text);

  auto refused = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    const auto at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    t.replace(at, from.size(), to);
    return error_of([&] { parse_post_request_json(t); });
  };
  EXPECT_NE(refused("\"window\"", "\"windowed\"").find("post_type"), std::string::npos);
  EXPECT_NE(refused("\"sector_size\": 2048", "\"sector_size\": 2049").find("sector_size"), std::string::npos);
  EXPECT_NE(refused("\"1.1.0\"", "\"1.3.0\"").find("api_version"), std::string::npos);
  EXPECT_NE(refused("\"sector_id\"", "\"sector\"").find("sectors[0].sector_id: missing"), std::string::npos);
  const std::string hex = text.substr(text.find("\"comm_r\": \"") + 11, 64);
  EXPECT_NE(refused(hex, hex.substr(1)).find("sectors[0].comm_r: 63 hex digits, expected 64"), std::string::npos);
  EXPECT_NE(refused(hex, std::string(64, 'f')).find("sectors[0].comm_r: value >= r"), std::string::npos);
}

// A full WindowPoSt partition, as a file or as the payload the cuzk.v1 route builds, fits the text
// limit: 32 GiB 2349 proofs of 24,960 bytes, 64 GiB 2300 of 25,520, each as "<base64>", (a limit of
// 64 MiB refused the 32 GiB one: 78,181,768 bytes).
TEST(PoStJson, FullPartitionsFitTheLimit) {
  const std::uint64_t GiB = std::uint64_t{1} << 30;
  EXPECT_EQ(fallback_post_sector_proof_size(32 * GiB, 10), 24'960u);
  EXPECT_EQ(fallback_post_sector_proof_size(64 * GiB, 10), 25'520u);
  for (const std::uint64_t size : {32 * GiB, 64 * GiB}) {
    const std::size_t n = window_post_sector_count(size);
    const std::size_t text = 2 + n * ((fallback_post_sector_proof_size(size, 10) + 2) / 3 * 4 + 3) - 1;
    EXPECT_LT(text, kMaxPoStJsonBytes) << size;
    EXPECT_GT(text, std::size_t{64} << 20) << size;
    EXPECT_LE(n, kMaxPoStSectors);
  }
}

// The cuzk.v1 form: the partition's sectors are the vanilla proofs' own, partition k of the request
// (first_partition, kept by the JSON); counts and WinningPoSt's one partition refused by name.
TEST(PoStJson, RequestFromVanilla) {
  const GeneratedPoSt g = generated();  // 3 sectors, 2 per partition
  const std::span<const FallbackPoStSectorProof> last(g.vanilla_proofs.data() + 2, 1);
  const PoStRequest r = post_request_from_vanilla(g.config, 1000, g.public_inputs.randomness, 1, last);
  EXPECT_EQ(r.partition, 1u);
  EXPECT_EQ(r.public_inputs.first_partition, 1u);
  EXPECT_EQ(r.public_inputs.sectors, (std::vector<PublicSector>{g.public_inputs.sectors[2]}));
  EXPECT_EQ(r.public_inputs.prover_id, g.public_inputs.prover_id);
  const PartitionSectors part = partition_sector_proofs(fallback_params(g.config), r.public_inputs, last, 1);
  const PartitionSectors whole =
      partition_sector_proofs(fallback_params(g.config), g.public_inputs, g.vanilla_proofs, 1);
  EXPECT_EQ(part.sectors, whole.sectors);
  EXPECT_EQ(part.proofs, whole.proofs);
  EXPECT_TRUE(verify_post_vanilla(fallback_params(g.config), r.public_inputs, part, 1).ok);
  EXPECT_NE(error_of([&] { partition_sector_proofs(fallback_params(g.config), r.public_inputs, last, 0); })
                .find("partition 0 of 1 sectors at 2 per partition from partition 1 does not exist"),
            std::string::npos);
  const std::string text = to_json(r);
  EXPECT_NE(text.find("\"first_partition\": 1"), std::string::npos) << text;
  EXPECT_EQ(parse_post_request_json(text).public_inputs.first_partition, 1u);
  EXPECT_EQ(to_json(PoStRequest{g.config, 1000, 0, g.public_inputs}).find("first_partition"), std::string::npos);

  EXPECT_NE(error_of([&] { post_request_from_vanilla(g.config, 1, g.public_inputs.randomness, 0, {}); })
                .find("0 vanilla proofs, expected 1 … 2"),
            std::string::npos);
  EXPECT_NE(error_of([&] { post_request_from_vanilla(g.config, 1, g.public_inputs.randomness, 0, g.vanilla_proofs); })
                .find("3 vanilla proofs, expected 1 … 2"),
            std::string::npos);
  const PoStConfig winning = post_config(PoStType::Winning, 2048, ApiVersion::V1_2_0);
  EXPECT_NE(error_of([&] { post_request_from_vanilla(winning, 1, g.public_inputs.randomness, 1, last); })
                .find("WinningPoSt has one partition, asked for partition 1"),
            std::string::npos);
}

}  // namespace
}  // namespace proofline::filecoin
