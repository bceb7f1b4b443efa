// util/utf8.hpp: RFC 3629's valid sequences kept, every other byte escaped as \xNN (issue 33,
// finding 3: cuzk.v1 error messages quoting a client's bytes must stay decodable proto3 strings).
#include <gtest/gtest.h>

#include <string>

#include "proofline/util/utf8.hpp"

namespace proofline {
namespace {

TEST(Utf8, ValidSequencesAreKept) {
  // ASCII (controls too), 2-, 3- and 4-byte forms at their range limits: U+0080, U+07FF, U+0800,
  // U+D7FF, U+E000, U+FFFF, U+10000, U+10FFFF.
  const std::string valid = std::string("ok \t\n\x01", 7) + "\xc2\x80" "\xdf\xbf" "\xe0\xa0\x80" "\xed\x9f\xbf"
                            "\xee\x80\x80" "\xef\xbf\xbf" "\xf0\x90\x80\x80" "\xf4\x8f\xbf\xbf" "é€😀";
  EXPECT_EQ(utf8_escape_invalid(valid), valid);
  EXPECT_EQ(utf8_sequence_length("\xf0\x9f\x98\x80"), 4u);
  EXPECT_EQ(utf8_sequence_length("\xe2\x82\xac"), 3u);
  EXPECT_EQ(utf8_sequence_length("\xc3\xa9"), 2u);
  EXPECT_EQ(utf8_sequence_length("a"), 1u);
}

TEST(Utf8, InvalidBytesAreEscaped) {
  const std::pair<std::string, std::string> cases[] = {
      {"\xff", "\\xff"},                                  // never in UTF-8
      {"a\x80z", "a\\x80z"},                              // a lone continuation byte
      {"\xc0\xaf", "\\xc0\\xaf"},                         // overlong '/'
      {"\xe0\x80\xaf", "\\xe0\\x80\\xaf"},                // overlong 3-byte form
      {"\xed\xa0\x80", "\\xed\\xa0\\x80"},                // a UTF-16 surrogate (U+D800)
      {"\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"},       // above U+10FFFF
      {"\xf5\x80\x80\x80", "\\xf5\\x80\\x80\\x80"},       // lead byte past F4
      {"\xe2\x82", "\\xe2\\x82"},                         // cut short by the end
      {"\xe2\x82" "A", "\\xe2\\x82A"},                    // cut short by ASCII
      {"magic \"\xc3\x28\"", "magic \"\\xc3(\""},         // a bad continuation: the lead escaped, '(' kept
  };
  for (const auto& [in, want] : cases) {
    EXPECT_EQ(utf8_escape_invalid(in), want);
    const std::string out = utf8_escape_invalid(in);
    for (std::size_t i = 0; i < out.size();) {  // the result is valid UTF-8 throughout
      const std::size_t n = utf8_sequence_length(std::string_view(out).substr(i));
      ASSERT_GT(n, 0u) << "invalid UTF-8 left at byte " << i << " of the escape of a case";
      i += n;
    }
  }
}

}  // namespace
}  // namespace proofline
