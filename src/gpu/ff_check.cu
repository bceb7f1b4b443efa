// src/gpu/ff_check.cu — compile-time proof that the device field constants (ff.cuh) equal the host
// ff layer's (modulus, R mod m, −m^{-1} mod 2^32), limb for limb.
#include "ff.cuh"
#include "proofline/ff/fp.hpp"
#include "proofline/ff/fr.hpp"

namespace proofline::gpu {
namespace {
template <class Dev, class Host>
constexpr bool same_constants() {
  for (int i = 0; i < Dev::N; ++i) {
    const auto h = Host::kModulus[i / 2] >> (32 * (i % 2));
    const auto one = Host::kR[i / 2] >> (32 * (i % 2));
    if (Dev::mod(i) != static_cast<uint32_t>(h) || Dev::one_limb(i) != static_cast<uint32_t>(one)) return false;
  }
  return Dev::INV == static_cast<uint32_t>(Host::kInv);
}
static_assert(same_constants<FrParams32, ff::Fr>(), "device Fr constants differ from the host's");
static_assert(same_constants<FpParams32, ff::Fp>(), "device Fp constants differ from the host's");
}  // namespace
}  // namespace proofline::gpu
