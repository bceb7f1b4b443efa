// Groth16 verification (include/proofline/groth16/verifier.hpp).
#include "proofline/groth16/verifier.hpp"

#include <string>
#include <utility>

#include "proofline/pairing/pairing.hpp"

namespace proofline::groth16 {

namespace {

void check_input_count(const PreparedVerifyingKey& pvk, std::size_t got, std::size_t proof_index, bool batch) {
  if (pvk.ic.empty() || got + 1 != pvk.ic.size()) {
    std::string who = batch ? "proof " + std::to_string(proof_index) + ": " : std::string();
    throw ProoflineError(Error::BadLength, who + "public inputs (ONE excluded): got " + std::to_string(got) +
                                               ", expected " +
                                               std::to_string(pvk.ic.empty() ? 0 : pvk.ic.size() - 1) +
                                               " (the verifying key's ic holds " + std::to_string(pvk.ic.size()) +
                                               " points, ONE included)");
  }
}

/// acc = ic[0] + Σ x_i·ic[i + 1].
ec::G1Projective input_accumulator(const PreparedVerifyingKey& pvk, std::span<const Fr> x) {
  ec::G1Projective acc = pvk.ic[0].to_projective();
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!x[i].is_zero()) acc += pvk.ic[i + 1].mul(x[i]);
  }
  return acc;
}

template <class P>
bool valid_point(const P& p) {
  return !p.infinity && p.is_on_curve() && p.is_in_subgroup();
}

bool valid_proof_points(const Proof& p) { return valid_point(p.a) && valid_point(p.b) && valid_point(p.c); }

}  // namespace

PreparedVerifyingKey prepare_verifying_key(const VerifyingKey& vk) {
  // Readers validate already; this covers keys built in memory (β·G1, δ·G1 are not used here).
  validate_verifying_key(vk, "verifying key being prepared", VkG1Extras::Absent);
  PreparedVerifyingKey pvk;
  pvk.alpha_beta = pairing::pairing(vk.alpha_g1, vk.beta_g2);
  pvk.neg_gamma_g2 = -vk.gamma_g2;
  pvk.neg_delta_g2 = -vk.delta_g2;
  pvk.gamma_g2 = vk.gamma_g2;
  pvk.delta_g2 = vk.delta_g2;
  pvk.alpha_g1 = vk.alpha_g1;
  pvk.beta_g2 = vk.beta_g2;
  pvk.ic = vk.ic;
  return pvk;
}

bool verify_proof(const PreparedVerifyingKey& pvk, const Proof& proof, std::span<const Fr> public_inputs) {
  check_input_count(pvk, public_inputs.size(), 0, false);
  if (!valid_proof_points(proof)) return false;
  const G1Affine acc = input_accumulator(pvk, public_inputs).to_affine();
  const std::pair<G1Affine, G2Affine> pairs[3] = {
      {proof.a, proof.b},
      {acc, pvk.neg_gamma_g2},
      {proof.c, pvk.neg_delta_g2},
  };
  return pairing::final_exponentiation(pairing::multi_miller_loop(pairs)) == pvk.alpha_beta;
}

std::vector<Fr> parse_public_inputs_le(std::span<const std::uint8_t> bytes) {
  if (bytes.size() % 32 != 0) {
    throw ProoflineError(Error::BadLength, "public inputs: " + std::to_string(bytes.size()) +
                                               " bytes; expected a multiple of 32 (one 32-byte little-endian Fr each)");
  }
  std::vector<Fr> out(bytes.size() / 32);
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (Fr::from_bytes_le(out[i], std::span<const std::uint8_t, 32>(bytes.data() + 32 * i, 32)) != Error::Ok) {
      throw ProoflineError(Error::NotCanonical, "public input " + std::to_string(i) +
                                                    " is >= r (the scalar field modulus); expected a canonical Fr");
    }
  }
  return out;
}

bool verify_proof_bytes(const PreparedVerifyingKey& pvk, std::span<const std::uint8_t> proof,
                        std::span<const std::uint8_t> public_inputs_le) {
  if (proof.size() != Proof::kBytes) {
    throw ProoflineError(Error::BadLength, "proof: got " + std::to_string(proof.size()) + " bytes, expected 192");
  }
  const Proof p = Proof::from_bytes(std::span<const std::uint8_t, Proof::kBytes>(proof.data(), Proof::kBytes));
  const std::vector<Fr> inputs = parse_public_inputs_le(public_inputs_le);
  return verify_proof(pvk, p, inputs);
}

bool verify_proofs_batch(const PreparedVerifyingKey& pvk, std::span<const Proof> proofs,
                         std::span<const std::vector<Fr>> public_inputs, ByteSource* rng) {
  if (public_inputs.size() != proofs.size()) {
    throw ProoflineError(Error::BadLength, "batch: public-input vectors: got " + std::to_string(public_inputs.size()) +
                                               ", expected " + std::to_string(proofs.size()) + " (one per proof)");
  }
  for (std::size_t j = 0; j < proofs.size(); ++j) check_input_count(pvk, public_inputs[j].size(), j, true);
  if (proofs.empty()) return true;
  for (const Proof& p : proofs) {
    if (!valid_proof_points(p)) return false;
  }
  if (proofs.size() == 1) return verify_proof(pvk, proofs[0], public_inputs[0]);

  OsRandom os;
  ByteSource& src = rng != nullptr ? *rng : os;
  const std::size_t n = proofs.size();
  std::vector<ec::G1Projective> g1(n + 3);
  std::vector<G2Affine> g2(n + 3);
  ec::G1Projective acc_sum = ec::G1Projective::identity();
  ec::G1Projective c_sum = ec::G1Projective::identity();
  Fr z_sum = Fr::zero();
  for (std::size_t j = 0; j < n; ++j) {
    Fr z;
    do {
      z = random_u128_fr(src);
    } while (z.is_zero());
    g1[j] = proofs[j].a.mul(z);
    g2[j] = proofs[j].b;
    acc_sum += input_accumulator(pvk, public_inputs[j]).mul(z);
    c_sum += proofs[j].c.mul(z);
    z_sum += z;
  }
  g1[n] = -acc_sum;
  g2[n] = pvk.gamma_g2;
  g1[n + 1] = -c_sum;
  g2[n + 1] = pvk.delta_g2;
  g1[n + 2] = -pvk.alpha_g1.mul(z_sum);
  g2[n + 2] = pvk.beta_g2;
  std::vector<G1Affine> g1a(n + 3);
  ec::batch_to_affine(std::span<const ec::G1Projective>(g1), std::span<G1Affine>(g1a));
  return pairing::final_exponentiation(pairing::multi_miller_loop(g1a, g2)).is_one();
}

}  // namespace proofline::groth16
