// The one validation of a verifying key (include/proofline/groth16/params.hpp,
// validate_verifying_key): no identity, on the curve, in the prime-order subgroup, field by field.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "proofline/groth16/params.hpp"

namespace proofline::groth16 {

namespace {

/// Error of one point, in the order the checks run (Ok when the point is acceptable).
template <class P>
Error point_error(const P& p) {
  if (p.infinity) return Error::UnexpectedInfinity;
  if (!p.is_on_curve()) return Error::NotOnCurve;
  if (!p.is_in_subgroup()) return Error::NotInSubgroup;
  return Error::Ok;
}

template <class P>
[[noreturn]] void point_failure(Error e, std::string_view source, const std::string& field) {
  constexpr bool g1 = std::is_same_v<P, G1Affine>;
  std::string found;
  switch (e) {
    case Error::UnexpectedInfinity:
      found = "is the point at infinity";
      if (field == "gamma_2" || field == "delta_2") {
        found += " (with gamma_2 or delta_2 at infinity one forged proof verifies for every public input)";
      } else if (field.rfind("IC[", 0) == 0) {
        found += " (the public input it weighs would not affect verification)";
      }
      break;
    case Error::NotOnCurve: found = "is not on the curve"; break;
    default: found = "is on the curve but not in the prime-order subgroup"; break;
  }
  throw ProoflineError(e, std::string(source) + ": verifying key field " + field + " " + found + "; expected a " +
                              (g1 ? "G1" : "G2") +
                              " point that is not the identity, on the curve, in the prime-order subgroup");
}

template <class P>
void check_point(const P& p, std::string_view source, const char* field) {
  if (Error e = point_error(p); e != Error::Ok) point_failure<P>(e, source, field);
}

}  // namespace

void validate_verifying_key(const VerifyingKey& vk, std::string_view source, VkG1Extras g1_extras) {
  const bool extras = g1_extras == VkG1Extras::Present;
  check_point(vk.alpha_g1, source, "alpha_1");
  if (extras) check_point(vk.beta_g1, source, "beta_1");
  check_point(vk.beta_g2, source, "beta_2");
  check_point(vk.gamma_g2, source, "gamma_2");
  if (extras) check_point(vk.delta_g1, source, "delta_1");
  check_point(vk.delta_g2, source, "delta_2");
  if (vk.ic.empty()) {
    throw ProoflineError(Error::BadLength, std::string(source) +
                                               ": verifying key field IC holds no point; expected nPublic + 1 >= 1 "
                                               "points (IC[0] weighs the constant ONE)");
  }
  // IC may be long (one point per public input): check in parallel, report the first bad index.
  std::vector<Error> status(vk.ic.size(), Error::Ok);
  auto body = [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) status[i] = point_error(vk.ic[i]);
  };
  if (vk.ic.size() < 16) {
    body(tbb::blocked_range<std::size_t>(0, vk.ic.size()));
  } else {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, vk.ic.size(), 8), body);
  }
  for (std::size_t i = 0; i < status.size(); ++i) {
    if (status[i] != Error::Ok) point_failure<G1Affine>(status[i], source, "IC[" + std::to_string(i) + "]");
  }
}

}  // namespace proofline::groth16
