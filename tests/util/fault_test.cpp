// util/fault.hpp: injection points fire only where armed, for the job armed, as many times as armed.
#include <gtest/gtest.h>

#include <thread>

#include "proofline/util/fault.hpp"

namespace proofline::fault {
namespace {

TEST(Fault, UnarmedPointsNeverFire) {
  disarm_all();
  EXPECT_FALSE(fire("prove"));
  EXPECT_NO_THROW(maybe_throw("prove", "here"));
}

TEST(Fault, ArmedPointFiresCountTimesForItsJobOnly) {
  disarm_all();
  const int before = fired("prove");
  arm("prove", "job-7", 2);
  EXPECT_FALSE(fire("prove"));  // no JobScope: not job-7's thread
  {
    const std::string other = "job-8";
    const JobScope s(other);
    EXPECT_FALSE(fire("prove"));
    EXPECT_FALSE(fire("synthesis"));
  }
  const std::string id = "job-7";
  const JobScope s(id);
  EXPECT_FALSE(fire("synthesis"));  // another point
  EXPECT_TRUE(fire("prove"));
  try {
    maybe_throw("prove", "partition 0, before the H MSM");
    FAIL() << "did not throw";
  } catch (const Injected& e) {
    EXPECT_STREQ(e.what(), "injected fault at prove (partition 0, before the H MSM)");
  }
  EXPECT_FALSE(fire("prove"));  // used up
  EXPECT_EQ(fired("prove"), before + 2);
}

TEST(Fault, ScopesNestAndBelongToTheirThread) {
  disarm_all();
  arm("synthesis", "outer", 1);
  arm("synthesis", "inner", 1);
  const std::string outer = "outer", inner = "inner";
  const JobScope a(outer);
  {
    const JobScope b(inner);
    bool other_thread = true;
    std::thread([&] { other_thread = fire("synthesis"); }).join();  // no scope on that thread
    EXPECT_FALSE(other_thread);
    EXPECT_TRUE(fire("synthesis"));   // inner's
    EXPECT_FALSE(fire("synthesis"));
  }
  EXPECT_TRUE(fire("synthesis"));     // outer's again
  arm("prove", "", 1);                // any job, any thread
  bool fired_there = false;
  std::thread([&] { fired_there = fire("prove"); }).join();
  EXPECT_TRUE(fired_there);
  disarm_all();
}

}  // namespace
}  // namespace proofline::fault
