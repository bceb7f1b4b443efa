// A snarkjs zkey as the prover backends take it (include/proofline/groth16/snarkjs/circuit.hpp).
#include "proofline/groth16/snarkjs/circuit.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "proofline/groth16/snarkjs/prover.hpp"
#include "proofline/util/error.hpp"

namespace proofline::groth16::snarkjs {

std::uint64_t ZkeyCircuit::bytes() const noexcept {
  const auto bits = [](const r1cs::DensityTracker& d) { return std::uint64_t{8} * d.words().size(); };
  return sizeof(ZkeyCoeff) * coeffs.size() + bits(a_aux_density) + bits(b_input_density) + bits(b_aux_density);
}

namespace {

void check_domain(std::uint32_t domain_size) {
  if (domain_size < 2 || (domain_size & (domain_size - 1)) != 0) {
    throw ProoflineError(Error::BadLength, "zkey: domainSize = " + std::to_string(domain_size) +
                                               "; expected a power of two >= 2");
  }
}

/// c's rows moved to the ω7 domain (J·c mod n) and its densities: signal s has an A (B) coefficient
/// iff in_a(s) (in_b(s)). c.n_vars, n_public, domain_size and coeffs are set.
template <class InA, class InB>
void place_rows_and_densities(ZkeyCircuit& c, InA in_a, InB in_b) {
  const std::uint64_t J = snarkjs_root_exponent();
  const std::uint64_t mask = c.domain_size - 1;
  for (ZkeyCoeff& e : c.coeffs) e.constraint = static_cast<std::uint32_t>((J * e.constraint) & mask);
  const std::size_t n_in = std::size_t{c.n_public} + 1, n_aux = c.n_vars - n_in;
  c.b_input_density.reserve(n_in);
  c.a_aux_density.reserve(n_aux);
  c.b_aux_density.reserve(n_aux);
  for (std::size_t i = 0; i < n_in; ++i) c.b_input_density.push_back(in_b(i));
  for (std::size_t j = 0; j < n_aux; ++j) {
    c.a_aux_density.push_back(in_a(n_in + j));
    c.b_aux_density.push_back(in_b(n_in + j));
  }
}

}  // namespace

ZkeyParameters zkey_parameters(Zkey z) {
  check_domain(z.domain_size);
  ZkeyParameters out;
  ZkeyCircuit& c = out.circuit;
  Parameters& p = out.params;
  c.n_vars = z.n_vars;
  c.n_public = z.n_public;
  c.domain_size = z.domain_size;
  const std::size_t n_in = std::size_t{z.n_public} + 1, n_aux = z.n_vars - n_in;

  // Which signals have an A / B coefficient; rows to the ω7 domain.
  std::vector<char> in_a(z.n_vars, 0), in_b(z.n_vars, 0);
  c.coeffs = std::move(z.coeffs);
  for (const ZkeyCoeff& e : c.coeffs) (e.matrix == 0 ? in_a : in_b)[e.signal] = 1;
  place_rows_and_densities(c, [&](std::size_t s) { return in_a[s] != 0; }, [&](std::size_t s) { return in_b[s] != 0; });

  p.vk = z.verifying_key();
  p.h = std::move(z.h);
  p.h_form = HForm::OddCoset;
  p.l = std::move(z.c);
  std::size_t n_a = n_in, n_b = 0;
  for (std::size_t s = 0; s < z.n_vars; ++s) {
    n_a += s >= n_in && in_a[s];
    n_b += in_b[s] != 0;
  }
  p.a.reserve(n_a);
  p.b_g1.reserve(n_b);
  p.b_g2.reserve(n_b);
  for (std::size_t i = 0; i < n_in; ++i) {
    p.a.push_back(z.a[i]);
    if (in_b[i]) {
      p.b_g1.push_back(z.b1[i]);
      p.b_g2.push_back(z.b2[i]);
    }
  }
  for (std::size_t j = 0; j < n_aux; ++j) {
    const std::size_t s = n_in + j;
    if (in_a[s]) p.a.push_back(z.a[s]);
    if (in_b[s]) {
      p.b_g1.push_back(z.b1[s]);
      p.b_g2.push_back(z.b2[s]);
    }
  }
  return out;
}

ZkeyParameters zkey_shell(const std::string& path, const ZkeyReadOptions& opts) {
  auto file = std::make_shared<ZkeyFile>(path, opts);
  const Zkey& z = file->head();
  check_domain(z.domain_size);
  ZkeyParameters out;
  ZkeyCircuit& c = out.circuit;
  c.n_vars = z.n_vars;
  c.n_public = z.n_public;
  c.domain_size = z.domain_size;
  out.params.vk = z.verifying_key();
  out.params.h_form = HForm::OddCoset;
  c.coeffs = file->take_coeffs();
  const ZkeyFile& f = *file;
  place_rows_and_densities(c, [&](std::size_t s) { return f.in_a(static_cast<std::uint32_t>(s)); },
                           [&](std::size_t s) { return f.in_b(static_cast<std::uint32_t>(s)); });
  out.params.source = std::move(file);
  return out;
}

namespace {

/// The assignments: the witness as Fr (Montgomery form), ONE and the public signals first.
void assign_witness(const ZkeyCircuit& circuit, const Witness& witness, r1cs::ProvingBuffers& buf) {
  const std::size_t n_in = std::size_t{circuit.n_public} + 1, nv = circuit.n_vars;
  buf.input_assignment.resize(n_in);
  buf.aux_assignment.resize(nv - n_in);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, nv, 4096), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      (i < n_in ? buf.input_assignment[i] : buf.aux_assignment[i - n_in]) = witness.fr(i);
    }
  });
}

}  // namespace

std::optional<r1cs::CompiledCircuit> compiled_circuit(const ZkeyCircuit& circuit) {
  using r1cs::CompiledCircuit;
  const std::size_t n = circuit.domain_size, n_in = std::size_t{circuit.n_public} + 1;
  std::vector<Fr> table = {Fr::one(), -Fr::one()};
  std::map<std::array<std::uint64_t, 4>, r1cs::CoeffIndex> index;
  const auto key_of = [](const Fr& v) {
    std::array<std::uint64_t, 4> k;
    static_assert(sizeof(k) == sizeof(Fr));
    std::memcpy(k.data(), &v, sizeof(k));
    return k;
  };
  index[key_of(table[0])] = CompiledCircuit::kPlusOne;
  index[key_of(table[1])] = CompiledCircuit::kMinusOne;
  std::array<CompiledCircuit::OwnedRows, 3> m;
  for (int k = 0; k < 2; ++k) {
    std::vector<const ZkeyCoeff*> e;
    for (const ZkeyCoeff& c : circuit.coeffs) {
      if (c.matrix == static_cast<std::uint32_t>(k)) e.push_back(&c);
    }
    std::stable_sort(e.begin(), e.end(), [](const ZkeyCoeff* x, const ZkeyCoeff* y) {
      return x->constraint != y->constraint ? x->constraint < y->constraint : x->signal < y->signal;
    });
    CompiledCircuit::OwnedRows& rows = m[k];
    rows.row_offsets.assign(n + 1, 0);
    for (std::size_t i = 0; i < e.size();) {
      std::size_t j = i;
      Fr sum = Fr::zero();
      for (; j < e.size() && e[j]->constraint == e[i]->constraint && e[j]->signal == e[i]->signal; ++j) sum += e[j]->value;
      if (!sum.is_zero()) {
        auto [it, fresh] = index.emplace(key_of(sum), static_cast<r1cs::CoeffIndex>(table.size()));
        if (fresh) {
          if (table.size() == CompiledCircuit::kMaxCoefficients) return std::nullopt;
          table.push_back(sum);
        }
        rows.cols.push_back(e[i]->signal);
        rows.coeff_index.push_back(it->second);
        ++rows.row_offsets[e[i]->constraint + 1];
      }
      i = j;
    }
    for (std::size_t r = 0; r < n; ++r) rows.row_offsets[r + 1] += rows.row_offsets[r];
  }
  m[2].row_offsets.assign(n + 1, 0);
  return CompiledCircuit(n_in, circuit.n_vars - n_in, std::move(m), std::move(table), circuit.a_aux_density,
                         circuit.b_input_density, circuit.b_aux_density, /*c_is_ab=*/true);
}

void synthesize_compiled(const ZkeyCircuit& circuit, const Witness& witness,
                         std::shared_ptr<const r1cs::CompiledCircuit> cc, r1cs::ProvingBuffers& buf,
                         std::string_view zkey_name, std::string_view wtns_name) {
  check_witness_matches(circuit.n_vars, witness, zkey_name, wtns_name);
  buf.clear();
  assign_witness(circuit, witness, buf);
  buf.a_aux_density = circuit.a_aux_density;
  buf.b_input_density = circuit.b_input_density;
  buf.b_aux_density = circuit.b_aux_density;
  buf.compiled = std::move(cc);
}

void synthesize(const ZkeyCircuit& circuit, const Witness& witness, r1cs::ProvingBuffers& buf,
                std::string_view zkey_name, std::string_view wtns_name) {
  check_witness_matches(circuit.n_vars, witness, zkey_name, wtns_name);
  const std::size_t n = circuit.domain_size, n_in = std::size_t{circuit.n_public} + 1;
  assign_witness(circuit, witness, buf);
  auto w = [&](std::uint32_t s) -> const Fr& { return s < n_in ? buf.input_assignment[s] : buf.aux_assignment[s - n_in]; };
  // a, b at rows J·c mod n (already in the coefficients), then c = a·b row by row.
  buf.a.assign(n, Fr::zero());
  buf.b.assign(n, Fr::zero());
  buf.c.resize(n);
  for (const ZkeyCoeff& e : circuit.coeffs) (e.matrix == 0 ? buf.a : buf.b)[e.constraint] += e.value * w(e.signal);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) buf.c[i] = buf.a[i] * buf.b[i];
  });
  buf.a_aux_density = circuit.a_aux_density;
  buf.b_input_density = circuit.b_input_density;
  buf.b_aux_density = circuit.b_aux_density;
}

}  // namespace proofline::groth16::snarkjs
