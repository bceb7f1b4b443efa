// CompiledCircuit: storage and the CPU evaluation a = A·z, b = B·z, c = C·z
// (include/proofline/r1cs/compiled_circuit.hpp).
#include "proofline/r1cs/compiled_circuit.hpp"

#include <algorithm>
#include <string>
#include <type_traits>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include "proofline/r1cs/linear_combination.hpp"
#include "proofline/r1cs/packed_witness.hpp"
#include "proofline/r1cs/proving_buffers.hpp"
#include "proofline/util/error.hpp"

namespace proofline::r1cs {

CompiledCircuit::CompiledCircuit(std::uint64_t inputs, std::uint64_t aux, std::array<OwnedRows, 3> matrices,
                                 std::vector<Fr> coefficients, DensityTracker a_aux, DensityTracker b_input,
                                 DensityTracker b_aux, bool c_is_ab)
    : owned_(std::move(matrices)),
      coefficients_(std::move(coefficients)),
      a_aux_(std::move(a_aux)),
      b_input_(std::move(b_input)),
      b_aux_(std::move(b_aux)) {
  shape_.constraints = owned_[0].row_offsets.size() - 1;
  shape_.inputs = inputs;
  shape_.aux = aux;
  for (int m = 0; m < 3; ++m) shape_.nnz[m] = owned_[m].cols.size();
  shape_.coefficients = coefficients_.size();
  shape_.c_is_ab = c_is_ab;
  set_views();
}

CompiledCircuit::CompiledCircuit(Parts parts)
    : shape_(parts.shape),
      views_(parts.matrices),
      coefficients_(std::move(parts.coefficients)),
      a_aux_(std::move(parts.a_aux_density)),
      b_input_(std::move(parts.b_input_density)),
      b_aux_(std::move(parts.b_aux_density)),
      keep_alive_(std::move(parts.keep_alive)) {}

void CompiledCircuit::set_views() noexcept {
  for (int m = 0; m < 3; ++m) views_[m] = SparseRows{owned_[m].row_offsets, owned_[m].cols, owned_[m].coeff_index};
}

std::size_t CompiledCircuit::bytes() const noexcept {
  std::size_t n = coefficients_.size() * sizeof(Fr);
  for (const SparseRows& m : views_) {
    n += m.row_offsets.size_bytes() + m.cols.size_bytes() + m.coeff_index.size_bytes();
  }
  for (const DensityTracker* d : {&a_aux_, &b_input_, &b_aux_}) n += d->words().size_bytes();
  return n;
}

std::size_t CompiledCircuit::unit_entries() const noexcept {
  std::size_t n = 0;
  for (const SparseRows& m : views_) {
    for (const CoeffIndex k : m.coeff_index) n += k == kPlusOne || k == kMinusOne;
  }
  return n;
}

bool operator==(const CompiledCircuit& x, const CompiledCircuit& y) noexcept {
  if (!(x.shape_ == y.shape_) || !std::ranges::equal(x.coefficients_, y.coefficients_) || !(x.a_aux_ == y.a_aux_) ||
      !(x.b_input_ == y.b_input_) || !(x.b_aux_ == y.b_aux_)) {
    return false;
  }
  for (int m = 0; m < 3; ++m) {
    const SparseRows &p = x.views_[m], &q = y.views_[m];
    if (!std::ranges::equal(p.row_offsets, q.row_offsets) || !std::ranges::equal(p.cols, q.cols) ||
        !std::ranges::equal(p.coeff_index, q.coeff_index)) {
      return false;
    }
  }
  return true;
}

namespace {

void check_length(const char* what, std::size_t got, std::uint64_t expected) {
  if (got != expected) {
    throw ProoflineError(Error::BadLength, std::string("compiled circuit evaluation: ") + what + " has " +
                                               std::to_string(got) + " elements, expected " +
                                               std::to_string(expected));
  }
}

// ⟨row i of m, z⟩: +v for coefficient index 0, −v for index 1, table[k]·v otherwise (table[k] for
// v = 1, nothing for v = 0: no multiplication for the 0/1 values that make up most witnesses).
// `aux` is a pointer to the plain values or a PackedWitness (value(j) by rank).
template <class Aux>
inline Fr row_value(const SparseRows& m, std::size_t i, const Fr* table, const Fr* inputs, std::uint64_t n_inputs,
                    const Aux& aux) noexcept {
  Fr acc = Fr::zero();
  const RowOffset end = m.row_offsets[i + 1];
  for (RowOffset e = m.row_offsets[i]; e < end; ++e) {
    const Column j = m.cols[e];
    Fr v;
    if constexpr (std::is_same_v<Aux, PackedWitness>) {
      v = j < n_inputs ? inputs[j] : aux.value(j - n_inputs);
    } else {
      v = j < n_inputs ? inputs[j] : aux[j - n_inputs];
    }
    const CoeffIndex k = m.coeff_index[e];
    if (k == CompiledCircuit::kPlusOne) {
      acc += v;
    } else if (k == CompiledCircuit::kMinusOne) {
      acc -= v;
    } else if (detail::is_one(v)) {  // witnesses are mostly 0/1 (PoRep 32 GiB: 98.7 %)
      acc += table[k];
    } else if (!v.is_zero()) {
      acc += table[k] * v;
    }
  }
  return acc;
}

}  // namespace

std::size_t ProvingBuffers::rows() const noexcept { return compiled ? compiled->shape().constraints : a.size(); }

void evaluate(std::span<Fr> a, std::span<Fr> b, std::span<Fr> c, const CompiledCircuit& circuit,
              std::span<const Fr> inputs, std::span<const Fr> aux) {
  const CompiledShape& s = circuit.shape();
  check_length("a", a.size(), s.constraints);
  check_length("b", b.size(), s.constraints);
  check_length("c", c.size(), s.constraints);
  check_length("the input assignment", inputs.size(), s.inputs);
  check_length("the aux assignment", aux.size(), s.aux);
  const Fr* table = circuit.coefficients().data();
  const SparseRows* m[3] = {&circuit.a(), &circuit.b(), &circuit.c()};
  Fr* out[3] = {a.data(), b.data(), c.data()};
  // Rows in blocks of 4096 (a few hundred µs of work each); each block writes its own range of a, b, c.
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, s.constraints, 4096),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (int k = 0; k < (s.c_is_ab ? 2 : 3); ++k) {
                        for (std::size_t i = r.begin(); i < r.end(); ++i) {
                          out[k][i] = row_value(*m[k], i, table, inputs.data(), s.inputs, aux.data());
                        }
                      }
                      if (s.c_is_ab) {
                        for (std::size_t i = r.begin(); i < r.end(); ++i) out[2][i] = out[0][i] * out[1][i];
                      }
                    });
}

namespace {

template <class Aux>
std::optional<std::size_t> first_unsatisfied_of(const CompiledCircuit& circuit, std::span<const Fr> inputs,
                                                std::size_t aux_len, const Aux& aux) {
  const CompiledShape& s = circuit.shape();
  check_length("the input assignment", inputs.size(), s.inputs);
  check_length("the aux assignment", aux_len, s.aux);
  if (s.c_is_ab) return std::nullopt;  // c = a·b by construction
  const Fr* table = circuit.coefficients().data();
  constexpr std::size_t kNone = SIZE_MAX;
  const std::size_t first = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, s.constraints, 4096), kNone,
      [&](const tbb::blocked_range<std::size_t>& r, std::size_t found) {
        for (std::size_t i = r.begin(); i < r.end() && i < found; ++i) {
          const Fr a = row_value(circuit.a(), i, table, inputs.data(), s.inputs, aux);
          const Fr b = row_value(circuit.b(), i, table, inputs.data(), s.inputs, aux);
          if (a * b != row_value(circuit.c(), i, table, inputs.data(), s.inputs, aux)) return i;
        }
        return found;
      },
      [](std::size_t x, std::size_t y) { return std::min(x, y); });
  if (first == kNone) return std::nullopt;
  return first;
}

}  // namespace

std::optional<std::size_t> first_unsatisfied(const CompiledCircuit& circuit, std::span<const Fr> inputs,
                                             std::span<const Fr> aux) {
  return first_unsatisfied_of(circuit, inputs, aux.size(), aux.data());
}

std::optional<std::size_t> first_unsatisfied(const CompiledCircuit& circuit, std::span<const Fr> inputs,
                                             const PackedWitness& aux) {
  return first_unsatisfied_of(circuit, inputs, aux.size(), aux);
}

void evaluate_in_place(ProvingBuffers& buf) {
  if (!buf.compiled) return;
  if (!buf.packed_aux.empty()) {
    buf.aux_assignment.resize(buf.packed_aux.size());  // every element written by expand
    buf.packed_aux.expand(buf.aux_assignment);
    buf.packed_aux.clear();
  }
  const std::size_t rows = buf.rows();
  buf.a.resize(rows);
  buf.b.resize(rows);
  buf.c.resize(rows);
  evaluate(buf.a, buf.b, buf.c, *buf.compiled, buf.input_assignment, buf.aux_assignment);
  buf.compiled.reset();
}

}  // namespace proofline::r1cs
