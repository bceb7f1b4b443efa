// replica_id, comm_r, challenge derivation, label and column hashes, public inputs (see porep.hpp).
#include "proofline/filecoin/porep.hpp"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/sha.h>

#include <memory>
#include <stdexcept>

#include "proofline/filecoin/hashers.hpp"
#include "proofline/util/error.hpp"

namespace proofline::filecoin {

using ff::Fr;

namespace {

// LE 256-bit integer mod (nodes − 1) + 1.
std::uint64_t to_challenge(const std::uint8_t* le, std::size_t len, std::uint64_t nodes) {
  const std::uint64_t m = nodes - 1;
  unsigned __int128 r = 0;
  for (std::size_t i = len; i-- > 0;) r = ((r << 8) | le[i]) % m;
  return static_cast<std::uint64_t>(r) + 1;
}

void put_u32_le(std::uint8_t* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

std::vector<std::uint64_t> hashed_challenges(std::uint64_t nodes, std::span<const std::uint8_t> prefix_a,
                                             const Domain& b, const Domain& c, std::size_t partition,
                                             std::size_t per_partition) {
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i < per_partition; ++i) {
    std::uint8_t j[4];
    put_u32_le(j, static_cast<std::uint32_t>(per_partition * partition + i));
    SHA256_CTX ctx;
    SHA256_Init(&ctx);
    SHA256_Update(&ctx, prefix_a.data(), prefix_a.size());
    SHA256_Update(&ctx, b.data(), 32);
    SHA256_Update(&ctx, c.data(), 32);
    SHA256_Update(&ctx, j, 4);
    std::uint8_t h[32];
    SHA256_Final(h, &ctx);
    out.push_back(to_challenge(h, 32, nodes));
  }
  return out;
}

// BLAKE2b with a 32-byte output keyed with `key` over a ‖ b (OpenSSL BLAKE2BMAC).
std::array<std::uint8_t, 32> blake2b_keyed_256(std::string_view key, const Domain& a, const Domain& b) {
  std::unique_ptr<EVP_MAC, decltype(&EVP_MAC_free)> mac(EVP_MAC_fetch(nullptr, "BLAKE2BMAC", nullptr), &EVP_MAC_free);
  std::unique_ptr<EVP_MAC_CTX, decltype(&EVP_MAC_CTX_free)> ctx(mac ? EVP_MAC_CTX_new(mac.get()) : nullptr,
                                                                &EVP_MAC_CTX_free);
  std::size_t size = 32;
  OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size), OSSL_PARAM_construct_end()};
  std::array<std::uint8_t, 32> out{};
  std::size_t len = 0;
  if (!ctx ||
      EVP_MAC_init(ctx.get(), reinterpret_cast<const unsigned char*>(key.data()), key.size(), params) != 1 ||
      EVP_MAC_update(ctx.get(), a.data(), 32) != 1 || EVP_MAC_update(ctx.get(), b.data(), 32) != 1 ||
      EVP_MAC_final(ctx.get(), out.data(), &len, out.size()) != 1 || len != 32) {
    throw std::runtime_error("synthetic challenges: OpenSSL BLAKE2BMAC failed");
  }
  return out;
}

// `len` bytes of the IETF ChaCha20 keystream (nonce "synth-porep\0") from byte `offset`.
std::vector<std::uint8_t> chacha20_keystream(const std::array<std::uint8_t, 32>& key, std::uint64_t offset,
                                             std::size_t len) {
  std::uint8_t iv[16] = {0};
  put_u32_le(iv, static_cast<std::uint32_t>(offset / 64));
  static constexpr char kNonce[12] = {'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', '\0'};
  std::copy(kNonce, kNonce + 12, iv + 4);
  std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> ctx(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
  const std::size_t skip = offset % 64;
  std::vector<std::uint8_t> zeros(skip + len, 0), out(skip + len + 64);
  int n = 0;
  if (!ctx || EVP_EncryptInit_ex(ctx.get(), EVP_chacha20(), nullptr, key.data(), iv) != 1 ||
      EVP_EncryptUpdate(ctx.get(), out.data(), &n, zeros.data(), static_cast<int>(zeros.size())) != 1 ||
      static_cast<std::size_t>(n) != zeros.size()) {
    throw std::runtime_error("synthetic challenges: OpenSSL ChaCha20 failed");
  }
  return {out.begin() + static_cast<std::ptrdiff_t>(skip), out.begin() + static_cast<std::ptrdiff_t>(skip + len)};
}

}  // namespace

Domain prover_id_from_miner(std::uint64_t miner_id) {
  Domain d{};
  std::size_t i = 0;
  do {
    std::uint8_t byte = miner_id & 0x7f;
    miner_id >>= 7;
    if (miner_id != 0) byte |= 0x80;
    d[i++] = byte;
  } while (miner_id != 0);
  return d;
}

Domain replica_id(const Domain& prover_id, std::uint64_t sector_id, const Domain& ticket, const Domain& comm_d,
                  const PorepId& porep_id) {
  std::vector<std::uint8_t> buf(prover_id.begin(), prover_id.end());
  for (int i = 7; i >= 0; --i) buf.push_back(static_cast<std::uint8_t>(sector_id >> (8 * i)));
  buf.insert(buf.end(), ticket.begin(), ticket.end());
  buf.insert(buf.end(), comm_d.begin(), comm_d.end());
  buf.insert(buf.end(), porep_id.begin(), porep_id.end());
  return sha256_trimmed(buf);
}

Fr comm_r(const Fr& comm_c, const Fr& comm_r_last) {
  const Fr ch[2] = {comm_c, comm_r_last};
  return poseidon_node(ch);
}

std::vector<std::uint64_t> interactive_challenges(std::uint64_t nodes, const Domain& replica_id, const Domain& seed,
                                                  std::size_t partition, std::size_t per_partition) {
  return hashed_challenges(nodes, {}, replica_id, seed, partition, per_partition);
}

std::vector<std::uint64_t> ni_challenges(std::uint64_t nodes, const Domain& replica_id, const Domain& comm_r,
                                         std::size_t partition, std::size_t per_partition) {
  static constexpr std::string_view kTag = "filecoin.io|PoRep|1|NonInteractive|1";
  return hashed_challenges(nodes, {reinterpret_cast<const std::uint8_t*>(kTag.data()), kTag.size()}, replica_id,
                           comm_r, partition, per_partition);
}

std::vector<std::uint64_t> synthetic_challenges(std::uint64_t nodes, const Domain& replica_id, const Domain& comm_r,
                                                const Domain& seed, std::size_t partition,
                                                std::size_t per_partition) {
  const std::uint64_t num_synth = std::min<std::uint64_t>(nodes, std::uint64_t{1} << 18);
  const auto gen_key = blake2b_keyed_256("filecoin.io|PoRep|1|Synthetic|1|Generation", replica_id, comm_r);
  const auto sel_key = blake2b_keyed_256("filecoin.io|PoRep|1|Synthetic|1|Selection", replica_id, seed);
  const auto sel = chacha20_keystream(sel_key, 4 * partition * per_partition, 4 * per_partition);
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i < per_partition; ++i) {
    const std::uint32_t idx = static_cast<std::uint32_t>(sel[4 * i]) | static_cast<std::uint32_t>(sel[4 * i + 1]) << 8 |
                              static_cast<std::uint32_t>(sel[4 * i + 2]) << 16 |
                              static_cast<std::uint32_t>(sel[4 * i + 3]) << 24;
    const auto bytes = chacha20_keystream(gen_key, 32 * (idx % num_synth), 32);
    out.push_back(to_challenge(bytes.data(), 32, nodes));
  }
  return out;
}

std::vector<std::uint64_t> challenges(const PorepConfig& c, const Domain& replica_id, const Domain& seed,
                                      const Domain& comm_r, std::size_t partition) {
  switch (c.mode) {
    case PorepMode::Interactive:
      return interactive_challenges(c.shape->nodes, replica_id, seed, partition, c.challenges_per_partition);
    case PorepMode::Synthetic:
      return synthetic_challenges(c.shape->nodes, replica_id, comm_r, seed, partition, c.challenges_per_partition);
    case PorepMode::NonInteractive:
      return ni_challenges(c.shape->nodes, replica_id, comm_r, partition, c.challenges_per_partition);
  }
  return {};
}

std::vector<Domain> label_parents(std::size_t layer, std::span<const Domain, kBaseDegree> drg,
                                  std::span<const Domain, kExpDegree> exp) {
  std::vector<Domain> base(drg.begin(), drg.end());
  if (layer > 1) base.insert(base.end(), exp.begin(), exp.end());
  std::vector<Domain> out;
  out.reserve(kLabelParents);
  while (out.size() < kLabelParents) out.push_back(base[out.size() % base.size()]);
  return out;
}

Domain label_hash(const Domain& replica_id, std::uint32_t layer, std::uint64_t node, std::span<const Domain> parents) {
  std::uint8_t buf[32] = {0};
  for (int i = 0; i < 4; ++i) buf[i] = static_cast<std::uint8_t>(layer >> (24 - 8 * i));
  for (int i = 0; i < 8; ++i) buf[4 + i] = static_cast<std::uint8_t>(node >> (56 - 8 * i));
  SHA256_CTX ctx;
  SHA256_Init(&ctx);
  SHA256_Update(&ctx, replica_id.data(), 32);
  SHA256_Update(&ctx, buf, 32);
  for (const auto& p : parents) SHA256_Update(&ctx, p.data(), 32);
  Domain d;
  SHA256_Final(d.data(), &ctx);
  trim_to_fr32(d);
  return d;
}

Fr column_hash(std::span<const Domain> rows) {
  std::vector<Fr> v;
  v.reserve(rows.size());
  for (const auto& r : rows) v.push_back(domain_fr(r));
  return poseidon_node(v);
}

namespace {
void append_challenge_inputs(std::vector<Fr>& out, std::uint64_t ch, const StackedGraph& g) {
  const Fr c = Fr::from_u64(ch);
  out.push_back(c);
  for (auto p : g.drg_parents(ch)) out.push_back(Fr::from_u64(p));
  for (auto p : g.exp_parents(ch)) out.push_back(Fr::from_u64(p));
  out.push_back(c);
  out.push_back(c);
  out.push_back(c);
}
}  // namespace

std::vector<Fr> public_inputs(const SealCommitPhase1Output& c1, std::size_t partition) {
  const PorepConfig c = porep_config(c1.registered_proof);
  if (partition >= c1.vanilla_proofs.size()) {
    throw ProoflineError(Error::BadArgument, "public_inputs: partition " + std::to_string(partition) + " of " +
                                                 std::to_string(c1.vanilla_proofs.size()));
  }
  const StackedGraph g(c);
  std::vector<Fr> out = {domain_fr(c1.replica_id), domain_fr(c1.comm_d), domain_fr(c1.comm_r)};
  for (const auto& p : c1.vanilla_proofs[partition]) append_challenge_inputs(out, p.challenge(), g);
  return out;
}

std::vector<Fr> public_inputs(const PorepConfig& c, const StackedGraph& g, const Domain& replica_id,
                              const Domain& comm_d, const Domain& comm_r, const Domain& seed, std::size_t partition) {
  std::vector<Fr> out = {domain_fr(replica_id), domain_fr(comm_d), domain_fr(comm_r)};
  for (auto ch : challenges(c, replica_id, seed, comm_r, partition)) append_challenge_inputs(out, ch, g);
  return out;
}

}  // namespace proofline::filecoin
