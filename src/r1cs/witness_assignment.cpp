// WitnessAssignment: witness-only synthesis (include/proofline/r1cs/witness_assignment.hpp).
#include "proofline/r1cs/witness_assignment.hpp"

#include <utility>
#include <vector>

#include "proofline/r1cs/proving_assignment.hpp"  // CancelScope

namespace proofline::r1cs {

WitnessAssignment::WitnessAssignment() : WitnessAssignment(WitnessBuffers{}) {}

WitnessAssignment::WitnessAssignment(WitnessBuffers recycled) : buf_(std::move(recycled)) {
  set_witness_buffer(&buf_.aux_assignment);
  set_cancel_flag(CancelScope::current());
  set_limits(CancelScope::current_limits());
  buf_.clear();
  buf_.input_assignment.push_back(Fr::one());  // ONE, Input(0) (the base class counts it)
}

WitnessAssignment::WitnessAssignment(PartTag, const WitnessAssignment& parent, std::size_t j, const PartShape& part,
                                     std::size_t c0, std::size_t i0, std::size_t x0) {
  // Counters at part j's first constraint / input / aux (the base class starts with ONE counted).
  add_counts(i0 - 1 + j * part.inputs, x0 + j * part.aux, c0 + j * part.constraints);
  set_witness_buffer(&buf_.aux_assignment);
  set_cancel_flag(parent.cancel_flag());
  set_limits(parent.limits());
  buf_.input_assignment.reserve(part.inputs);
  buf_.aux_assignment.reserve(part.aux);
}

void WitnessAssignment::reserve(std::size_t n_inputs, std::size_t n_aux, std::size_t n_others) {
  buf_.input_assignment.reserve(n_inputs);
  buf_.aux_assignment.reserve(n_aux, n_others);
}

void WitnessAssignment::on_alloc(Name, ValueFn value, std::size_t) {
  tick_cancel(1);
  buf_.aux_assignment.push_back(value());
}

void WitnessAssignment::on_alloc_input(Name, ValueFn value, std::size_t) {
  buf_.input_assignment.push_back(value());
}

void WitnessAssignment::synthesize_parts(std::size_t n_parts, const PartShape& part, const PartBody& body,
                                         std::size_t threads) {
  if (parts_in_order(n_parts, body, threads)) return;
  const std::size_t c0 = num_constraints(), i0 = num_inputs(), x0 = num_aux();
  check_parts_fit(c0 + n_parts * part.constraints, i0 + n_parts * part.inputs, x0 + n_parts * part.aux);
  std::vector<WitnessBuffers> parts(n_parts);
  run_parts(n_parts, threads, [&](std::size_t j) {
    WitnessAssignment cs(PartTag{}, *this, j, part, c0, i0, x0);
    body(cs, j);
    check_part(cs, j, part, c0, i0, x0);
    parts[j] = std::move(cs.buf_);
  });
  buf_.input_assignment.reserve(i0 + n_parts * part.inputs);
  buf_.aux_assignment.reserve(x0 + n_parts * part.aux);
  for (WitnessBuffers& p : parts) {
    buf_.input_assignment.insert(buf_.input_assignment.end(), p.input_assignment.begin(), p.input_assignment.end());
    buf_.aux_assignment.append(p.aux_assignment);
    p = {};  // frees the part's fragment as soon as it is appended
  }
  add_counts(n_parts * part.inputs, n_parts * part.aux, n_parts * part.constraints);
}

}  // namespace proofline::r1cs
