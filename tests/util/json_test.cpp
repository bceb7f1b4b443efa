// util/json.hpp: the size and nesting limits every outside JSON document is parsed under (issue 21:
// a C1 nested 200,000 levels deep crashed the daemon; a public.json nested 80,000 levels the CLI).
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "proofline/util/json.hpp"

namespace proofline::json {
namespace {

std::string nested(std::size_t depth, char open = '[', char close = ']') {
  return std::string(depth, open) + std::string(depth, close);
}

std::string error_of(const std::string& text, const Limits& l, Error code = Error::Malformed) {
  try {
    check_limits(text, l, "doc.json", code);
  } catch (const ProoflineError& e) {
    EXPECT_EQ(e.code(), code);
    return e.what();
  }
  return "";
}

TEST(JsonLimits, DepthAtTheLimitPassesOneMoreIsRefusedWithItsOffset) {
  EXPECT_EQ(error_of(nested(64), {1 << 20}), "");
  const std::string msg = error_of(nested(65), {1 << 20});
  EXPECT_EQ(msg, "malformed input: doc.json: nested deeper than 64 levels at byte 64 (no valid document of this kind "
                 "nests that deep)");
  // Objects count as levels too: {"a":{"a":…}}.
  std::string obj;
  for (int i = 0; i < 5; ++i) obj += "{\"a\":";
  obj += "1" + std::string(5, '}');
  EXPECT_EQ(error_of(obj, {1 << 20, 5}), "");
  EXPECT_NE(error_of(obj, {1 << 20, 4}).find("nested deeper than 4 levels at byte 20"), std::string::npos);
}

TEST(JsonLimits, BracketsInsideStringsAndEscapedQuotesDoNotCount) {
  const std::string text = R"(["[[[[[[", "\"[[[[[[[", "\\", {"k]]]]": "{{{{"}])";
  EXPECT_EQ(error_of(text, {1 << 20, 2}), "");
  EXPECT_NE(error_of(text, {1 << 20, 1}).find("at byte 30"), std::string::npos);
  // An unterminated string or escape at the end: not the checker's business (the parser says so).
  EXPECT_EQ(error_of("[\"abc\\", {1 << 20, 1}), "");
  EXPECT_EQ(error_of("[\"abc", {1 << 20, 1}), "");
}

TEST(JsonLimits, TwoHundredThousandLevelsAreRefusedAtOnceWithoutRecursion) {
  const std::string deep = "{\"comm_r\":" + nested(200000) + "}";
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_THROW(parse<nlohmann::json>(deep, {1 << 20}, "c1.json"), ProoflineError);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
}

// The fresh-user tester: '["35","17"]\0garbage{{{' was accepted (the parser stops at the NUL).
TEST(JsonLimits, NulBytesAreRefusedWhereverTheyAre) {
  using namespace std::string_literals;
  EXPECT_NE(error_of("[\"35\",\"17\"]\0garbage{{{"s, {1 << 20}).find("a NUL byte at byte 11 (not valid in JSON text)"),
            std::string::npos);
  EXPECT_NE(error_of("[\"3\0\"]"s, {1 << 20}).find("a NUL byte at byte 3"), std::string::npos);  // inside a string
  EXPECT_EQ(error_of("[\"\\u0000\"]", {1 << 20}), "");  // the escaped form is valid JSON
}

TEST(JsonLimits, SizeIsCheckedBeforeAnything) {
  const std::string msg = error_of("[1,2,3]", {6});
  EXPECT_EQ(msg, "malformed input: doc.json: 7 bytes, more than the 6 bytes a valid document of this kind can have");
  EXPECT_EQ(error_of("[1,2,3]", {7}), "");
}

TEST(JsonLimits, ParseNamesTheSourceAndByteOfASyntaxError) {
  try {
    parse<nlohmann::json>("[1, 2,, 3]", {100}, "public.json", Error::BadC1Json);
    FAIL() << "no error";
  } catch (const ProoflineError& e) {
    EXPECT_EQ(e.code(), Error::BadC1Json);
    EXPECT_NE(std::string(e.what()).find("public.json: not valid JSON at byte 7"), std::string::npos) << e.what();
  }
  const auto j = parse<nlohmann::ordered_json>(R"({"b": 1, "a": [true, null]})", {100}, "x");
  EXPECT_EQ(j.dump(), R"({"b":1,"a":[true,null]})");
}

}  // namespace
}  // namespace proofline::json
