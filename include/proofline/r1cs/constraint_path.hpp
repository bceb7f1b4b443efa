// proofline/r1cs/constraint_path.hpp — the test-mode path of one constraint, without test mode.
//
// Owns: `ConstraintPathFinder`, a ConstraintSystem that computes no values and stores nothing but the
// open namespaces' names, and remembers the path of constraint `target` (enforce order): the same
// string TestConstraintSystem gives it ("por tree_r_old (c_index=3)/merkle proof hash
// (height=0)/…/calculated root == provided root"). A checker that found an unsatisfied constraint
// in prover mode names it with one more synthesis at the cost of shape mode plus the namespace
// strings, where test mode would keep every constraint (GBs at a million constraints). Synthesis
// must not depend on witness values (true of every circuit here: values never choose constraints).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "proofline/r1cs/constraint_system.hpp"

namespace proofline::r1cs {

class ConstraintPathFinder final : public ConstraintSystem {
 public:
  explicit ConstraintPathFinder(std::size_t target) : target_(target) {}
  bool computes_values() const noexcept override { return false; }
  /// The path of constraint `target`, once synthesis has passed it.
  const std::optional<std::string>& path() const noexcept { return path_; }

 protected:
  void on_alloc(Name, ValueFn, std::size_t) override {}
  void on_alloc_input(Name, ValueFn, std::size_t) override {}
  void on_enforce(Name name, const LinearCombination&, const LinearCombination&, const LinearCombination&,
                  std::size_t index) override {
    if (index != target_) return;
    std::string p;
    for (const std::string& n : stack_) p.append(n).append("/");
    path_ = p + name.str();
  }
  void on_push_namespace(Name name) override { stack_.push_back(done() ? std::string() : name.str()); }
  void on_pop_namespace() noexcept override {
    if (!stack_.empty()) stack_.pop_back();
  }

 private:
  bool done() const noexcept { return path_.has_value(); }
  std::size_t target_;
  std::vector<std::string> stack_;
  std::optional<std::string> path_;
};

}  // namespace proofline::r1cs
