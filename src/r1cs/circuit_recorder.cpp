// CircuitRecorder: record A, B, C row by row (include/proofline/r1cs/circuit_recorder.hpp).
#include "proofline/r1cs/circuit_recorder.hpp"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

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
  if (FrEqual{}(c, table_[CompiledCircuit::kMinusOne])) return CompiledCircuit::kMinusOne;
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

CircuitRecorder::CircuitRecorder(PartTag, std::size_t j, const PartShape& part, std::size_t c0, std::size_t i0,
                                 std::size_t x0)
    : CircuitRecorder() {
  // Counters at part j's first constraint / input / aux (the base class starts with ONE counted).
  add_counts(i0 - 1 + j * part.inputs, x0 + j * part.aux, c0 + j * part.constraints);
  a_aux_ = DensityTracker::window(num_aux(), x0);
  b_aux_ = DensityTracker::window(num_aux(), x0);
  b_input_ = DensityTracker::window(num_inputs(), i0);
  part_ = j;
  foreign_in_[0] = i0;
  foreign_in_[1] = num_inputs();
  foreign_aux_[0] = x0;
  foreign_aux_[1] = num_aux();
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
  auto foreign = [&](std::span<const Term> terms, const std::uint64_t (&range)[2], const char* kind) {
    if (range[0] == range[1]) return;
    for (const Term& t : terms) {
      if (t.index >= range[0] && t.index < range[1]) {
        throw SynthesisError(SynthesisErrorCode::ShapeMismatch,
                             "part " + std::to_string(part_) + " reads " + kind + " variable " +
                                 std::to_string(t.index) + " of an earlier part (parts may read only the prefix " +
                                 "and their own variables)");
      }
    }
  };
  foreign(lc.inputs(), foreign_in_, "input");
  foreign(lc.aux(), foreign_aux_, "aux");
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

void CircuitRecorder::synthesize_parts(std::size_t n_parts, const PartShape& part, const PartBody& body,
                                       std::size_t threads) {
  if (parts_in_order(n_parts, body, threads)) return;
  const std::size_t c0 = num_constraints(), i0 = num_inputs(), x0 = num_aux();
  std::vector<std::unique_ptr<CircuitRecorder>> parts(n_parts);
  run_parts(n_parts, threads, [&](std::size_t j) {
    auto cs = std::unique_ptr<CircuitRecorder>(new CircuitRecorder(PartTag{}, j, part, c0, i0, x0));
    body(*cs, j);
    check_part(*cs, j, part, c0, i0, x0);
    parts[j] = std::move(cs);
  });
  append_parts(parts);
  add_counts(n_parts * part.inputs, n_parts * part.aux, n_parts * part.constraints);
}

void CircuitRecorder::append_parts(std::vector<std::unique_ptr<CircuitRecorder>>& parts) {
  // Coefficients: each part's table mapped into ours in part order, so that new values are appended
  // in the sequential order of first use.
  std::vector<std::vector<CoeffIndex>> map(parts.size());
  for (std::size_t j = 0; j < parts.size(); ++j) {
    const std::vector<Fr>& t = parts[j]->table_;
    map[j].resize(t.size());
    for (std::size_t k = 0; k < t.size(); ++k) map[j][k] = coeff_index(t[k]);
  }
  for (int m = 0; m < 3; ++m) {
    CompiledCircuit::OwnedRows& r = rows_[m];
    std::vector<std::size_t> entry0(parts.size() + 1), row0(parts.size() + 1);
    entry0[0] = r.cols.size();
    row0[0] = r.row_offsets.size();
    for (std::size_t j = 0; j < parts.size(); ++j) {
      entry0[j + 1] = entry0[j] + parts[j]->rows_[m].cols.size();
      row0[j + 1] = row0[j] + parts[j]->rows_[m].row_offsets.size() - 1;
    }
    if (entry0.back() > std::numeric_limits<RowOffset>::max()) {
      throw SynthesisError(SynthesisErrorCode::LimitExceeded,
                           std::string("matrix ") + "ABC"[m] + " has more than 2^32 − 1 entries (u32 row offsets)");
    }
    r.cols.resize(entry0.back());
    r.coeff_index.resize(entry0.back());
    r.row_offsets.resize(row0.back());
    tbb::parallel_for(std::size_t{0}, parts.size(), [&](std::size_t j) {
      CompiledCircuit::OwnedRows& p = parts[j]->rows_[m];
      std::copy(p.cols.begin(), p.cols.end(), r.cols.begin() + static_cast<std::ptrdiff_t>(entry0[j]));
      for (std::size_t e = 0; e < p.coeff_index.size(); ++e) r.coeff_index[entry0[j] + e] = map[j][p.coeff_index[e]];
      const auto base = static_cast<RowOffset>(entry0[j]);
      for (std::size_t i = 1; i < p.row_offsets.size(); ++i) r.row_offsets[row0[j] + i - 1] = base + p.row_offsets[i];
      p = {};  // frees the part's copy as soon as it is appended
    });
  }
  a_aux_.push_zeros(parts.back()->a_aux_.size() - a_aux_.size());
  b_aux_.push_zeros(parts.back()->b_aux_.size() - b_aux_.size());
  b_input_.push_zeros(parts.back()->b_input_.size() - b_input_.size());
  for (const auto& p : parts) {
    a_aux_.merge_window(p->a_aux_);
    b_aux_.merge_window(p->b_aux_);
    b_input_.merge_window(p->b_input_);
  }
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
