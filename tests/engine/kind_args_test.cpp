// Kinds own their plumbing (engine/kind.hpp): every built-in kind registers itself and survives the
// static link (KindRegistry::builtin), a kind registered from a test file joins them, each declares
// its arguments, and check_arguments / check_value / check_declarations enforce the declarations
// with messages that name the kind, the argument and the expected form.
#include <gtest/gtest.h>

#include <set>

#include "engine_test_util.hpp"

namespace proofline::engine {
namespace {

std::vector<std::string> names_of(const std::vector<ArgSpec>& args) {
  std::vector<std::string> out;
  for (const auto& a : args) out.push_back(a.name);
  return out;
}

/// Registered from this file alone (as a test or a host program adds a kind): no list names it.
class ProbeKind final : public ProofKind {
 public:
  std::string_view name() const override { return "registrar-probe"; }
  std::string_view description() const override { return "registered by tests/engine/kind_args_test.cpp"; }
  std::vector<ArgSpec> arguments() const override { return {ArgSpec("n", ArgType::Int, "a number").require()}; }
  std::shared_ptr<const KindJob> prepare(const ProofRequest&) const override {
    throw std::invalid_argument("registrar-probe proves nothing");
  }
};

}  // namespace

PROOFLINE_REGISTER_KIND(kind_args_test, std::make_shared<ProbeKind>());

namespace {

std::string message(const std::vector<ArgSpec>& args, const ProofRequest& r) {
  try {
    check_arguments("k", args, r);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

ProofRequest with(std::map<std::string, std::string> args, std::string payload = "") {
  ProofRequest r;
  r.kind = "k";
  r.args = std::move(args);
  r.payload.assign(payload.begin(), payload.end());
  return r;
}

// The built-in kinds live in files nothing references (bench_kind.cpp, porep_kind.cpp): each is
// present, with the arguments it declares, in declaration order.
TEST(Kinds, EveryBuiltinKindIsRegisteredWithItsDeclarations) {
  const auto r = KindRegistry::builtin();
  EXPECT_EQ(r->names(), (std::vector<std::string>{"bench", "mul", "porep-c2", "registrar-probe", "snap-update",
                                                "snarkjs", "window-post", "winning-post"}));
  EXPECT_EQ(names_of(r->get("bench")->arguments()),
            (std::vector<std::string>{"params", "size", "partitions", "input", "checked", "compiled"}));
  EXPECT_EQ(names_of(r->get("mul")->arguments()), (std::vector<std::string>{"params", "partitions", "input", "checked", "compiled"}));
  EXPECT_EQ(names_of(r->get("snarkjs")->arguments()), (std::vector<std::string>{"zkey", "wtns", "checked", "compiled"}));
  EXPECT_EQ(names_of(r->get("porep-c2")->arguments()),
            (std::vector<std::string>{"c1", "params", "param_cache", "prover_id", "sector_id", "registered_proof",
                                      "sector_size", "check_constraints", "compiled", "partition"}));
  for (const std::string k : {"bench", "mul", "porep-c2", "snarkjs"}) {
    const auto args = r->get(k)->arguments();
    EXPECT_NO_THROW(check_declarations(k, args)) << k;
    // One argument names the parameter set (engine.preload, PreloadSRS).
    EXPECT_EQ(std::count_if(args.begin(), args.end(), [](const ArgSpec& a) { return a.srs; }), 1) << k;
    for (const auto& a : args) EXPECT_FALSE(a.help.empty()) << k << "." << a.name;
  }
  EXPECT_EQ(r->get("snarkjs")->proof_format(), "snarkjs");
  EXPECT_EQ(r->get("bench")->proof_format(), "bellperson");
  const auto wtns = r->get("snarkjs")->arguments()[1];
  EXPECT_TRUE(wtns.payload && wtns.required && wtns.type == ArgType::File);
  const auto prover = r->get("porep-c2")->arguments()[3];
  EXPECT_EQ(prover.type, ArgType::Hex);
  EXPECT_EQ(prover.bytes, 32u);
  EXPECT_EQ(prover.needs, (std::vector<std::string>{"sector_id"}));
  // Each call builds a fresh registry of the same kinds (a registry may be extended per engine).
  EXPECT_EQ(KindRegistry::builtin()->find("bench") != nullptr, true);
  EXPECT_THROW(r->get("porep"), std::invalid_argument);
}

TEST(Kinds, ValuesAreCheckedAgainstTheirForm) {
  const ArgSpec n = ArgSpec("n", ArgType::Int, "").range(1, 4096);
  EXPECT_EQ(check_value(n, "1"), "");
  EXPECT_EQ(check_value(n, "4096"), "");
  for (const char* bad : {"0", "4097", "-1", "+1", " 1", "1x", "0x10", "1e3", "18446744073709551616"}) {
    EXPECT_EQ(check_value(n, bad), "expected an integer 1 … 4096") << bad;
  }
  EXPECT_EQ(check_value(ArgSpec("u", ArgType::Int, ""), "18446744073709551615"), "");
  EXPECT_EQ(check_value(ArgSpec("u", ArgType::Int, ""), "x"), "expected an integer 0 … 2^64 - 1");
  const ArgSpec size = ArgSpec("size", ArgType::Size, "").range(4, 27);
  EXPECT_EQ(check_value(size, "2^4"), "");
  EXPECT_EQ(check_value(size, "65536"), "");
  EXPECT_EQ(check_value(size, "2^27"), "");
  for (const char* bad : {"2^3", "2^28", "8", "1000", "2^", "2^x", "0"}) {
    EXPECT_EQ(check_value(size, bad), "expected 2^k or a power of two, k 4 … 27") << bad;
  }
  EXPECT_EQ(check_value(ArgSpec("s", ArgType::Size, ""), "2^64"), "expected 2^k or a power of two");
  const ArgSpec flag("b", ArgType::Bool, "");
  EXPECT_EQ(check_value(flag, "1"), "");
  EXPECT_EQ(check_value(flag, "true"), "expected 0 or 1");
  const ArgSpec id = ArgSpec("id", ArgType::Hex, "").of_bytes(2);
  EXPECT_EQ(check_value(id, "aB09"), "");
  EXPECT_EQ(check_value(id, "ab0"), "expected 4 hex digits (2 bytes)");
  EXPECT_EQ(check_value(id, "ab0g"), "expected 4 hex digits (2 bytes)");
  EXPECT_EQ(check_value(ArgSpec("h", ArgType::Hex, ""), "abc"), "expected hex digits");
  EXPECT_EQ(check_value(ArgSpec("f", ArgType::File, ""), "/x"), "");
  EXPECT_EQ(check_value(ArgSpec("t", ArgType::String, ""), "anything at all"), "");
  EXPECT_EQ(describe_form(ArgSpec("w", ArgType::File, "").or_payload()),
            "a file path on the prover's machine, or the file's bytes as the request payload");
  for (ArgType t : {ArgType::String, ArgType::File, ArgType::Dir, ArgType::Int, ArgType::Size, ArgType::Bool,
                    ArgType::Hex}) {
    EXPECT_EQ(arg_type_from_string(to_string(t)), t);
  }
  EXPECT_EQ(arg_type_from_string("timestamp"), std::nullopt);
}

TEST(Kinds, RequestsAreCheckedAgainstTheDeclarations) {
  const std::vector<ArgSpec> args = {
      ArgSpec("params", ArgType::File, "the parameters").require().names_srs(),
      ArgSpec("wtns", ArgType::File, "the witness").require().or_payload(),
      ArgSpec("n", ArgType::Int, "a count").range(1, 9),
      ArgSpec("id", ArgType::Hex, "an id").of_bytes(1).needing("seq"),
      ArgSpec("seq", ArgType::Int, "a number").needing("id"),
  };
  EXPECT_EQ(message(args, with({{"params", "/p"}, {"wtns", "/w"}})), "");
  EXPECT_EQ(message(args, with({{"params", "/p"}}, "witness bytes")), "");
  EXPECT_EQ(message(args, with({{"params", "/p"}, {"wtns", "/w"}, {"id", "ff"}, {"seq", "3"}, {"n", "9"}})), "");
  EXPECT_EQ(message(args, with({{"params", "/p"}, {"wtns", "/w"}, {"nn", "1"}})),
            "kind 'k' has no argument 'nn' (its arguments: params, wtns, n, id, seq)");
  EXPECT_EQ(message(args, with({{"params", "/p"}, {"wtns", "/w"}}, "xy")),
            "kind 'k': both the argument 'wtns' and the request payload (2 bytes) give its input; give one");
  EXPECT_EQ(message(args, with({{"params", "/p"}, {"wtns", "/w"}, {"n", "10"}})),
            "kind 'k': argument 'n' = '10': expected an integer 1 … 9");
  EXPECT_EQ(message(args, with({{"wtns", "/w"}})), "kind 'k' needs the argument 'params' (the parameters)");
  EXPECT_EQ(message(args, with({{"params", "/p"}, {"wtns", ""}})),  // an empty value is no value
            "kind 'k' needs the argument 'wtns' (the witness) or its bytes as the request payload");
  EXPECT_EQ(message(args, with({{"params", "/p"}, {"wtns", "/w"}, {"seq", "1"}})),
            "kind 'k': argument 'seq' needs 'id' too");
  const std::string long_value(200, '7');
  EXPECT_EQ(message(args, with({{"params", "/p"}, {"wtns", "/w"}, {"n", long_value}})),
            "kind 'k': argument 'n' = '" + std::string(61, '7') + "...': expected an integer 1 … 9");
  // A kind that takes no payload refuses one.
  EXPECT_EQ(message({ArgSpec("n", ArgType::Int, "")}, with({}, "abc")), "kind 'k' takes no request payload (got 3 bytes)");
}

TEST(Kinds, UnusableDeclarationsAreRefusedWhenAKindIsAdded) {
  auto refused = [](const std::vector<ArgSpec>& args) {
    try {
      check_declarations("k", args);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(refused({ArgSpec("Size", ArgType::Int, "")}), "kind 'k' declares an argument named 'Size' (names are [a-z][a-z0-9_]*)");
  EXPECT_EQ(refused({ArgSpec("", ArgType::Int, "")}), "kind 'k' declares an argument named '' (names are [a-z][a-z0-9_]*)");
  EXPECT_EQ(refused({ArgSpec("a", ArgType::Int, ""), ArgSpec("a", ArgType::Int, "")}), "kind 'k' declares the argument 'a' twice");
  EXPECT_EQ(refused({ArgSpec("a", ArgType::File, "").or_payload(), ArgSpec("b", ArgType::File, "").or_payload()}),
            "kind 'k' declares 2 payload arguments (at most one)");
  EXPECT_EQ(refused({ArgSpec("a", ArgType::String, "").or_payload()}),
            "kind 'k' declares 'a' as payload or srs, but it is not a file");
  EXPECT_EQ(refused({ArgSpec("a", ArgType::Int, "").range(5, 4)}), "kind 'k' declares 'a' with min 5 > max 4");
  EXPECT_EQ(refused({ArgSpec("a", ArgType::Int, "").needing("b")}),
            "kind 'k' declares 'a' needing 'b', which it does not declare");

  class BadKind final : public ProofKind {
   public:
    std::string_view name() const override { return "bad"; }
    std::string_view description() const override { return ""; }
    std::vector<ArgSpec> arguments() const override { return {ArgSpec("x-y", ArgType::Int, "")}; }
    std::shared_ptr<const KindJob> prepare(const ProofRequest&) const override { return nullptr; }
  };
  KindRegistry r;
  EXPECT_THROW(r.add(std::make_shared<BadKind>()), std::invalid_argument);
  EXPECT_TRUE(r.names().empty());
}

// The engine refuses a request that does not fit the kind's declarations before prepare(): the job
// fails alone with the declaration's message.
TEST(Kinds, TheEngineChecksRequestsBeforePrepare) {
  Engine e(testing::test_config(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1})));
  ProofRequest r = testing::bench_request("form", 6, 1, 1);
  r.args["checked"] = "yes";
  AwaitResult a = e.prove(r, std::chrono::seconds(60));
  EXPECT_EQ(a.result.state, JobState::Failed);
  EXPECT_NE(a.result.error.find("kind 'bench': argument 'checked' = 'yes': expected 0 or 1"), std::string::npos)
      << a.result.error;
  ProofRequest probe;
  probe.kind = "registrar-probe";
  a = e.prove(probe, std::chrono::seconds(60));
  EXPECT_NE(a.result.error.find("kind 'registrar-probe' needs the argument 'n' (a number)"), std::string::npos)
      << a.result.error;
}

}  // namespace
}  // namespace proofline::engine
