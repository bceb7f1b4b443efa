// proofline/groth16/snarkjs.hpp — snarkjs JSON export / import, so outside verifiers
// (`snarkjs groth16 verify`, ../shared/tools/noble_verify.mjs) can check proofline's proofs.
//
// Owns: `snarkjs_vk_json`, `snarkjs_proof_json`, `snarkjs_public_json` (and their parsers),
// `write_snarkjs_files`, and the decimal conversions they use (`to_decimal`, `fr_from_decimal`).
//
// Formats (../shared/reference/oracles.md §5.4; snarkjs 0.7.6, curve "bls12381"): every field
// element is a canonical DECIMAL string; points are projective triples with z = 1:
//   G1 = [x, y, "1"]                                  (infinity: ["0", "1", "0"])
//   G2 = [[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]]      (infinity: [["0","0"], ["1","0"], ["0","0"]])
// (note c0 first in JSON, unlike the ZCash byte encoding).
//   verification_key.json: {"protocol": "groth16", "curve": "bls12381", "nPublic": k,
//     "vk_alpha_1": G1, "vk_beta_2": G2, "vk_gamma_2": G2, "vk_delta_2": G2, "IC": [G1 × (k+1)]}
//   proof.json:  {"pi_a": G1, "pi_b": G2, "pi_c": G1, "protocol": "groth16", "curve": "bls12381"}
//   public.json: ["x_1", …, "x_k"]
// The bellperson verification equation e(A,B) = e(α,β)·e(acc,γ)·e(C,δ) with acc = IC0 + Σ x_i·IC_i
// is exactly snarkjs's, so vk fields map one to one (IC = ic). `vk_alphabeta_12` is omitted:
// `snarkjs groth16 verify` (groth16_verify.js) and noble_verify.mjs never read it.
//
// Limits (checked on the raw text before parsing, util/json.hpp): nesting depth 64; a verification
// key at most kMaxSnarkjsVkBytes, a proof kMaxSnarkjsProofBytes, public inputs
// snarkjs_public_json_max_bytes(count) when the caller knows how many inputs are valid.
// Errors: the parsers throw ProoflineError — Malformed for text that is not JSON, over a limit, or a
// missing or mis-shaped field, NotCanonical for a number >= the field modulus or not a decimal, and the
// point decoder's codes (NotOnCurve, NotInSubgroup) for points that are not valid; a verification key
// with a point at infinity or outside the subgroup gets validate_verifying_key's error (params.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "proofline/groth16/params.hpp"
#include "proofline/groth16/proof.hpp"

namespace proofline::groth16 {

/// Canonical decimal string of a field element.
std::string to_decimal(const ff::Fp& x);
std::string to_decimal(const ff::Fr& x);
/// Parses a decimal string < r (ProoflineError NotCanonical otherwise, naming `what`).
Fr fr_from_decimal(std::string_view s, std::string_view what = "value");
ff::Fp fp_from_decimal(std::string_view s, std::string_view what = "value");

std::string snarkjs_vk_json(const VerifyingKey& vk);
std::string snarkjs_proof_json(const Proof& proof);
std::string snarkjs_public_json(std::span<const Fr> public_inputs);

/// The largest verification_key.json accepted (256 MiB: ~10^6 public inputs at ~250 bytes an IC point).
inline constexpr std::size_t kMaxSnarkjsVkBytes = std::size_t{256} << 20;
/// The largest proof.json accepted (snarkjs writes ~1.4 KB; 64 KiB leaves room for any indentation).
inline constexpr std::size_t kMaxSnarkjsProofBytes = std::size_t{64} << 10;
/// The largest public.json holding `count` inputs: 128 bytes an entry (a 77-digit decimal, quotes,
/// comma, and up to 46 bytes of whitespace) plus 64 for the brackets.
constexpr std::size_t snarkjs_public_json_max_bytes(std::size_t count) { return 64 + 128 * count; }

/// Parsers of the same three files (points checked: on curve, in the subgroup). A text over its limit
/// (above) is refused before it is parsed; public_from_snarkjs_json also refuses more than
/// `max_count` entries, from the text's size first. The key also goes through
/// validate_verifying_key (params.hpp; no identity in vk_alpha_1, vk_beta_2, vk_gamma_2, vk_delta_2
/// or any IC point; β·G1, δ·G1 absent), whose messages start with `source`.
VerifyingKey vk_from_snarkjs_json(const std::string& json, std::string_view source = "snarkjs verification key JSON");
Proof proof_from_snarkjs_json(const std::string& json);
std::vector<Fr> public_from_snarkjs_json(const std::string& json, std::size_t max_count = SIZE_MAX / 256);

/// Writes vk, proof and public JSON to the three paths (std::system_error on I/O failure).
void write_snarkjs_files(const std::string& vk_path, const std::string& proof_path, const std::string& public_path,
                         const VerifyingKey& vk, const Proof& proof, std::span<const Fr> public_inputs);

}  // namespace proofline::groth16
