// The 192-byte Groth16 proof encoding (include/proofline/groth16/proof.hpp).
#include "proofline/groth16/proof.hpp"

#include <string>

namespace proofline::groth16 {

namespace {

constexpr const char* kElementName[3] = {"A", "B", "C"};
constexpr std::size_t kElementOffset[3] = {0, 48, 144};

std::string reason_of(Error e, std::string_view curve, std::size_t length) {
  if (e == Error::UnexpectedInfinity) return "the point at infinity, which a proof may not contain";
  try {
    ec::detail::throw_decode_error(e, curve, true, length);
  } catch (const ProoflineError& err) {
    std::string r = err.what();
    return r.substr(std::string(to_string(e)).size() + 2);  // drop the "<code>: " prefix
  }
  return std::string(to_string(e));
}

[[noreturn]] void throw_proof_error(Error e, int element, std::size_t proof_index, std::size_t base_offset,
                                    bool multi) {
  std::string msg = multi ? "proof " + std::to_string(proof_index) + " of a multi-proof" : std::string("proof");
  msg += ", element ";
  msg += kElementName[element];
  msg += " at byte offset " + std::to_string(base_offset + kElementOffset[element]) + ": ";
  msg += reason_of(e, element == 1 ? "G2" : "G1", element == 1 ? 96 : 48);
  msg += element == 1 ? " (expected a compressed G2 point of the prime-order subgroup, not infinity)"
                      : " (expected a compressed G1 point of the prime-order subgroup, not infinity)";
  throw ProoflineError(e, msg);
}

}  // namespace

void Proof::to_bytes(std::span<std::uint8_t, kBytes> out) const {
  a.to_compressed(out.subspan<0, 48>());
  b.to_compressed(out.subspan<48, 96>());
  c.to_compressed(out.subspan<144, 48>());
}

std::array<std::uint8_t, Proof::kBytes> Proof::to_bytes() const {
  std::array<std::uint8_t, kBytes> out;
  to_bytes(out);
  return out;
}

Error Proof::decode(Proof& out, std::span<const std::uint8_t, kBytes> in, ec::Check check, int* failed_element) {
  Proof p;
  auto fail = [&](Error e, int el) {
    if (failed_element != nullptr) *failed_element = el;
    return e;
  };
  if (Error e = ec::G1Affine::from_compressed(p.a, in.subspan<0, 48>(), check); e != Error::Ok) return fail(e, 0);
  if (p.a.infinity) return fail(Error::UnexpectedInfinity, 0);
  if (Error e = ec::G2Affine::from_compressed(p.b, in.subspan<48, 96>(), check); e != Error::Ok) return fail(e, 1);
  if (p.b.infinity) return fail(Error::UnexpectedInfinity, 1);
  if (Error e = ec::G1Affine::from_compressed(p.c, in.subspan<144, 48>(), check); e != Error::Ok) return fail(e, 2);
  if (p.c.infinity) return fail(Error::UnexpectedInfinity, 2);
  out = p;
  return Error::Ok;
}

Proof Proof::from_bytes(std::span<const std::uint8_t, kBytes> in, ec::Check check) {
  Proof p;
  int el = 0;
  Error e = decode(p, in, check, &el);
  if (e != Error::Ok) throw_proof_error(e, el, 0, 0, false);
  return p;
}

std::vector<std::uint8_t> encode_proofs(std::span<const Proof> proofs) {
  std::vector<std::uint8_t> out(proofs.size() * Proof::kBytes);
  for (std::size_t i = 0; i < proofs.size(); ++i) {
    proofs[i].to_bytes(std::span<std::uint8_t, Proof::kBytes>(out.data() + i * Proof::kBytes, Proof::kBytes));
  }
  return out;
}

std::vector<Proof> decode_proofs(std::span<const std::uint8_t> bytes, ec::Check check) {
  if (bytes.empty() || bytes.size() % Proof::kBytes != 0) {
    throw ProoflineError(Error::BadLength, "multi-proof of " + std::to_string(bytes.size()) +
                                               " bytes; expected a positive multiple of 192 (one 192-byte "
                                               "proof per partition)");
  }
  std::vector<Proof> out(bytes.size() / Proof::kBytes);
  for (std::size_t i = 0; i < out.size(); ++i) {
    int el = 0;
    Error e = Proof::decode(out[i],
                            std::span<const std::uint8_t, Proof::kBytes>(bytes.data() + i * Proof::kBytes, Proof::kBytes),
                            check, &el);
    if (e != Error::Ok) throw_proof_error(e, el, i, i * Proof::kBytes, out.size() > 1);
  }
  return out;
}

}  // namespace proofline::groth16
