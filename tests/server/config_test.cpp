// The daemon's configuration: defaults, JSON and TOML-ish files, byte sizes, strict errors, and the
// options table that documents them (proofline/server/config.hpp).
#include <gtest/gtest.h>

#include <fstream>

#include "proofline/server/config.hpp"
#include "proofline/util/error.hpp"
#include "server_test_util.hpp"

namespace proofline::server {
namespace {

/// The message of the config's refusal; its code `want`: BadArgument for an option's value,
/// Malformed for text that does not parse.
std::string error_of(const std::string& text, Error want = Error::BadArgument) {
  try {
    DaemonConfig c;
    apply_config(c, parse_config_text(text, "cfg"), "cfg");
  } catch (const ProoflineError& e) {
    EXPECT_EQ(e.code(), want) << e.what();
    return e.what();
  }
  return "";
}

TEST(Config, JsonAndTomlishGiveTheSameResult) {
  const std::string json = R"({"listen": {"unix": "/tmp/x.sock", "tcp": ""},
    "engine": {"backend": "auto", "synthesis_workers": 3, "memory_budget": "8GiB", "reclaimer": false,
               "preload": ["a.params", "snarkjs:b.zkey"]},
    "server.max_threads": 16})";
  const std::string toml = R"(# daemon config
[listen]
unix = "/tmp/x.sock"   # a comment after a value
tcp = ""
[engine]
backend = "auto"
synthesis_workers = 3
memory_budget = "8GiB"
reclaimer = false
preload = ["a.params", "snarkjs:b.zkey"]
[server]
max_threads = 16
)";
  DaemonConfig a, b;
  apply_config(a, parse_config_text(json, "j"), "j");
  apply_config(b, parse_config_text(toml, "t"), "t");
  EXPECT_EQ(config_to_json(a), config_to_json(b));
  EXPECT_EQ(a.unix_socket, "/tmp/x.sock");
  EXPECT_EQ(a.tcp, "");
  EXPECT_EQ(a.backend, "auto");
  EXPECT_EQ(a.synthesis_workers, 3u);
  EXPECT_EQ(a.memory_budget, std::uint64_t{8} << 30);
  EXPECT_FALSE(a.reclaimer);
  EXPECT_EQ(a.preload, (std::vector<std::string>{"a.params", "snarkjs:b.zkey"}));
  EXPECT_EQ(a.max_threads, 16u);
  // Untouched options keep their defaults.
  EXPECT_EQ(a.prover_workers_per_backend, DaemonConfig{}.prover_workers_per_backend);
}

TEST(Config, DefaultsRoundTripThroughJson) {
  const DaemonConfig d;
  DaemonConfig e;
  e.backend = "cuda";
  e.tcp = "";
  apply_config(e, nlohmann::json::parse(config_to_json(d).dump()), "defaults");
  EXPECT_EQ(config_to_json(e), config_to_json(d));
  EXPECT_EQ(d.backend, "cpu");
  EXPECT_EQ(d.tcp, "127.0.0.1:50551");
  EXPECT_EQ(d.unix_socket, "/tmp/proofline.sock");
}

TEST(Config, ByteSizes) {
  EXPECT_EQ(parse_bytes("1024", "x"), 1024u);
  EXPECT_EQ(parse_bytes("512MiB", "x"), std::uint64_t{512} << 20);
  EXPECT_EQ(parse_bytes("1.5GiB", "x"), std::uint64_t{3} << 29);
  EXPECT_EQ(parse_bytes("2GB", "x"), 2000000000u);
  EXPECT_EQ(parse_bytes("1 TiB", "x"), std::uint64_t{1} << 40);
  EXPECT_THROW(parse_bytes("8 parsecs", "x"), ProoflineError);
  EXPECT_THROW(parse_bytes("GiB", "x"), ProoflineError);
  EXPECT_THROW(parse_bytes("99999999999TB", "x"), ProoflineError);
}

TEST(Config, ErrorsNameTheKeyPlaceAndExpectation) {
  EXPECT_NE(error_of(R"({"engine": {"synth_workers": 2}})").find("unknown option 'engine.synth_workers'"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"engine": {"synthesis_workers": "two"}})").find("engine.synthesis_workers: expected a non-negative integer"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"engine": {"backend": "tpu"}})").find("expected cpu, cuda or auto, got 'tpu'"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"engine": {"memory_budget": true}})").find("expected a byte size"), std::string::npos);
  EXPECT_NE(error_of(R"({"listen": 3})").find("expected a section object"), std::string::npos);
  EXPECT_NE(error_of(R"({"listen": )", Error::Malformed).find("not valid JSON"), std::string::npos);
  EXPECT_NE(error_of("[engine]\nbackend = cpu\n", Error::Malformed).find("cfg:2: value of 'backend' is not a JSON value"),
            std::string::npos);
  EXPECT_NE(error_of("[engine]\nreclaimer\n", Error::Malformed).find("cfg:2: expected key = value"), std::string::npos);
  EXPECT_NE(error_of("[engine\n", Error::Malformed).find("cfg:1: expected a [section] header"), std::string::npos);
  EXPECT_NE(error_of("[engine]\noverlap = true\noverlap = false\n").find("'engine.overlap' set twice"),
            std::string::npos);
  EXPECT_NE(error_of("[server]\nmax_threads = 2\n").find("expected 4 … 100000"), std::string::npos);
  // An integer beyond 2^64 - 1 (JSON reads it as a float) is "above", not shown as 9.99e+22 alone;
  // a long value is cut (new-user session 4, finding 12).
  EXPECT_NE(error_of(R"({"engine": {"synthesis_workers": 99999999999999999999999}})")
                .find("expected a non-negative integer, got one above 2^64 - 1"),
            std::string::npos);
  EXPECT_LT(error_of(R"({"engine": {"backend": [")" + std::string(5000, 'x') + R"("]}})").size(), 300u);
  EXPECT_THROW(load_config_file("/nonexistent/proofline.toml"), std::system_error);
}

TEST(Config, HelpDocumentsEveryOption) {
  const std::string help = config_help();
  for (const auto& o : config_options()) {
    EXPECT_NE(help.find("  " + o.key + " (" + o.type), std::string::npos) << o.key;
    EXPECT_FALSE(o.help.empty()) << o.key;
  }
  EXPECT_GE(config_options().size(), 19u);
}

TEST(Config, GpuDeviceMemoryLimit) {
  EXPECT_EQ(DaemonConfig{}.gpu_device_memory_limit, 0u);  // the device's memory
  DaemonConfig c;
  apply_config(c, parse_config_text("[gpu]\ndevice_memory_limit = \"20GiB\"\n", "cfg"), "cfg");
  EXPECT_EQ(c.gpu_device_memory_limit, std::uint64_t{20} << 30);
  apply_config(c, nlohmann::json{{"gpu.device_memory_limit", "24GiB"}}, "--set");
  EXPECT_EQ(c.gpu_device_memory_limit, std::uint64_t{24} << 30);
  EXPECT_NE(config_help().find("gpu.device_memory_limit (bytes"), std::string::npos);
}

TEST(Config, ParamsCheckAtStart) {
  EXPECT_FALSE(DaemonConfig{}.params_check_at_start);
  DaemonConfig c;
  apply_config(c, parse_config_text("[params]\ncheck_at_start = true\nsector_sizes = [\"32GiB\", \"2KiB\"]\n", "cfg"),
               "cfg");
  EXPECT_TRUE(c.params_check_at_start);
  EXPECT_EQ(c.params_sector_sizes, (std::vector<std::string>{"32GiB", "2KiB"}));
  // --set params.sector_sizes=8MiB arrives as a plain string.
  apply_config(c, nlohmann::json{{"params.sector_sizes", "8MiB"}}, "--set");
  EXPECT_EQ(c.params_sector_sizes, (std::vector<std::string>{"8MiB"}));
  // Only sizes with published parameter files (4 KiB is a proofline test size without any).
  EXPECT_NE(error_of("[params]\nsector_sizes = [\"4KiB\"]\n").find("'4KiB' is not a sector size with published"),
            std::string::npos);
  EXPECT_NE(error_of("[params]\nsector_sizes = [\"lots\"]\n").find("params.sector_sizes"), std::string::npos);
  EXPECT_NE(error_of("[params]\ncheck_at_start = 1\n").find("expected true or false"), std::string::npos);
}

TEST(Config, FileIsReadAndAppliedOntoDefaults) {
  const auto path = testing::server_dir() / "daemon.toml";
  std::ofstream(path) << "[engine]\nsynthesis_workers = 5\n";
  const DaemonConfig c = load_config_file(path.string());
  EXPECT_EQ(c.synthesis_workers, 5u);
  EXPECT_EQ(c.unix_socket, DaemonConfig{}.unix_socket);
}

}  // namespace
}  // namespace proofline::server
