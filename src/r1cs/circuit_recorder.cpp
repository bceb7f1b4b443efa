// CircuitRecorder: record A, B, C row by row (include/proofline/r1cs/circuit_recorder.hpp).
#include "proofline/r1cs/circuit_recorder.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include <tbb/parallel_for.h>

namespace proofline::r1cs {

namespace {
// While recording, the number of inputs is not final (inputs may be allocated after aux variables),
// so an entry's column is the input index with this bit set, or the aux index; compile() rewrites
// them into z = [inputs | aux] columns.
constexpr Column kInputTag = Column{1} << 31;
}  // namespace

CircuitRecorder::CircuitRecorder() {
  table_ = {Fr::one(), -Fr::one()};
  index_of_.emplace(table_[0], CompiledCircuit::kPlusOne);
  index_of_.emplace(table_[1], CompiledCircuit::kMinusOne);
  b_input_.push_back(false);  // ONE
}

void CircuitRecorder::on_alloc(Name, ValueFn, std::size_t index) {
  if (index >= kInputTag) {
    throw SynthesisError(SynthesisErrorCode::LimitExceeded,
                         "aux variable " + std::to_string(index) + ": a compiled circuit holds fewer than 2^31");
  }
  a_aux_.push_back(false);
  b_aux_.push_back(false);
}

void CircuitRecorder::on_alloc_input(Name, ValueFn, std::size_t index) {
  if (index >= kInputTag) {
    throw SynthesisError(SynthesisErrorCode::LimitExceeded,
                         "input " + std::to_string(index) + ": a compiled circuit holds fewer than 2^31");
  }
  b_input_.push_back(false);
}

CoeffIndex CircuitRecorder::coeff_index(const Fr& c) {
  if (detail::is_one(c)) return CompiledCircuit::kPlusOne;
  auto [it, added] = index_of_.try_emplace(c, static_cast<CoeffIndex>(table_.size()));
  if (added) {
    if (table_.size() == CompiledCircuit::kMaxCoefficients) {
      index_of_.erase(it);
      throw SynthesisError(SynthesisErrorCode::LimitExceeded,
                           "more than " + std::to_string(CompiledCircuit::kMaxCoefficients) +
                               " distinct coefficients (the compiled form indexes them in 16 bits)");
    }
    table_.push_back(c);
  }
  return it->second;
}

void CircuitRecorder::check_known(const LinearCombination& lc) const {
  if (!lc.inputs().empty() && lc.inputs().back().index >= num_inputs()) {
    throw SynthesisError(SynthesisErrorCode::UnknownVariable, "input variable " +
                                                                  std::to_string(lc.inputs().back().index) +
                                                                  " used, but only " + std::to_string(num_inputs()) +
                                                                  " allocated");
  }
  if (!lc.aux().empty() && lc.aux().back().index >= num_aux()) {
    throw SynthesisError(SynthesisErrorCode::UnknownVariable, "aux variable " + std::to_string(lc.aux().back().index) +
                                                                  " used, but only " + std::to_string(num_aux()) +
                                                                  " allocated");
  }
}

template <class OnInput, class OnAux>
void CircuitRecorder::record(int m, const LinearCombination& lc, OnInput&& on_input, OnAux&& on_aux) {
  CompiledCircuit::OwnedRows& r = rows_[m];
  // A LinearCombination holds one term per variable, by increasing index (linear_combination.hpp):
  // the entries of a row come out merged and sorted, inputs first.
  for (const Term& t : lc.inputs()) {
    if (t.coeff.is_zero()) continue;
    r.cols.push_back(static_cast<Column>(t.index) | kInputTag);
    r.coeff_index.push_back(coeff_index(t.coeff));
    on_input(t.index);
  }
  for (const Term& t : lc.aux()) {
    if (t.coeff.is_zero()) continue;
    r.cols.push_back(static_cast<Column>(t.index));
    r.coeff_index.push_back(coeff_index(t.coeff));
    on_aux(t.index);
  }
  if (r.cols.size() > std::numeric_limits<RowOffset>::max()) [[unlikely]] {
    throw SynthesisError(SynthesisErrorCode::LimitExceeded,
                         std::string("matrix ") + "ABC"[m] + " has more than 2^32 − 1 entries (u32 row offsets)");
  }
  r.row_offsets.push_back(static_cast<RowOffset>(r.cols.size()));
}

void CircuitRecorder::on_enforce(Name, const LinearCombination& a, const LinearCombination& b,
                                 const LinearCombination& c, std::size_t) {
  // Check first, record after: a throw leaves nothing half-recorded.
  check_known(a);
  check_known(b);
  check_known(c);
  auto none = [](std::uint64_t) {};
  // A: density over aux only (inputs are dense in A through the input constraints); B: both; C: none.
  record(0, a, none, [&](std::uint64_t j) { a_aux_.set(j); });
  record(1, b, [&](std::uint64_t j) { b_input_.set(j); }, [&](std::uint64_t j) { b_aux_.set(j); });
  record(2, c, none, none);
}

CompiledCircuit CircuitRecorder::compile() && {
  if (!is_finalized()) {
    throw SynthesisError(SynthesisErrorCode::NotFinalized,
                         "CircuitRecorder::compile() after finalize() (which appends the input constraints)");
  }
  const std::uint64_t n_inputs = num_inputs(), n_aux = num_aux();
  if (n_inputs + n_aux > std::uint64_t{0xffffffff}) {
    throw SynthesisError(SynthesisErrorCode::LimitExceeded,
                         std::to_string(n_inputs) + " inputs + " + std::to_string(n_aux) +
                             " aux variables: a compiled circuit's u32 columns hold fewer than 2^32");
  }
  const Column shift = static_cast<Column>(n_inputs);
  for (CompiledCircuit::OwnedRows& r : rows_) {
    std::vector<Column>& cols = r.cols;
    tbb::parallel_for(std::size_t{0}, cols.size(), std::size_t{1} << 16, [&](std::size_t lo) {
      const std::size_t hi = std::min(cols.size(), lo + (std::size_t{1} << 16));
      for (std::size_t e = lo; e < hi; ++e) {
        const Column j = cols[e];
        cols[e] = (j & kInputTag) != 0 ? j & ~kInputTag : j + shift;
      }
    });
  }
  index_of_.clear();
  return CompiledCircuit(n_inputs, n_aux, std::move(rows_), std::move(table_), std::move(a_aux_), std::move(b_input_),
                         std::move(b_aux_));
}

}  // namespace proofline::r1cs
