// KeypairAssembly: record A/B/C terms row by row, transpose to columns at finalize().
#include "proofline/r1cs/keypair_assembly.hpp"

#include <string>

namespace proofline::r1cs {

void SparseColumns::Part::build(std::size_t n_cols, std::vector<Triplet>& triplets) {
  // Counting sort by column; triplets arrive by increasing row, so each column stays row-sorted.
  offsets.assign(n_cols + 1, 0);
  for (const Triplet& t : triplets) ++offsets[t.col + 1];
  for (std::size_t j = 0; j < n_cols; ++j) offsets[j + 1] += offsets[j];
  entries.resize(triplets.size());
  std::vector<std::uint64_t> next(offsets.begin(), offsets.end() - 1);
  for (const Triplet& t : triplets) entries[next[t.col]++] = ColumnEntry{t.row, t.coeff};
  std::vector<Triplet>().swap(triplets);
}

void KeypairAssembly::on_enforce(Name, const LinearCombination& a, const LinearCombination& b,
                                 const LinearCombination& c, std::size_t index) {
  const LinearCombination* lcs[3] = {&a, &b, &c};
  // Check first, record after: a throw leaves nothing half-recorded.
  for (const LinearCombination* lc : lcs) {
    for (const Term& t : lc->inputs()) {
      if (t.index >= num_inputs()) {
        throw SynthesisError(SynthesisErrorCode::UnknownVariable,
                             "input variable " + std::to_string(t.index) + " used, but only " +
                                 std::to_string(num_inputs()) + " allocated");
      }
    }
    for (const Term& t : lc->aux()) {
      if (t.index >= num_aux()) {
        throw SynthesisError(SynthesisErrorCode::UnknownVariable,
                             "aux variable " + std::to_string(t.index) + " used, but only " +
                                 std::to_string(num_aux()) + " allocated");
      }
    }
  }
  for (int m = 0; m < 3; ++m) {
    for (const Term& t : lcs[m]->inputs()) {
      if (!t.coeff.is_zero()) pending_[m][0].push_back({index, t.index, t.coeff});
    }
    for (const Term& t : lcs[m]->aux()) {
      if (!t.coeff.is_zero()) pending_[m][1].push_back({index, t.index, t.coeff});
    }
  }
}

void KeypairAssembly::on_finalize() {
  for (int m = 0; m < 3; ++m) {
    cols_[m].inputs_.build(num_inputs(), pending_[m][0]);
    cols_[m].aux_.build(num_aux(), pending_[m][1]);
  }
}

const SparseColumns& KeypairAssembly::columns(int m) const {
  if (!is_finalized()) {
    throw SynthesisError(SynthesisErrorCode::NotFinalized,
                         "KeypairAssembly columns exist after finalize() (which appends the input constraints)");
  }
  return cols_[m];
}

}  // namespace proofline::r1cs
