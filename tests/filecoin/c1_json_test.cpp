// C1 JSON: round trips (Single, Sub and Top proofs), serde key order, and a table of malformed
// inputs, each rejected with the JSON path of the offending value.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "proofline/filecoin/c1.hpp"
#include "proofline/filecoin/porep.hpp"
#include "proofline/filecoin/seal.hpp"
#include "proofline/util/error.hpp"

namespace {

using namespace proofline;
using namespace proofline::filecoin;
using Json = nlohmann::ordered_json;

const SealCommitPhase1Output& c1_2k() {
  static const SealCommitPhase1Output c1 = gen_c1({RegisteredSealProof::StackedDrg2KiBV1_1, 5});
  return c1;
}

TEST(C1Json, RoundTrip) {
  for (auto p : {RegisteredSealProof::StackedDrg2KiBV1_1, RegisteredSealProof::StackedDrg16KiBV1_1_Test,
                 RegisteredSealProof::StackedDrg32KiBV1_1_Test}) {
    const auto c1 = gen_c1({p, 9});
    const std::string text = to_json(c1);
    const auto back = parse_c1_json(text);
    EXPECT_EQ(back, c1) << to_string(p);
    EXPECT_EQ(to_json(back), text);
    EXPECT_EQ(Json::parse(text).dump(), text);  // nlohmann's compact dump: same bytes, same key order
  }
  const auto sub = gen_c1({RegisteredSealProof::StackedDrg16KiBV1_1_Test, 1});
  EXPECT_EQ(sub.vanilla_proofs[0][0].comm_r_last_proof.kind, MerkleProofKind::Sub);
  EXPECT_EQ(gen_c1({RegisteredSealProof::StackedDrg32KiBV1_1_Test, 1}).vanilla_proofs[0][0].comm_r_last_proof.kind,
            MerkleProofKind::Top);
}

TEST(C1Json, SerdeShape) {
  const std::string text = to_json(c1_2k());
  EXPECT_EQ(text.rfind("{\"registered_proof\":\"StackedDrg2KiBV1_1\",\"vanilla_proofs\":{\"StackedDrg2KiBV1\":[[{"
                       "\"comm_d_proofs\":{\"data\":{\"Single\":{\"root\":[",
                       0),
            0u)
      << text.substr(0, 200);
  const Json j = Json::parse(text);
  const Json& v = j["vanilla_proofs"]["StackedDrg2KiBV1"][0][0];
  std::vector<std::string> keys;
  for (auto it = v.begin(); it != v.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"comm_d_proofs", "comm_r_last_proof", "replica_column_proofs",
                                            "labeling_proofs", "encoding_proof"}));
  EXPECT_TRUE(v["replica_column_proofs"]["c_x"]["column"]["_h"].is_null());
  EXPECT_EQ(v["comm_d_proofs"]["data"]["Single"]["path"]["path"].size(), 6u);
  EXPECT_EQ(v["labeling_proofs"][1]["layer_index"], 2);
  std::vector<std::string> top;
  for (auto it = j.begin(); it != j.end(); ++it) top.push_back(it.key());
  EXPECT_EQ(top, (std::vector<std::string>{"registered_proof", "vanilla_proofs", "comm_r", "comm_d", "replica_id",
                                           "seed", "ticket"}));
}

struct Case {
  const char* name;
  std::function<void(Json&)> mutate;
  const char* path;  // expected prefix of the message after "malformed C1 JSON: "
  const char* what;  // expected fragment
};

Json& proof(Json& j, int k = 0, int i = 1) { return j["vanilla_proofs"]["StackedDrg2KiBV1"][k][i]; }

TEST(C1Json, MalformedTable) {
  const std::string good = to_json(c1_2k());
  const char* p01 = "vanilla_proofs.StackedDrg2KiBV1[0][1]";
  const Case cases[] = {
      {"missing top-level field", [](Json& j) { j.erase("comm_d"); }, "comm_d", "missing field"},
      {"missing nested field",
       [](Json& j) { proof(j)["labeling_proofs"][1].erase("layer_index"); },
       "vanilla_proofs.StackedDrg2KiBV1[0][1].labeling_proofs[1].layer_index", "missing field"},
      {"wrong hashes length",
       [](Json& j) { proof(j)["comm_d_proofs"]["data"]["Single"]["path"]["path"][3]["hashes"] = Json::array(); },
       "vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs.data.Single.path.path[3].hashes",
       "expected 1 elements, got 0"},
      {"short byte array",
       [](Json& j) { proof(j)["comm_d_proofs"]["data"]["Single"]["path"]["path"][3]["hashes"][0].erase(5); },
       "vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs.data.Single.path.path[3].hashes[0]",
       "expected 32 elements, got 31"},
      {"byte > 255",
       [](Json& j) { proof(j)["comm_d_proofs"]["data"]["Single"]["path"]["path"][3]["hashes"][0][5] = 256; },
       "vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs.data.Single.path.path[3].hashes[0][5]",
       "expected a byte 0..255, got 256"},
      {"negative byte", [](Json& j) { j["seed"][0] = -1; }, "seed[0]", "expected a byte"},
      {"byte as string", [](Json& j) { j["ticket"][3] = "7"; }, "ticket[3]", "got string"},
      {"value >= r",
       [](Json& j) {
         for (auto& b : j["comm_r"]) b = 255;
       },
       "comm_r", "value >= r"},
      {"row >= r",
       [](Json& j) {
         auto& row = proof(j)["replica_column_proofs"]["exp_parents"][4]["column"]["rows"][1];
         for (auto& b : row) b = 0xee;
       },
       "vanilla_proofs.StackedDrg2KiBV1[0][1].replica_column_proofs.exp_parents[4].column.rows[1]", "value >= r"},
      {"wrong proof kind",
       [](Json& j) {
         auto& d = proof(j)["comm_r_last_proof"]["data"];
         d["Sub"] = d["Single"];
         d.erase("Single");
       },
       "vanilla_proofs.StackedDrg2KiBV1[0][1].comm_r_last_proof.data.Sub", "wrong proof kind"},
      {"two proof kinds",
       [](Json& j) {
         auto& d = proof(j)["comm_d_proofs"]["data"];
         d["Top"] = d["Single"];
       },
       "vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs.data", "one key"},
      {"path too short",
       [](Json& j) { proof(j)["comm_d_proofs"]["data"]["Single"]["path"]["path"].erase(0); },
       "vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs.data.Single.path.path", "expected 6 elements, got 5"},
      {"index >= arity",
       [](Json& j) { proof(j)["comm_r_last_proof"]["data"]["Single"]["path"]["path"][0]["index"] = 8; },
       "vanilla_proofs.StackedDrg2KiBV1[0][1].comm_r_last_proof.data.Single.path.path[0].index", "exceeds 7"},
      {"five drg parents",
       [](Json& j) { proof(j)["replica_column_proofs"]["drg_parents"].erase(5); },
       "vanilla_proofs.StackedDrg2KiBV1[0][1].replica_column_proofs.drg_parents", "expected 6 elements, got 5"},
      {"three rows for two layers",
       [](Json& j) {
         auto& rows = proof(j)["replica_column_proofs"]["c_x"]["column"]["rows"];
         rows.push_back(rows[0]);
       },
       "vanilla_proofs.StackedDrg2KiBV1[0][1].replica_column_proofs.c_x.column.rows", "expected 2 elements, got 3"},
      {"36 label parents",
       [](Json& j) { proof(j)["encoding_proof"]["parents"].erase(0); },
       "vanilla_proofs.StackedDrg2KiBV1[0][1].encoding_proof.parents", "expected 37 elements, got 36"},
      {"column index out of range",
       [](Json& j) { proof(j)["replica_column_proofs"]["c_x"]["column"]["index"] = 64; },
       "vanilla_proofs.StackedDrg2KiBV1[0][1].replica_column_proofs.c_x.column.index", "exceeds 63"},
      {"node as string", [](Json& j) { proof(j, 0, 0)["labeling_proofs"][0]["node"] = "5"; },
       "vanilla_proofs.StackedDrg2KiBV1[0][0].labeling_proofs[0].node", "non-negative integer"},
      {"one challenge missing", [](Json& j) { j["vanilla_proofs"]["StackedDrg2KiBV1"][0].erase(1); },
       "vanilla_proofs.StackedDrg2KiBV1[0]", "expected 2 elements, got 1"},
      {"two partitions",
       [](Json& j) {
         auto& parts = j["vanilla_proofs"]["StackedDrg2KiBV1"];
         parts.push_back(parts[0]);
       },
       "vanilla_proofs.StackedDrg2KiBV1", "expected 1 elements, got 2"},
      {"vanilla key of another size",
       [](Json& j) {
         auto& v = j["vanilla_proofs"];
         v["StackedDrg8MiBV1"] = v["StackedDrg2KiBV1"];
         v.erase("StackedDrg2KiBV1");
       },
       "vanilla_proofs.StackedDrg8MiBV1", "expected \"StackedDrg2KiBV1\""},
      {"unknown registered proof", [](Json& j) { j["registered_proof"] = "StackedDrg2KiBV9"; }, "registered_proof",
       "unknown"},
      {"registered proof as number", [](Json& j) { j["registered_proof"] = 5; }, "registered_proof",
       "expected a string"},
      {"column not an object",
       [](Json& j) { proof(j)["replica_column_proofs"]["exp_parents"][7]["column"] = Json::array(); },
       "vanilla_proofs.StackedDrg2KiBV1[0][1].replica_column_proofs.exp_parents[7].column", "expected an object"},
  };
  for (const auto& c : cases) {
    Json j = Json::parse(good);
    c.mutate(j);
    try {
      parse_c1_json(j.dump());
      ADD_FAILURE() << c.name << ": accepted";
    } catch (const ProoflineError& e) {
      EXPECT_EQ(e.code(), Error::BadC1Json) << c.name;
      const std::string msg = e.what();
      const std::string prefix = "malformed C1 JSON: " + std::string(c.path) + ": ";
      EXPECT_EQ(msg.rfind(prefix, 0), 0u) << c.name << ": " << msg;
      EXPECT_NE(msg.find(c.what), std::string::npos) << c.name << ": " << msg;
    }
  }
}

TEST(C1Json, NotJson) {
  try {
    parse_c1_json("{\"registered_proof\": \"StackedDrg2KiBV1_1\", ");
    FAIL();
  } catch (const ProoflineError& e) {
    EXPECT_NE(std::string(e.what()).find("not valid JSON at byte"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_c1_json("[1, 2]"), ProoflineError);
  EXPECT_THROW(parse_c1_json(""), ProoflineError);
}

// Numbers simdjson and nlohmann read differently: an integer past 64 bits (nlohmann: a double;
// simdjson: refused) is named by its byte offset; a fraction where a byte belongs is shown as
// nlohmann's dump showed it; a byte of 2^63 … 2^64 − 1 (simdjson: unsigned) is not a byte.
TEST(C1Json, NumbersOutsideTheBytesAreNamed) {
  const std::string good = to_json(c1_2k());
  const std::string key = "\"seed\":[";
  const auto at = good.find(key);
  ASSERT_NE(at, std::string::npos);
  const std::size_t first = at + key.size();
  const std::size_t comma = good.find(',', first);
  auto with_first_seed_byte = [&](const std::string& v) { return good.substr(0, first) + v + good.substr(comma); };
  try {
    parse_c1_json(with_first_seed_byte("123456789012345678901234"));
    ADD_FAILURE() << "a 24-digit integer accepted";
  } catch (const ProoflineError& e) {
    EXPECT_EQ(e.code(), Error::BadC1Json);
    EXPECT_NE(std::string(e.what()).find("a number at byte " + std::to_string(first) + " does not fit 64 bits"),
              std::string::npos)
        << e.what();
  }
  const std::pair<const char*, const char*> cases[] = {
      {"1.5", "seed[0]: expected a byte 0..255, got 1.5"},
      {"2.0", "seed[0]: expected a byte 0..255, got 2.0"},
      {"18446744073709551615", "seed[0]: expected a byte 0..255, got 18446744073709551615"},
      {"true", "seed[0]: expected a byte 0..255, got boolean"},
      {"null", "seed[0]: expected a byte 0..255, got null"}};
  for (const auto& [value, message] : cases) {
    try {
      parse_c1_json(with_first_seed_byte(value));
      ADD_FAILURE() << value << " accepted as a byte";
    } catch (const ProoflineError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << value << ": " << e.what();
    }
  }
}

// Issue 21: a real C1 with one value replaced by an array nested 200,000 levels deep (the 527 KB
// request that crashed the daemon) is refused from its text, naming the depth and the byte.
TEST(C1Json, DeepNestingIsRefusedBeforeParsing) {
  std::string text = to_json(c1_2k());
  const std::string key = "\"comm_r\":";
  const auto at = text.find(key);
  ASSERT_NE(at, std::string::npos);
  const auto end = text.find(']', at);
  text.replace(at + key.size(), end + 1 - (at + key.size()), std::string(200000, '[') + std::string(200000, ']'));
  try {
    parse_c1_json(text);
    FAIL() << "accepted";
  } catch (const ProoflineError& e) {
    EXPECT_EQ(e.code(), Error::BadC1Json);
    const std::string msg = e.what();
    EXPECT_NE(msg.find("(document): nested deeper than 64 levels at byte"), std::string::npos) << msg;
  }
  // 60 levels: within the limit, refused for its shape with the JSON path as before.
  text = to_json(c1_2k());
  const auto at2 = text.find(key);
  text.replace(at2 + key.size(), text.find(']', at2) + 1 - (at2 + key.size()), std::string(60, '[') + std::string(60, ']'));
  try {
    parse_c1_json(text);
    FAIL() << "accepted";
  } catch (const ProoflineError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("malformed C1 JSON: comm_r: ", 0), 0u) << e.what();
  }
}

TEST(C1Json, OversizedFileIsRefusedFromItsSize) {
  const auto path = std::filesystem::temp_directory_path() / "proofline_c1_huge.json";
  {
    std::ofstream f(path, std::ios::binary);
    f.seekp(static_cast<std::streamoff>(kMaxC1JsonBytes));  // sparse: kMaxC1JsonBytes + 1 bytes, nothing read
    f.put('}');
  }
  try {
    read_c1_file(path);
    FAIL() << "accepted";
  } catch (const ProoflineError& e) {
    EXPECT_NE(std::string(e.what()).find("268435457 bytes, more than the 268435456 bytes"), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
}

TEST(C1Json, Files) {
  const auto path = std::filesystem::temp_directory_path() / "proofline_c1_test.json";
  write_c1_file(path, c1_2k());
  EXPECT_EQ(read_c1_file(path), c1_2k());
  std::filesystem::remove(path);
  try {
    read_c1_file(path);
    FAIL();
  } catch (const ProoflineError& e) {
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos);
  }
}

}  // namespace

// ---- the Commit2In envelope (Curio → cuzk, lotus-bench c1.json; reference cuzk-api §3.1) ----------

namespace envelope_test {

std::string b64(std::string_view s) {  // RFC 4648 standard alphabet with '=' padding, written here
  static const char* A = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 3 <= s.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(s[i]) << 16) | (static_cast<unsigned char>(s[i + 1]) << 8) |
                       static_cast<unsigned char>(s[i + 2]);
    for (int k = 18; k >= 0; k -= 6) out.push_back(A[(v >> k) & 63]);
  }
  if (s.size() - i == 1) {
    const unsigned v = static_cast<unsigned char>(s[i]) << 16;
    out += {A[(v >> 18) & 63], A[(v >> 12) & 63], '=', '='};
  } else if (s.size() - i == 2) {
    const unsigned v = (static_cast<unsigned char>(s[i]) << 16) | (static_cast<unsigned char>(s[i + 1]) << 8);
    out += {A[(v >> 18) & 63], A[(v >> 12) & 63], A[(v >> 6) & 63], '='};
  }
  return out;
}

std::string envelope(const std::string& phase1_b64, std::int64_t num = 7, std::uint64_t size = 2048) {
  return "{\"SectorNum\":" + std::to_string(num) + ",\"Phase1Out\":\"" + phase1_b64 + "\",\"SectorSize\":" +
         std::to_string(size) + "}";
}

std::string error_of(const std::string& text) {
  try {
    (void)parse_c1_json(text);
  } catch (const ProoflineError& e) {
    EXPECT_EQ(e.code(), Error::BadC1Json) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "accepted: " << text.substr(0, 120);
  return "";
}

}  // namespace envelope_test

TEST(C1Json, Commit2InEnvelope) {
  using namespace envelope_test;
  EXPECT_EQ(b64("foobar"), "Zm9vYmFy");  // RFC 4648 §10 vectors: the helper itself is right
  EXPECT_EQ(b64("fooba"), "Zm9vYmE=");
  EXPECT_EQ(b64("foob"), "Zm9vYg==");
  const std::string text = to_json(c1_2k());
  // Every padding length: the C1 text, and the same with 1 and 2 spaces appended (valid JSON).
  for (const std::string& t : {text, text + " ", text + "  "}) {
    C1Envelope env;
    EXPECT_EQ(parse_c1_json(envelope(b64(t), 1234567, 2048), &env), c1_2k());
    EXPECT_TRUE(env.present);
    EXPECT_EQ(env.sector_num, 1234567);
    EXPECT_EQ(env.sector_size, 2048u);
  }
  // Keys in another order and SectorSize 0 (not given); the bare C1 reports no envelope.
  C1Envelope env;
  EXPECT_EQ(parse_c1_json("{\"Phase1Out\":\"" + b64(text) + "\",\"SectorSize\":0,\"SectorNum\":-1}", &env), c1_2k());
  EXPECT_EQ(env.sector_num, -1);
  EXPECT_EQ(parse_c1_json(text, &env), c1_2k());
  EXPECT_FALSE(env.present);
}

TEST(C1Json, GoRemarshalledC1InsideTheEnvelope) {
  using namespace envelope_test;
  // Go's json.Marshal of curio's Commit1OutRaw writes the struct's keys in another order (comm_d,
  // comm_r, registered_proof, replica_id, seed, ticket, vanilla_proofs): nlohmann's sorted-key dump
  // gives such a reordering at every level. Same value.
  const std::string sorted = nlohmann::json::parse(to_json(c1_2k())).dump();
  ASSERT_NE(sorted, to_json(c1_2k()));
  EXPECT_EQ(sorted.rfind("{\"comm_d\":", 0), 0u);
  EXPECT_EQ(parse_c1_json(envelope(b64(sorted))), c1_2k());
  EXPECT_EQ(parse_c1_json(sorted), c1_2k());
}

TEST(C1Json, MalformedEnvelopes) {
  using namespace envelope_test;
  const std::string good = b64(to_json(c1_2k()));
  auto expect = [](const std::string& text, const std::string& starts) {
    const std::string what = error_of(text);
    EXPECT_NE(what.find(starts), std::string::npos) << "got: " << what << "\nwanted: " << starts;
  };
  // cuzk's own wrapper test payload: "hello" is not JSON.
  expect(envelope("aGVsbG8=", 1, 34359738368), "Phase1Out (base64 of the C1 JSON): (document): not valid JSON at byte 1");
  expect(envelope("aGVsbG8=", 1, 34359738368), "last read: 'h'");  // decoded: the parser saw "hello"
  expect(envelope(good.substr(0, good.size() - 1)), "Phase1Out: base64 text of");
  expect(envelope("Zm9v*mFy"), "Phase1Out: not base64 at character 4");
  expect(envelope("Zm=vYmFy"), "Phase1Out: not base64 at character 2");
  expect(envelope(good, 7, 34359738368), "SectorSize: 34359738368 bytes, but Phase1Out's registered_proof is a 2048-byte sector");
  expect("{\"SectorNum\":1,\"Phase1Out\":12,\"SectorSize\":2048}", "Phase1Out: expected a base64 string");
  expect("{\"SectorNum\":\"1\",\"Phase1Out\":\"" + good + "\",\"SectorSize\":2048}", "SectorNum: expected an integer");
  expect("{\"SectorNum\":1,\"Phase1Out\":\"" + good + "\",\"SectorSize\":-5}", "SectorSize: expected an unsigned integer");
  expect("{\"SectorNum\":1,\"Phase1Out\":\"" + good + "\"}", "SectorSize: missing field");
  expect("{\"SectorNum\":1,\"Phase1Out\":\"" + good + "\",\"SectorSize\":2048,\"X\":1}", "X: unknown key in the Commit2In envelope");
  // An error deep inside the C1 keeps its JSON path, under the Phase1Out prefix.
  Json j = Json::parse(to_json(c1_2k()));
  j["comm_r"][0] = 256;
  expect(envelope(b64(j.dump())), "Phase1Out (base64 of the C1 JSON): comm_r");
}

TEST(ProverId, FromMinerIdIsUnsignedLeb128) {
  // cuzk's prover.rs unit vectors: 1000 → e8 07, 128 → 80 01; and the u64 extremes.
  auto head = [](std::uint64_t id, std::size_t n) {
    const Domain d = prover_id_from_miner(id);
    for (std::size_t i = n; i < 32; ++i) EXPECT_EQ(d[i], 0) << id << " byte " << i;
    return std::vector<int>(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(n));
  };
  EXPECT_EQ(head(1000, 2), (std::vector<int>{0xe8, 0x07}));
  EXPECT_EQ(head(128, 2), (std::vector<int>{0x80, 0x01}));
  EXPECT_EQ(head(127, 1), (std::vector<int>{0x7f}));
  EXPECT_EQ(head(0, 1), (std::vector<int>{0x00}));
  EXPECT_EQ(head(~std::uint64_t{0}, 10),
            (std::vector<int>{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}));
}
