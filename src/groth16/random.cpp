// Random bytes and uniform field elements (include/proofline/groth16/random.hpp).
#include "proofline/groth16/random.hpp"

#include <openssl/err.h>
#include <openssl/rand.h>
#include <openssl/evp.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <stdexcept>
#include <string>

namespace proofline::groth16 {

void OsRandom::fill(std::span<std::uint8_t> out) {
  std::size_t done = 0;
  while (done < out.size()) {
    int chunk = static_cast<int>(std::min<std::size_t>(out.size() - done, INT_MAX));
    if (RAND_bytes(out.data() + done, chunk) != 1) {
      char buf[256];
      ERR_error_string_n(ERR_get_error(), buf, sizeof buf);
      throw std::runtime_error(std::string("OpenSSL RAND_bytes failed: ") + buf);
    }
    done += static_cast<std::size_t>(chunk);
  }
}

namespace {
constexpr char kDomain[] = "proofline/groth16/SeededRandom/v1";
}

SeededRandom::SeededRandom(std::span<const std::uint8_t> seed) : seed_(seed.begin(), seed.end()) {}
SeededRandom::SeededRandom(std::string_view seed) : seed_(seed.begin(), seed.end()) {}
SeededRandom::SeededRandom(std::uint64_t seed) {
  for (int i = 0; i < 8; ++i) seed_.push_back(static_cast<std::uint8_t>(seed >> (8 * i)));
}

void SeededRandom::fill(std::span<std::uint8_t> out) {
  for (std::uint8_t& byte : out) {
    if (used_ == 32) {
      // block = SHA-256(domain ‖ u64_le(|seed|) ‖ seed ‖ u64_le(counter))
      std::vector<std::uint8_t> msg(kDomain, kDomain + sizeof kDomain - 1);
      for (int i = 0; i < 8; ++i) msg.push_back(static_cast<std::uint8_t>(std::uint64_t(seed_.size()) >> (8 * i)));
      msg.insert(msg.end(), seed_.begin(), seed_.end());
      for (int i = 0; i < 8; ++i) msg.push_back(static_cast<std::uint8_t>(counter_ >> (8 * i)));
      unsigned int len = 0;
      if (EVP_Digest(msg.data(), msg.size(), block_, &len, EVP_sha256(), nullptr) != 1 || len != 32) {
        throw std::runtime_error("OpenSSL SHA-256 failed in SeededRandom");
      }
      ++counter_;
      used_ = 0;
    }
    byte = block_[used_++];
  }
}

ff::Fr random_fr(ByteSource& rng) {
  for (;;) {
    std::uint8_t b[32];
    rng.fill(b);
    b[31] &= 0x7f;  // 255 bits
    ff::Fr out;
    if (ff::Fr::from_bytes_le(out, b) == Error::Ok) return out;
  }
}

ff::Fr random_nonzero_fr(ByteSource& rng) {
  for (;;) {
    ff::Fr x = random_fr(rng);
    if (!x.is_zero()) return x;
  }
}

ff::Fr random_u128_fr(ByteSource& rng) {
  std::uint8_t b[32] = {};
  rng.fill(std::span<std::uint8_t>(b, 16));
  ff::Fr out;
  (void)ff::Fr::from_bytes_le(out, b);
  return out;
}

}  // namespace proofline::groth16
