// snarkjs JSON interop (include/proofline/groth16/snarkjs.hpp).
#include "proofline/groth16/snarkjs.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "proofline/util/json.hpp"

namespace proofline::groth16 {

namespace {

using Json = nlohmann::ordered_json;

template <std::size_t N>
std::string limbs_to_decimal(std::array<std::uint64_t, N> v) {
  // Repeated division by 10^19 (fits a u64 digit group).
  constexpr std::uint64_t kBase = 10000000000000000000ULL;
  std::vector<std::uint64_t> groups;
  auto is_zero = [&] { return std::all_of(v.begin(), v.end(), [](std::uint64_t x) { return x == 0; }); };
  while (!is_zero()) {
    unsigned __int128 rem = 0;
    for (std::size_t i = N; i-- > 0;) {
      unsigned __int128 cur = (rem << 64) | v[i];
      v[i] = static_cast<std::uint64_t>(cur / kBase);
      rem = cur % kBase;
    }
    groups.push_back(static_cast<std::uint64_t>(rem));
  }
  if (groups.empty()) return "0";
  std::string s = std::to_string(groups.back());
  for (std::size_t i = groups.size() - 1; i-- > 0;) {
    std::string g = std::to_string(groups[i]);
    s += std::string(19 - g.size(), '0') + g;
  }
  return s;
}

template <class F>
F field_from_decimal(std::string_view s, std::string_view what, const char* field) {
  // Text that is not a decimal integer is Malformed; a decimal integer >= the modulus NotCanonical.
  auto bad = [&](const std::string& why, Error code = Error::NotCanonical) -> ProoflineError {
    const std::string shown = s.size() <= 100 ? std::string(s) : std::string(s.substr(0, 97)) + "...";
    return ProoflineError(code, std::string(what) + ": \"" + shown + "\" " + why +
                                    "; expected a decimal integer below the " + field + " modulus");
  };
  if (s.empty()) throw bad("is empty", Error::Malformed);
  if (s.find_first_not_of("0123456789") != std::string_view::npos) {
    throw bad("is not a decimal integer (digits 0-9 only)", Error::Malformed);
  }
  if (s.size() > 120) throw bad("has " + std::to_string(s.size()) + " digits, too many");
  std::array<std::uint64_t, F::kLimbs + 1> v{};
  for (char ch : s) {
    unsigned __int128 carry = static_cast<unsigned>(ch - '0');
    for (auto& limb : v) {
      unsigned __int128 t = static_cast<unsigned __int128>(limb) * 10 + carry;
      limb = static_cast<std::uint64_t>(t);
      carry = t >> 64;
    }
    if (carry != 0 || v[F::kLimbs] != 0) throw bad("is too large");
  }
  typename F::Limbs c{};
  std::copy_n(v.begin(), F::kLimbs, c.begin());
  F out;
  if (F::from_canonical(out, c) != Error::Ok) throw bad("is not below the modulus");
  return out;
}

Json g1_json(const G1Affine& p) {
  if (p.infinity) return Json::array({"0", "1", "0"});
  return Json::array({to_decimal(p.x), to_decimal(p.y), "1"});
}
Json g2_json(const G2Affine& p) {
  if (p.infinity) return Json::array({Json::array({"0", "0"}), Json::array({"1", "0"}), Json::array({"0", "0"})});
  return Json::array({Json::array({to_decimal(p.x.c0), to_decimal(p.x.c1)}),
                      Json::array({to_decimal(p.y.c0), to_decimal(p.y.c1)}), Json::array({"1", "0"})});
}

[[noreturn]] void shape_error(const std::string& what) {
  throw ProoflineError(Error::Malformed, "snarkjs JSON: " + what);
}

std::string str_of(const Json& j, const std::string& what) {
  if (!j.is_string()) shape_error(what + " is not a string");
  return j.get<std::string>();
}

/// On the curve always; in the subgroup unless `check` is OnCurveOnly (vk points, which
/// validate_verifying_key checks with the rest of the key).
template <class P>
P check_point(P p, const std::string& what, ec::Check check) {
  if (!p.infinity && !p.is_on_curve()) throw ProoflineError(Error::NotOnCurve, "snarkjs JSON: " + what + " is not on the curve");
  if (check == ec::Check::Subgroup && !p.infinity && !p.is_in_subgroup()) {
    throw ProoflineError(Error::NotInSubgroup, "snarkjs JSON: " + what + " is not in the prime-order subgroup");
  }
  return p;
}

G1Affine g1_from(const Json& j, const std::string& what, ec::Check check = ec::Check::Subgroup) {
  if (!j.is_array() || j.size() != 3) shape_error(what + " is not a G1 triple [x, y, z]");
  ff::Fp z = fp_from_decimal(str_of(j[2], what + "[2]"), what + ".z");
  if (z.is_zero()) return G1Affine::identity();
  if (!z.is_one()) shape_error(what + ": z must be \"1\" (affine) or \"0\" (infinity)");
  G1Affine p{fp_from_decimal(str_of(j[0], what + "[0]"), what + ".x"), fp_from_decimal(str_of(j[1], what + "[1]"), what + ".y"),
             false};
  return check_point(p, what, check);
}

ff::Fp2 fp2_from(const Json& j, const std::string& what) {
  if (!j.is_array() || j.size() != 2) shape_error(what + " is not an Fp2 pair [c0, c1]");
  return {fp_from_decimal(str_of(j[0], what + "[0]"), what + ".c0"), fp_from_decimal(str_of(j[1], what + "[1]"), what + ".c1")};
}

G2Affine g2_from(const Json& j, const std::string& what, ec::Check check = ec::Check::Subgroup) {
  if (!j.is_array() || j.size() != 3) shape_error(what + " is not a G2 triple [[x], [y], [z]]");
  ff::Fp2 z = fp2_from(j[2], what + ".z");
  if (z.is_zero()) return G2Affine::identity();
  if (!z.is_one()) shape_error(what + ": z must be [\"1\", \"0\"] (affine) or zero (infinity)");
  G2Affine p{fp2_from(j[0], what + ".x"), fp2_from(j[1], what + ".y"), false};
  return check_point(p, what, check);
}

Json parse(const std::string& text, const char* what, std::size_t max_bytes) {
  return json::parse<Json>(text, {max_bytes}, std::string("snarkjs JSON: ") + what);
}

const Json& field(const Json& j, const char* key, const char* file) {
  if (!j.is_object() || !j.contains(key)) shape_error(std::string(file) + " has no field \"" + key + "\"");
  return j.at(key);
}

}  // namespace

std::string to_decimal(const ff::Fp& x) { return limbs_to_decimal(x.to_canonical()); }
std::string to_decimal(const ff::Fr& x) { return limbs_to_decimal(x.to_canonical()); }
Fr fr_from_decimal(std::string_view s, std::string_view what) { return field_from_decimal<Fr>(s, what, "scalar field (r)"); }
ff::Fp fp_from_decimal(std::string_view s, std::string_view what) {
  return field_from_decimal<ff::Fp>(s, what, "base field (p)");
}

std::string snarkjs_vk_json(const VerifyingKey& vk) {
  Json j;
  j["protocol"] = "groth16";
  j["curve"] = "bls12381";
  j["nPublic"] = vk.ic.empty() ? 0 : vk.ic.size() - 1;
  j["vk_alpha_1"] = g1_json(vk.alpha_g1);
  j["vk_beta_2"] = g2_json(vk.beta_g2);
  j["vk_gamma_2"] = g2_json(vk.gamma_g2);
  j["vk_delta_2"] = g2_json(vk.delta_g2);
  Json ic = Json::array();
  for (const auto& p : vk.ic) ic.push_back(g1_json(p));
  j["IC"] = ic;
  return j.dump(1) + "\n";
}

std::string snarkjs_proof_json(const Proof& proof) {
  Json j;
  j["pi_a"] = g1_json(proof.a);
  j["pi_b"] = g2_json(proof.b);
  j["pi_c"] = g1_json(proof.c);
  j["protocol"] = "groth16";
  j["curve"] = "bls12381";
  return j.dump(1) + "\n";
}

std::string snarkjs_public_json(std::span<const Fr> public_inputs) {
  Json j = Json::array();
  for (const Fr& x : public_inputs) j.push_back(to_decimal(x));
  return j.dump(1) + "\n";
}

VerifyingKey vk_from_snarkjs_json(const std::string& text, std::string_view source) {
  Json j = parse(text, "verification key", kMaxSnarkjsVkBytes);
  const char* f = "verification key";
  if (field(j, "protocol", f) != "groth16") shape_error("verification key: protocol is not \"groth16\"");
  if (field(j, "curve", f) != "bls12381") shape_error("verification key: curve is not \"bls12381\"");
  VerifyingKey vk;
  const auto on_curve = ec::Check::OnCurveOnly;  // the rest: validate_verifying_key below
  vk.alpha_g1 = g1_from(field(j, "vk_alpha_1", f), "vk_alpha_1", on_curve);
  vk.beta_g2 = g2_from(field(j, "vk_beta_2", f), "vk_beta_2", on_curve);
  vk.gamma_g2 = g2_from(field(j, "vk_gamma_2", f), "vk_gamma_2", on_curve);
  vk.delta_g2 = g2_from(field(j, "vk_delta_2", f), "vk_delta_2", on_curve);
  const Json& ic = field(j, "IC", f);
  if (!ic.is_array()) shape_error("IC is not an array");
  for (std::size_t i = 0; i < ic.size(); ++i) vk.ic.push_back(g1_from(ic[i], "IC[" + std::to_string(i) + "]", on_curve));
  const Json& np = field(j, "nPublic", f);
  if (!np.is_number_unsigned() || np.get<std::size_t>() + 1 != vk.ic.size()) {
    shape_error("nPublic does not equal the number of IC points minus one");
  }
  // snarkjs keys carry no β·G1 and δ·G1 (only provers need them); they stay at infinity here.
  validate_verifying_key(vk, source, VkG1Extras::Absent);
  return vk;
}

Proof proof_from_snarkjs_json(const std::string& text) {
  Json j = parse(text, "proof", kMaxSnarkjsProofBytes);
  // snarkjs writes the labels; a file without them is read, one with other values is refused.
  if (j.is_object()) {
    if (j.contains("protocol") && j["protocol"] != "groth16") shape_error("proof: protocol is not \"groth16\"");
    if (j.contains("curve") && j["curve"] != "bls12381") shape_error("proof: curve is not \"bls12381\"");
  }
  Proof p;
  p.a = g1_from(field(j, "pi_a", "proof"), "pi_a");
  p.b = g2_from(field(j, "pi_b", "proof"), "pi_b");
  p.c = g1_from(field(j, "pi_c", "proof"), "pi_c");
  return p;
}

std::vector<Fr> public_from_snarkjs_json(const std::string& text, std::size_t max_count) {
  Json j = parse(text, "public inputs", snarkjs_public_json_max_bytes(max_count));
  if (!j.is_array()) shape_error("public inputs are not an array");
  if (j.size() > max_count) {
    shape_error("public inputs: " + std::to_string(j.size()) + " entries, expected at most " + std::to_string(max_count));
  }
  std::vector<Fr> out;
  for (std::size_t i = 0; i < j.size(); ++i) {
    out.push_back(fr_from_decimal(str_of(j[i], "public[" + std::to_string(i) + "]"), "public[" + std::to_string(i) + "]"));
  }
  return out;
}

void write_snarkjs_files(const std::string& vk_path, const std::string& proof_path, const std::string& public_path,
                         const VerifyingKey& vk, const Proof& proof, std::span<const Fr> public_inputs) {
  auto put = [](const std::string& path, const std::string& text) {
    write_file_bytes(path, std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  };
  put(vk_path, snarkjs_vk_json(vk));
  put(proof_path, snarkjs_proof_json(proof));
  put(public_path, snarkjs_public_json(public_inputs));
}

}  // namespace proofline::groth16
