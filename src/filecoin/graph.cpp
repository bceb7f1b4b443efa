// Stacked DRG graph: ChaCha8 bucket sampling, Feistel expander (see graph.hpp for the facts).
#include "proofline/filecoin/graph.hpp"

#include <openssl/evp.h>
#include <openssl/sha.h>

#include <algorithm>
#include <bit>
#include <memory>

#include "proofline/util/error.hpp"

namespace proofline::filecoin {

namespace {

constexpr std::uint32_t rotl(std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

inline void quarter(std::array<std::uint32_t, 16>& s, int a, int b, int c, int d) {
  s[a] += s[b]; s[d] = rotl(s[d] ^ s[a], 16);
  s[c] += s[d]; s[b] = rotl(s[b] ^ s[c], 12);
  s[a] += s[b]; s[d] = rotl(s[d] ^ s[a], 8);
  s[c] += s[d]; s[b] = rotl(s[b] ^ s[c], 7);
}

std::uint64_t load_le64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

}  // namespace

ChaCha8Rng::ChaCha8Rng(const std::array<std::uint8_t, 32>& seed, unsigned rounds) : rounds_(rounds) {
  // "expand 32-byte k"
  key_state_[0] = 0x61707865;
  key_state_[1] = 0x3320646e;
  key_state_[2] = 0x79622d32;
  key_state_[3] = 0x6b206574;
  for (int i = 0; i < 8; ++i) {
    key_state_[4 + i] = static_cast<std::uint32_t>(seed[4 * i]) | static_cast<std::uint32_t>(seed[4 * i + 1]) << 8 |
                        static_cast<std::uint32_t>(seed[4 * i + 2]) << 16 |
                        static_cast<std::uint32_t>(seed[4 * i + 3]) << 24;
  }
}

void ChaCha8Rng::refill() {
  std::array<std::uint32_t, 16> in = key_state_;
  in[12] = static_cast<std::uint32_t>(counter_);
  in[13] = static_cast<std::uint32_t>(counter_ >> 32);
  in[14] = in[15] = 0;
  std::array<std::uint32_t, 16> s = in;
  for (unsigned r = 0; r < rounds_; r += 2) {
    quarter(s, 0, 4, 8, 12);
    quarter(s, 1, 5, 9, 13);
    quarter(s, 2, 6, 10, 14);
    quarter(s, 3, 7, 11, 15);
    quarter(s, 0, 5, 10, 15);
    quarter(s, 1, 6, 11, 12);
    quarter(s, 2, 7, 8, 13);
    quarter(s, 3, 4, 9, 14);
  }
  for (int i = 0; i < 16; ++i) block_[i] = s[i] + in[i];
  ++counter_;
  index_ = 0;
}

std::uint32_t ChaCha8Rng::next_u32() {
  if (index_ >= 16) refill();
  return block_[index_++];
}

std::uint64_t ChaCha8Rng::next_u64() {
  const std::uint64_t lo = next_u32();
  const std::uint64_t hi = next_u32();
  return lo | hi << 32;
}

void ChaCha8Rng::fill_bytes(std::span<std::uint8_t> out) {
  for (std::size_t i = 0; i < out.size(); i += 4) {
    const std::uint32_t w = next_u32();
    for (std::size_t j = 0; j < 4 && i + j < out.size(); ++j) out[i + j] = static_cast<std::uint8_t>(w >> (8 * j));
  }
}

std::array<std::uint8_t, 32> derive_porep_domain_seed(std::string_view dst, const PorepId& porep_id) {
  SHA256_CTX ctx;
  SHA256_Init(&ctx);
  SHA256_Update(&ctx, dst.data(), dst.size());
  SHA256_Update(&ctx, porep_id.data(), porep_id.size());
  std::array<std::uint8_t, 32> out;
  SHA256_Final(out.data(), &ctx);
  return out;
}

// ---- Feistel ---------------------------------------------------------------------------------

FeistelPrecomputed feistel_precompute(std::uint64_t num_elements) {
  std::uint64_t next_pow4 = 4, log4 = 1;
  while (next_pow4 < num_elements) {
    next_pow4 *= 4;
    ++log4;
  }
  FeistelPrecomputed p;
  p.right_mask = (std::uint64_t{1} << log4) - 1;
  p.left_mask = p.right_mask << log4;
  p.half_bits = log4;
  return p;
}

namespace {

// F(R, key): BLAKE2b-512 over R (u64 BE) ‖ key (u64 BE), first 8 bytes BE, masked.
std::uint64_t feistel_round(std::uint64_t right, std::uint64_t key, std::uint64_t right_mask) {
  std::uint8_t data[16];
  for (int i = 0; i < 8; ++i) {
    data[i] = static_cast<std::uint8_t>(right >> (56 - 8 * i));
    data[8 + i] = static_cast<std::uint8_t>(key >> (56 - 8 * i));
  }
  // An explicitly fetched digest: OpenSSL 3 re-fetches the legacy EVP_blake2b512() on every init.
  static EVP_MD* md = EVP_MD_fetch(nullptr, "BLAKE2B-512", nullptr);
  thread_local std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  std::uint8_t h[64];
  unsigned len = 0;
  if (!md || !ctx || EVP_DigestInit_ex2(ctx.get(), md, nullptr) != 1 || EVP_DigestUpdate(ctx.get(), data, 16) != 1 ||
      EVP_DigestFinal_ex(ctx.get(), h, &len) != 1 || len != 64) {
    throw std::runtime_error("feistel: OpenSSL BLAKE2b-512 failed");
  }
  std::uint64_t r = 0;
  for (int i = 0; i < 8; ++i) r = (r << 8) | h[i];
  return r & right_mask;
}

std::uint64_t feistel_encode(std::uint64_t index, std::span<const std::uint64_t> keys, const FeistelPrecomputed& p) {
  std::uint64_t left = (index & p.left_mask) >> p.half_bits, right = index & p.right_mask;
  for (int i = 0; i < 3; ++i) {
    const std::uint64_t l = right, r = left ^ feistel_round(right, keys[i], p.right_mask);
    left = l;
    right = r;
  }
  return (left << p.half_bits) | right;
}

std::uint64_t feistel_decode(std::uint64_t index, std::span<const std::uint64_t> keys, const FeistelPrecomputed& p) {
  std::uint64_t left = (index & p.left_mask) >> p.half_bits, right = index & p.right_mask;
  for (int i = 2; i >= 0; --i) {
    const std::uint64_t l = right ^ feistel_round(left, keys[i], p.right_mask), r = left;
    left = l;
    right = r;
  }
  return (left << p.half_bits) | right;
}

}  // namespace

std::uint64_t feistel_permute(std::uint64_t num_elements, std::uint64_t index, std::span<const std::uint64_t> keys,
                              const FeistelPrecomputed& pre) {
  std::uint64_t u = feistel_encode(index, keys, pre);
  while (u >= num_elements) u = feistel_encode(u, keys, pre);
  return u;
}

std::uint64_t feistel_invert_permute(std::uint64_t num_elements, std::uint64_t index,
                                     std::span<const std::uint64_t> keys, const FeistelPrecomputed& pre) {
  std::uint64_t u = feistel_decode(index, keys, pre);
  while (u >= num_elements) u = feistel_decode(u, keys, pre);
  return u;
}

// ---- StackedGraph ----------------------------------------------------------------------------

StackedGraph::StackedGraph(std::uint64_t nodes, const PorepId& porep_id, ApiVersion version)
    : nodes_(nodes), version_(version) {
  if (nodes < 2 || nodes > (std::uint64_t{1} << 32)) {
    throw ProoflineError(Error::BadArgument, "StackedGraph: " + std::to_string(nodes) + " nodes (expected 2..2^32)");
  }
  const auto drg = derive_porep_domain_seed("Filecoin_DRSample", porep_id);
  std::copy_n(drg.begin(), 28, drg_seed_.begin());
  const auto fk = derive_porep_domain_seed("Filecoin_Feistel", porep_id);
  for (int i = 0; i < 4; ++i) feistel_keys_[i] = load_le64(fk.data() + 8 * i);
  feistel_ = feistel_precompute(nodes * kExpDegree);
}

std::array<std::uint32_t, kBaseDegree> StackedGraph::drg_parents(std::uint64_t node) const {
  std::array<std::uint32_t, kBaseDegree> parents{};
  if (node < 2) return parents;
  const auto v = static_cast<std::uint32_t>(node);
  std::array<std::uint8_t, 32> seed{};
  std::copy(drg_seed_.begin(), drg_seed_.end(), seed.begin());
  for (int i = 0; i < 4; ++i) seed[28 + i] = static_cast<std::uint8_t>(v >> (8 * i));
  ChaCha8Rng rng(seed);
  constexpr std::uint64_t m_prime = kBaseDegree - 1;
  const std::uint64_t meta = std::uint64_t{v} * m_prime;
  // ceil(log2(meta)) (upstream computes it in f64; exact for these magnitudes, meta ≥ 10).
  const auto n_buckets = static_cast<std::uint64_t>(std::bit_width(meta - 1));
  const bool legacy = version_ == ApiVersion::V1_0_0;
  const std::size_t first = legacy ? 0 : 1;
  for (std::size_t k = 0; k < m_prime; ++k) {
    const std::uint64_t bucket = rng.next_u64() % n_buckets + 1;
    const std::uint64_t largest = std::min(meta, std::uint64_t{1} << bucket);
    const std::uint64_t smallest = std::max<std::uint64_t>(2, largest >> 1);
    const std::uint64_t distance = smallest + rng.next_u64() % (largest - smallest + 1);
    const auto mapped = static_cast<std::uint32_t>((meta - distance) / m_prime);
    parents[first + k] = mapped == v ? v - 1 : mapped;
  }
  parents[legacy ? m_prime : 0] = v - 1;
  return parents;
}

std::array<std::uint32_t, kExpDegree> StackedGraph::exp_parents(std::uint64_t node) const {
  std::array<std::uint32_t, kExpDegree> parents{};
  const std::uint64_t n = nodes_ * kExpDegree;
  for (std::size_t i = 0; i < kExpDegree; ++i) {
    const std::uint64_t t = feistel_permute(n, node * kExpDegree + i, feistel_keys_, feistel_);
    parents[i] = version_ == ApiVersion::V1_0_0 ? static_cast<std::uint32_t>(t) / kExpDegree
                                                : static_cast<std::uint32_t>(t / kExpDegree);
  }
  return parents;
}

}  // namespace proofline::filecoin
