// TestConstraintSystem: paths, stored constraints, satisfaction and witness tampering.
#include "proofline/r1cs/test_constraint_system.hpp"

#include <utility>

namespace proofline::r1cs {

TestConstraintSystem::TestConstraintSystem() {
  input_values_.push_back(Fr::one());
  input_paths_.emplace_back("ONE");
  named_.emplace("ONE", Named{Kind::Input, 0});
}

std::string TestConstraintSystem::compute_path(const Name& name) const {
  std::string n = name.str();
  if (n.find('/') != std::string::npos) {
    throw SynthesisError(SynthesisErrorCode::InvalidName,
                         "'/' is not allowed in names: \"" + n + "\" (in namespace \"" + current_ + "\")");
  }
  if (current_.empty()) return n;
  std::string path;
  path.reserve(current_.size() + 1 + n.size());
  path.append(current_).append("/").append(n);
  return path;
}

void TestConstraintSystem::check_new(const std::string& path) const {
  if (named_.count(path) != 0) {
    throw SynthesisError(SynthesisErrorCode::DuplicateName, "an object already exists at path \"" + path + "\"");
  }
}

void TestConstraintSystem::on_alloc(Name name, ValueFn value, std::size_t index) {
  std::string path = compute_path(name);
  check_new(path);
  const Fr v = value();
  aux_values_.push_back(v);
  aux_paths_.push_back(path);
  named_.emplace(std::move(path), Named{Kind::Aux, index});
}

void TestConstraintSystem::on_alloc_input(Name name, ValueFn value, std::size_t index) {
  std::string path = compute_path(name);
  check_new(path);
  const Fr v = value();
  input_values_.push_back(v);
  input_paths_.push_back(path);
  named_.emplace(std::move(path), Named{Kind::Input, index});
}

void TestConstraintSystem::on_enforce(Name name, const LinearCombination& a, const LinearCombination& b,
                                      const LinearCombination& c, std::size_t index) {
  std::string path = compute_path(name);
  check_new(path);
  // Reject unknown variables now rather than at the first satisfaction check.
  for (const LinearCombination* lc : {&a, &b, &c}) {
    if (!lc->inputs().empty() && lc->inputs().back().index >= input_values_.size()) {
      throw SynthesisError(SynthesisErrorCode::UnknownVariable,
                           "constraint \"" + path + "\" uses input " + std::to_string(lc->inputs().back().index) +
                               ", but only " + std::to_string(input_values_.size()) + " allocated");
    }
    if (!lc->aux().empty() && lc->aux().back().index >= aux_values_.size()) {
      throw SynthesisError(SynthesisErrorCode::UnknownVariable,
                           "constraint \"" + path + "\" uses aux " + std::to_string(lc->aux().back().index) +
                               ", but only " + std::to_string(aux_values_.size()) + " allocated");
    }
  }
  constraints_.push_back(Constraint{a, b, c, path});
  named_.emplace(std::move(path), Named{Kind::Constraint, index});
}

void TestConstraintSystem::on_push_namespace(Name name) {
  std::string path = compute_path(name);
  check_new(path);
  ns_lengths_.push_back(current_.size());
  current_ = path;
  named_.emplace(std::move(path), Named{Kind::Namespace, 0});
}

void TestConstraintSystem::on_pop_namespace() noexcept {
  if (ns_lengths_.empty()) return;
  current_.resize(ns_lengths_.back());
  ns_lengths_.pop_back();
}

std::optional<std::string> TestConstraintSystem::which_is_unsatisfied() const {
  for (const Constraint& k : constraints_) {
    const Fr a = k.a.evaluate(input_values_, aux_values_);
    const Fr b = k.b.evaluate(input_values_, aux_values_);
    const Fr c = k.c.evaluate(input_values_, aux_values_);
    if (!(a * b == c)) return k.path;
  }
  return std::nullopt;
}

const TestConstraintSystem::Named* TestConstraintSystem::find(std::string_view path) const {
  auto it = named_.find(std::string(path));
  return it == named_.end() ? nullptr : &it->second;
}

const TestConstraintSystem::Named& TestConstraintSystem::find_variable(std::string_view path) const {
  const Named* n = find(path);
  if (n == nullptr) {
    throw SynthesisError(SynthesisErrorCode::UnknownPath, "no variable at path \"" + std::string(path) + "\"");
  }
  if (n->kind != Kind::Input && n->kind != Kind::Aux) {
    throw SynthesisError(SynthesisErrorCode::UnknownPath,
                         "path \"" + std::string(path) + "\" names a " +
                             (n->kind == Kind::Constraint ? "constraint" : "namespace") + ", not a variable");
  }
  return *n;
}

Fr TestConstraintSystem::get(std::string_view path) const {
  const Named& n = find_variable(path);
  return n.kind == Kind::Input ? input_values_[n.index] : aux_values_[n.index];
}

void TestConstraintSystem::set(std::string_view path, const Fr& value) {
  const Named& n = find_variable(path);
  (n.kind == Kind::Input ? input_values_[n.index] : aux_values_[n.index]) = value;
}

Variable TestConstraintSystem::variable(std::string_view path) const {
  const Named& n = find_variable(path);
  return n.kind == Kind::Input ? Variable::input(n.index) : Variable::aux(n.index);
}

Fr TestConstraintSystem::get_input(std::size_t index, std::string_view path) const {
  if (index >= input_values_.size() || input_paths_[index] != path) {
    throw SynthesisError(SynthesisErrorCode::UnknownPath,
                         "input " + std::to_string(index) + " is not at path \"" + std::string(path) + "\"" +
                             (index < input_paths_.size() ? " (it is \"" + input_paths_[index] + "\")" : ""));
  }
  return input_values_[index];
}

bool TestConstraintSystem::verify(std::span<const Fr> expected) const {
  if (expected.size() + 1 != input_values_.size()) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch,
                         "got " + std::to_string(expected.size()) + " expected inputs, the circuit has " +
                             std::to_string(input_values_.size() - 1) + " (not counting ONE)");
  }
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (!(input_values_[i + 1] == expected[i])) return false;
  }
  return true;
}

std::string TestConstraintSystem::pretty_print() const {
  std::string s;
  for (const std::string& p : input_paths_) s.append("INPUT ").append(p).append("\n");
  for (const std::string& p : aux_paths_) s.append("AUX ").append(p).append("\n");
  for (const Constraint& k : constraints_) s.append(k.path).append("\n");
  return s;
}

}  // namespace proofline::r1cs
