// PoSt request files: base64 (RFC 4648 vectors, strict refusals), the JSON array of base64 vanilla
// proofs (round trip, errors naming the element), and the request JSON (round trip, named refusals).
#include <gtest/gtest.h>

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
  EXPECT_NE(error_of([&] { parse_vanilla_proofs_json(text, 16384, 10); }).find("vanilla_proofs[0]: "),
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

}  // namespace
}  // namespace proofline::filecoin
