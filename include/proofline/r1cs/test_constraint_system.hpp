// proofline/r1cs/test_constraint_system.hpp — test mode: keeps everything, checks satisfaction.
//
// Owns: `TestConstraintSystem`, bellpepper-core's TestConstraintSystem (util_cs/test_cs.rs).
//
// Every variable, constraint and namespace gets a path: the names of the open namespaces and its own
// name joined by '/', e.g. "challenge_0/sha256/compression/constraint_12". ONE is the input "ONE".
// A path may be used once (a second variable, constraint or namespace of the same name in the same
// namespace throws DuplicateName); names containing '/' throw InvalidName. finalize() names the input
// constraints "input_constraint_<i>" at the root.
//
// Values (Montgomery Fr) are computed at alloc (value callbacks are called); LCs are stored as given,
// so satisfaction is re-evaluated against the current values: set(path, v) tampers with a witness and
// which_is_unsatisfied() then names the first constraint (in enforce order) with a·b ≠ c.
// Storage is per constraint (three LCs and a path): meant for tests and gadget development, not for
// production-size circuits.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "proofline/r1cs/constraint_system.hpp"

namespace proofline::r1cs {

class TestConstraintSystem final : public ConstraintSystem {
 public:
  struct Constraint {
    LinearCombination a, b, c;
    std::string path;
  };

  /// Allocates ONE (input 0, value 1, path "ONE").
  TestConstraintSystem();

  bool computes_values() const noexcept override { return true; }

  /// True if every constraint holds for the current values.
  bool is_satisfied() const { return !which_is_unsatisfied().has_value(); }
  /// Path of the first constraint with ⟨A,z⟩·⟨B,z⟩ ≠ ⟨C,z⟩, or nullopt if all hold.
  std::optional<std::string> which_is_unsatisfied() const;

  /// Value of the variable at `path`. Throws UnknownPath if no variable has that path.
  Fr get(std::string_view path) const;
  /// Overwrites the value of the variable at `path` (witness tampering). Throws UnknownPath.
  void set(std::string_view path, const Fr& value);
  /// Variable at `path`. Throws UnknownPath.
  Variable variable(std::string_view path) const;
  /// Value of input `index`, checking that its path is `path` (throws UnknownPath otherwise).
  Fr get_input(std::size_t index, std::string_view path) const;
  /// True if the inputs after ONE equal `expected` (throws ShapeMismatch if the counts differ).
  bool verify(std::span<const Fr> expected) const;

  std::span<const Fr> input_values() const noexcept { return input_values_; }
  std::span<const Fr> aux_values() const noexcept { return aux_values_; }
  const std::string& input_path(std::size_t i) const { return input_paths_.at(i); }
  const std::string& aux_path(std::size_t i) const { return aux_paths_.at(i); }
  std::span<const Constraint> constraints() const noexcept { return constraints_; }
  /// ⟨A_i, z⟩, ⟨B_i, z⟩, ⟨C_i, z⟩ of constraint i for the current values.
  Fr eval_a(std::size_t i) const { return constraints_.at(i).a.evaluate(input_values_, aux_values_); }
  Fr eval_b(std::size_t i) const { return constraints_.at(i).b.evaluate(input_values_, aux_values_); }
  Fr eval_c(std::size_t i) const { return constraints_.at(i).c.evaluate(input_values_, aux_values_); }

  /// One line per input ("INPUT <path>"), aux ("AUX <path>") and constraint (its path).
  std::string pretty_print() const;

 protected:
  void on_alloc(Name name, ValueFn value, std::size_t index) override;
  void on_alloc_input(Name name, ValueFn value, std::size_t index) override;
  void on_enforce(Name name, const LinearCombination& a, const LinearCombination& b,
                  const LinearCombination& c, std::size_t index) override;
  void on_push_namespace(Name name) override;
  void on_pop_namespace() noexcept override;

 private:
  enum class Kind { Input, Aux, Constraint, Namespace };
  struct Named {
    Kind kind;
    std::size_t index;
  };
  std::string compute_path(const Name& name) const;
  void check_new(const std::string& path) const;
  const Named* find(std::string_view path) const;
  const Named& find_variable(std::string_view path) const;

  std::unordered_map<std::string, Named> named_;
  std::vector<Fr> input_values_, aux_values_;
  std::vector<std::string> input_paths_, aux_paths_;
  std::vector<Constraint> constraints_;
  std::string current_;                  // open namespaces joined by '/'
  std::vector<std::size_t> ns_lengths_;  // current_.size() before each push
};

}  // namespace proofline::r1cs
