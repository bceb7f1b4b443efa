// Native SHA-256 (OpenSSL, trimmed) and Poseidon hashers.
#include "proofline/filecoin/hashers.hpp"

#include <openssl/sha.h>

#include <algorithm>
#include <vector>

#include "proofline/hash/poseidon.hpp"

namespace proofline::filecoin {

Sha256Domain sha256_trimmed(std::span<const std::uint8_t> data) {
  Sha256Domain d;
  SHA256(data.data(), data.size(), d.data());
  trim_to_fr32(d);
  return d;
}

Sha256Domain sha256_node(std::span<const Sha256Domain> children) {
  SHA256_CTX ctx;
  SHA256_Init(&ctx);
  for (const auto& c : children) SHA256_Update(&ctx, c.data(), c.size());
  Sha256Domain d;
  SHA256_Final(d.data(), &ctx);
  trim_to_fr32(d);
  return d;
}

Fr domain_to_fr(const Sha256Domain& d) {
  Fr f;
  if (Fr::from_bytes_le(f, std::span<const std::uint8_t, 32>(d)) != proofline::Error::Ok) {
    // Untrimmed bytes ≥ r: reduce by taking the value mod r (never happens for trimmed domains).
    Sha256Domain t = d;
    trim_to_fr32(t);
    Fr::from_bytes_le(f, std::span<const std::uint8_t, 32>(t));
  }
  return f;
}

Sha256Domain fr_to_domain(const Fr& f) {
  Sha256Domain d;
  f.to_bytes_le(std::span<std::uint8_t, 32>(d));
  return d;
}

Fr poseidon_node(std::span<const Fr> children) {
  return hash::poseidon_hash_native(hash::PoseidonConstants::merkle(children.size()), children);
}

Fr poseidon_hash_md(std::span<const Fr> elements) {
  constexpr std::size_t kArity = 36;
  if (elements.empty()) return Fr::zero();
  const auto& c = hash::PoseidonConstants::merkle(kArity);
  Fr acc = elements[0];
  std::vector<Fr> buf(kArity);
  for (std::size_t start = 1; start < elements.size(); start += kArity - 1) {
    std::fill(buf.begin(), buf.end(), Fr::zero());
    buf[0] = acc;
    const std::size_t n = std::min(kArity - 1, elements.size() - start);
    std::copy_n(elements.begin() + static_cast<std::ptrdiff_t>(start), n, buf.begin() + 1);
    acc = hash::poseidon_hash_native(c, buf);
  }
  return acc;
}

}  // namespace proofline::filecoin
