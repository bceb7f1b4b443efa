// proofline/r1cs/variable.hpp — a variable of a rank-1 constraint system: Input(i) or Aux(i).
//
// Owns: `Variable`, one 64-bit word: bit 63 is the kind (0 = input, 1 = aux), bits 0..62 the index
// in that kind's assignment vector. Input 0 is always the constant ONE (every constraint system
// allocates it before synthesis; `ConstraintSystem::one()`). Inputs are the public values of a
// Groth16 statement (ONE included), aux variables the private witness. Indices are allocation order.
//
// Source: bellpepper-core `lc.rs` (`Variable(Index::Input(i) | Index::Aux(i))`), as summarized in
// ../shared/reference/formats-and-circuits.md §2.1.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>

namespace proofline::r1cs {

class Variable {
 public:
  static constexpr std::uint64_t kAuxTag = std::uint64_t{1} << 63;
  static constexpr std::uint64_t kMaxIndex = kAuxTag - 1;

  /// Input(0), the constant ONE (so that arrays of variables can be default-constructed).
  constexpr Variable() noexcept = default;

  static constexpr Variable input(std::uint64_t index) noexcept { return Variable(index); }
  static constexpr Variable aux(std::uint64_t index) noexcept { return Variable(index | kAuxTag); }
  /// Rebuilds a variable from `raw()` (no check).
  static constexpr Variable from_raw(std::uint64_t raw) noexcept { return Variable(raw); }

  constexpr bool is_input() const noexcept { return (raw_ & kAuxTag) == 0; }
  constexpr bool is_aux() const noexcept { return (raw_ & kAuxTag) != 0; }
  /// Index within its kind (input or aux assignment).
  constexpr std::uint64_t index() const noexcept { return raw_ & kMaxIndex; }
  constexpr std::uint64_t raw() const noexcept { return raw_; }

  /// Equality of kind and index. Ordering: all inputs before all aux, then by index.
  friend constexpr bool operator==(Variable, Variable) noexcept = default;
  friend constexpr auto operator<=>(Variable, Variable) noexcept = default;

 private:
  constexpr explicit Variable(std::uint64_t raw) noexcept : raw_(raw) {}
  std::uint64_t raw_ = 0;
};

static_assert(sizeof(Variable) == 8);

}  // namespace proofline::r1cs
