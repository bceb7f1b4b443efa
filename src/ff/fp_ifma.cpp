// 8-lane Fp arithmetic with AVX-512 IFMA: the run-time switch and the array API of
// proofline/ff/fp_ifma.hpp (the kernels themselves are inline in that header).
#include "proofline/ff/fp_ifma.hpp"

#include <atomic>
#include <cstdlib>
#include <string>

#include "proofline/util/error.hpp"

#if defined(PROOFLINE_IFMA_BUILD)
#include <cpuid.h>
#endif

namespace proofline::ff {

namespace {

bool detect_ifma() {
#if defined(PROOFLINE_IFMA_BUILD)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0) return false;
  if ((ecx & (1u << 27)) == 0) return false;  // OSXSAVE: XGETBV usable
  unsigned xlo = 0, xhi = 0;
  asm volatile("xgetbv" : "=a"(xlo), "=d"(xhi) : "c"(0));
  // XCR0: SSE (1), AVX (2), opmask (5), ZMM_Hi256 (6), Hi16_ZMM (7) state saved by the OS.
  if ((xlo & 0xE6u) != 0xE6u) return false;
  if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) == 0) return false;
  return (ebx & (1u << 16)) != 0 && (ebx & (1u << 21)) != 0;  // AVX512F, AVX512IFMA
#else
  return false;
#endif
}

bool initially_enabled() {
  if (std::getenv("PROOFLINE_NO_IFMA") != nullptr || std::getenv("PROOFLINE_NO_ASM") != nullptr) return false;
  return ifma_supported();
}

std::atomic<bool>& enabled_flag() {
  static std::atomic<bool> flag{initially_enabled()};
  return flag;
}

void require_ifma(const char* what) {
  if (!ifma_enabled())
    throw ProoflineError(Error::BadArgument, std::string("ff: ") + what +
                                              ": the AVX-512 IFMA path is off or unsupported (expected "
                                              "ifma_enabled() before calling it)");
}

}  // namespace

bool ifma_supported() {
  static const bool s = detect_ifma();
  return s;
}

bool ifma_enabled() { return enabled_flag().load(std::memory_order_relaxed); }

bool set_ifma_enabled(bool on) {
  return enabled_flag().exchange(on && ifma_supported(), std::memory_order_relaxed);
}

#if defined(PROOFLINE_IFMA_BUILD)
namespace {
using namespace ifma;

enum class Op { Mul, Sqr, Add, Sub };

template <Op op>
__attribute__((target("avx512f,avx512ifma"))) void apply_x8(Fp* r, const Fp* a, const Fp* b) {
  const Fp8 x = load(a);
  Fp8 z;
  if constexpr (op == Op::Sqr) {
    z = sqr(x);
  } else {
    const Fp8 y = load(b);
    if constexpr (op == Op::Mul) z = mul(x, y);
    if constexpr (op == Op::Add) z = add(x, y);
    if constexpr (op == Op::Sub) z = sub(x, y);
  }
  store(r, reduce_full(z));
}

__attribute__((target("avx512f,avx512ifma"))) void chain_x8(Fp* x, const Fp* y, std::size_t n,
                                                            std::size_t reps) {
  for (std::size_t g = 0; g < n; ++g) {
    Fp8 a = load(x + 8 * g);
    const Fp8 b = load(y + 8 * g);
    for (std::size_t k = 0; k < reps; ++k) a = mul(a, b);
    store(x + 8 * g, reduce_full(a));
  }
}
}  // namespace

void fp_mul_x8(Fp* r, const Fp* a, const Fp* b) {
  require_ifma("fp_mul_x8");
  apply_x8<Op::Mul>(r, a, b);
}
void fp_sqr_x8(Fp* r, const Fp* a) {
  require_ifma("fp_sqr_x8");
  apply_x8<Op::Sqr>(r, a, nullptr);
}
void fp_add_x8(Fp* r, const Fp* a, const Fp* b) {
  require_ifma("fp_add_x8");
  apply_x8<Op::Add>(r, a, b);
}
void fp_sub_x8(Fp* r, const Fp* a, const Fp* b) {
  require_ifma("fp_sub_x8");
  apply_x8<Op::Sub>(r, a, b);
}
void fp_mul_chain_x8(Fp* x, const Fp* y, std::size_t n, std::size_t reps) {
  require_ifma("fp_mul_chain_x8");
  chain_x8(x, y, n, reps);
}
#else
void fp_mul_x8(Fp*, const Fp*, const Fp*) { require_ifma("fp_mul_x8"); }
void fp_sqr_x8(Fp*, const Fp*) { require_ifma("fp_sqr_x8"); }
void fp_add_x8(Fp*, const Fp*, const Fp*) { require_ifma("fp_add_x8"); }
void fp_sub_x8(Fp*, const Fp*, const Fp*) { require_ifma("fp_sub_x8"); }
void fp_mul_chain_x8(Fp*, const Fp*, std::size_t, std::size_t) { require_ifma("fp_mul_chain_x8"); }
#endif

}  // namespace proofline::ff
