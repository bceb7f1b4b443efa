// Poseidon native hashes (neptune): the plain permutation (the specification) and the optimized one
// (compressed constants, pre-sparse and sparse matrices) that trees use. Public header hash/poseidon.hpp.
#include "proofline/hash/poseidon.hpp"

#include <string>

#include "poseidon_matrix.hpp"
#include "proofline/r1cs/error.hpp"

namespace proofline::hash {

using r1cs::SynthesisError;
using r1cs::SynthesisErrorCode;

namespace {
void check_preimage(const PoseidonConstants& c, std::size_t n) {
  if (n > c.arity) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch, "Poseidon: preimage of " + std::to_string(n) +
                                                                " elements for arity " + std::to_string(c.arity));
  }
}
}  // namespace

Fr poseidon_hash_correct(const PoseidonConstants& c, std::span<const Fr> preimage) {
  check_preimage(c, preimage.size());
  const std::size_t t = c.width;
  std::vector<Fr> s(t, Fr::zero());
  s[0] = c.domain_tag;
  for (std::size_t i = 0; i < preimage.size(); ++i) s[i + 1] = preimage[i];
  const std::size_t rounds = c.full_rounds + c.partial_rounds;
  for (std::size_t r = 0; r < rounds; ++r) {
    for (std::size_t i = 0; i < t; ++i) s[i] += c.round_constants[r * t + i];
    const bool full = r < c.half_full_rounds || r >= c.half_full_rounds + c.partial_rounds;
    if (full) {
      for (auto& x : s) x = poseidon_sbox(x);
    } else {
      s[0] = poseidon_sbox(s[0]);
    }
    s = detail::row_times(c.m, s);
  }
  return s[1];
}

Fr poseidon_hash_native(const PoseidonConstants& c, std::span<const Fr> preimage) {
  check_preimage(c, preimage.size());
  const std::size_t t = c.width;
  Fr s[40], tmp[40];
  s[0] = c.domain_tag;
  for (std::size_t i = 1; i < t; ++i) s[i] = i - 1 < preimage.size() ? preimage[i - 1] : Fr::zero();
  const Fr* k = c.compressed_round_constants.data();
  auto mix = [&](const FrMatrix& m) {
    for (std::size_t j = 0; j < t; ++j) {
      Fr acc = s[0] * m(0, j);
      for (std::size_t i = 1; i < t; ++i) acc += s[i] * m(i, j);
      tmp[j] = acc;
    }
    for (std::size_t j = 0; j < t; ++j) s[j] = tmp[j];
  };
  // First round: pre-add keys, S-box, post-add keys.
  for (std::size_t i = 0; i < t; ++i) s[i] += k[i];
  k += t;
  for (std::size_t i = 0; i < t; ++i) s[i] = poseidon_sbox(s[i]) + k[i];
  k += t;
  mix(c.m);
  // Remaining initial full rounds; the last of them mixes with the pre-sparse matrix.
  for (std::size_t r = 1; r < c.half_full_rounds; ++r) {
    for (std::size_t i = 0; i < t; ++i) s[i] = poseidon_sbox(s[i]) + k[i];
    k += t;
    mix(r + 1 == c.half_full_rounds ? c.pre_sparse : c.m);
  }
  // Partial rounds with sparse matrices.
  for (std::size_t r = 0; r < c.partial_rounds; ++r) {
    s[0] = poseidon_sbox(s[0]) + *k++;
    const SparseMdsMatrix& sp = c.sparse[r];
    Fr first = s[0] * sp.w_hat[0];
    for (std::size_t i = 1; i < t; ++i) first += s[i] * sp.w_hat[i];
    for (std::size_t j = 1; j < t; ++j) s[j] += s[0] * sp.v_rest[j - 1];
    s[0] = first;
  }
  // Final full rounds; the terminal one adds no key.
  for (std::size_t r = 0; r < c.half_full_rounds; ++r) {
    const bool terminal = r + 1 == c.half_full_rounds;
    for (std::size_t i = 0; i < t; ++i) s[i] = terminal ? poseidon_sbox(s[i]) : poseidon_sbox(s[i]) + k[i];
    if (!terminal) k += t;
    mix(c.m);
  }
  return s[1];
}

}  // namespace proofline::hash
