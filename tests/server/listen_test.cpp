// The daemon's loopback rule for listen.tcp (resolves_to_loopback, proofline/server/service.hpp):
// decided on the addresses a host resolves to, never on the name's spelling.
#include <gtest/gtest.h>

#include <string>

#include "proofline/server/service.hpp"

namespace proofline::server {
namespace {

TEST(Loopback, LoopbackAddressesPass) {
  for (const char* host : {"127.0.0.1", "127.1.2.3", "127.255.255.254", "::1", "[::1]", "::ffff:127.0.0.1"}) {
    std::string why;
    EXPECT_TRUE(resolves_to_loopback(host, &why)) << host << ": " << why;
  }
}

TEST(Loopback, LocalhostPasses) {
  // /etc/hosts maps localhost to 127.0.0.1 (and possibly ::1): every address is loopback.
  std::string why;
  EXPECT_TRUE(resolves_to_loopback("localhost", &why)) << why;
}

TEST(Loopback, OtherAddressesAreRefusedAndNamed) {
  struct Case {
    const char* host;
    const char* why;
  };
  for (const Case& c : {Case{"0.0.0.0", "resolves to 0.0.0.0, which is not loopback"},
                        Case{"128.0.0.1", "resolves to 128.0.0.1, which is not loopback"},
                        Case{"10.0.0.1", "resolves to 10.0.0.1, which is not loopback"},
                        Case{"::", "resolves to ::, which is not loopback"},
                        Case{"[::2]", "resolves to ::2, which is not loopback"},
                        Case{"::ffff:10.0.0.1", "resolves to ::ffff:10.0.0.1, which is not loopback"}}) {
    std::string why;
    EXPECT_FALSE(resolves_to_loopback(c.host, &why)) << c.host;
    EXPECT_NE(why.find(c.why), std::string::npos) << c.host << ": " << why;
  }
}

TEST(Loopback, NameStartingWith127IsNotEnough) {
  // The old rule passed any name starting with "127."; a name that does not resolve is refused.
  for (const char* host : {"127.foo.invalid", "127.evil.invalid"}) {
    std::string why;
    EXPECT_FALSE(resolves_to_loopback(host, &why)) << host;
    EXPECT_NE(why.find("does not resolve"), std::string::npos) << host << ": " << why;
  }
}

TEST(Loopback, EmptyHostIsEveryInterface) {
  std::string why;
  EXPECT_FALSE(resolves_to_loopback("", &why));
  EXPECT_NE(why.find("every interface"), std::string::npos) << why;
  EXPECT_FALSE(resolves_to_loopback("[]", &why));
}

}  // namespace
}  // namespace proofline::server
