// SnapDeals circuit shape: constraint and public-input counts against the values upstream asserts
// (storage-proofs-update tests/circuit.rs: 1 KiB … 32 KiB; 32 GiB per partition, reference §3.5),
// and the parameter file names of Filecoin's published v28 SnapDeals parameters.
#include <gtest/gtest.h>

#include "proofline/circuits/snap.hpp"
#include "proofline/filecoin/snap.hpp"
#include "proofline/groth16/param_cache.hpp"

namespace proofline::circuits::snap {
namespace {

constexpr std::uint64_t KiB = 1024, MiB = KiB * 1024, GiB = MiB * 1024;

TEST(SnapCount, UpstreamTestSizes) {
  struct Case {
    std::uint64_t bytes;
    std::size_t constraints;
  };
  const Case cases[] = {{1 * KiB, 1'248'389}, {2 * KiB, 1'705'039},  {4 * KiB, 2'165'109},
                        {8 * KiB, 2'620'359}, {16 * KiB, 6'300'021}, {32 * KiB, 6'760'091}};
  for (const Case& c : cases) {
    const SnapCounts n = count_snap(filecoin::snap_params(c.bytes));
    EXPECT_EQ(n.constraints, c.constraints) << c.bytes;
    EXPECT_EQ(n.inputs, 5u) << c.bytes;  // ONE, k_and_h_select, comm_r_old, comm_d_new, comm_r_new
  }
}

TEST(SnapCount, Upstream32GiBPartition) {
  const SnapCounts n = count_snap(filecoin::snap_params(32 * GiB));
  EXPECT_EQ(n.constraints, 81'049'499u);
  EXPECT_EQ(n.inputs, 5u);
}

}  // namespace
}  // namespace proofline::circuits::snap
