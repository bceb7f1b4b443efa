// The prover backend seam's shared pieces and the CPU backend (include/proofline/groth16/backend.hpp).
#include <algorithm>
#include <bit>
#include <chrono>
#include <optional>
#include <string>

#include <tbb/task_arena.h>

#include "proofline/groth16/backend.hpp"
#include "proofline/groth16/snarkjs/prover.hpp"
#include "proofline/poly/quotient.hpp"
#include "proofline/r1cs/compiled_circuit.hpp"
#include "proofline/util/fault.hpp"

namespace proofline::groth16 {

StageTimings& StageTimings::operator+=(const StageTimings& o) {
  evaluate += o.evaluate;
  ntt += o.ntt;
  msm_h += o.msm_h;
  msm_l += o.msm_l;
  msm_a += o.msm_a;
  msm_b_g1 += o.msm_b_g1;
  msm_b_g2 += o.msm_b_g2;
  assemble += o.assemble;
  h2d += o.h2d;
  h2d_bytes += o.h2d_bytes;
  srs_upload += o.srs_upload;
  srs_upload_bytes += o.srs_upload_bytes;
  host_evaluations += o.host_evaluations;
  kernel += o.kernel;
  total += o.total;
  return *this;
}

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

[[noreturn]] void shape_error(std::size_t index, const std::string& what, std::size_t got, std::size_t expected) {
  throw ProoflineError(Error::BadLength, "partition " + std::to_string(index) + " does not fit the parameters: " +
                                             what + ": got " + std::to_string(got) + ", expected " +
                                             std::to_string(expected));
}

std::size_t next_pow2(std::size_t n) {
  std::size_t m = 1;
  while (m < n) m <<= 1;
  return m;
}

}  // namespace

void check_prove_cancel(const std::atomic<bool>* cancel, std::size_t k, const char* stage) {
  if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) [[unlikely]] {
    throw ProoflineError(Error::Cancelled, "prove cancelled: partition " + std::to_string(k) + ", before " + stage);
  }
  if (fault::fire("prove")) [[unlikely]] {
    throw fault::Injected("injected fault at prove (partition " + std::to_string(k) + ", before " + stage + ")");
  }
}

void check_partition_shape(const Parameters& p, const r1cs::ProvingBuffers& w, std::size_t index) {
  const std::size_t n_in = p.vk.ic.size();
  const std::size_t n_aux = p.l_len();
  if (w.input_assignment.size() != n_in) shape_error(index, "public inputs incl. ONE (vk.ic)", w.input_assignment.size(), n_in);
  if (!w.packed_aux.empty() && !w.aux_assignment.empty())
    shape_error(index, "plain aux values beside a packed aux assignment (one of the two is held)",
                w.aux_assignment.size(), 0);
  if (w.aux_len() != n_aux) shape_error(index, "aux variables (l query)", w.aux_len(), n_aux);
  if (w.b_input_density.size() != n_in) shape_error(index, "b_input_density bits", w.b_input_density.size(), n_in);
  if (w.a_aux_density.size() != n_aux) shape_error(index, "a_aux_density bits", w.a_aux_density.size(), n_aux);
  if (w.b_aux_density.size() != n_aux) shape_error(index, "b_aux_density bits", w.b_aux_density.size(), n_aux);
  const std::size_t rows = w.rows();
  if (w.compiled) {
    // the compiled form: a, b, c come from the compiled circuit and the assignments
    const r1cs::CompiledShape& s = w.compiled->shape();
    if (!w.a.empty() || !w.b.empty() || !w.c.empty())
      shape_error(index, "rows of a, b, c beside a compiled circuit (its form has them empty)",
                  std::max({w.a.size(), w.b.size(), w.c.size()}), 0);
    if (s.inputs != n_in) shape_error(index, "compiled circuit's inputs incl. ONE (vk.ic)", s.inputs, n_in);
    if (s.aux != n_aux) shape_error(index, "compiled circuit's aux variables (l query)", s.aux, n_aux);
  } else {
    if (w.b.size() != rows) shape_error(index, "rows of b", w.b.size(), rows);
    if (w.c.size() != rows) shape_error(index, "rows of c", w.c.size(), rows);
  }
  const std::size_t m = p.domain_size();
  if (next_pow2(rows) != m) {
    shape_error(index, "domain size (next power of two >= " + std::to_string(rows) + " constraint rows)",
                next_pow2(rows), m);
  }
  const std::size_t a_len = n_in + w.a_aux_density.popcount();
  if (p.a_len() != a_len) shape_error(index, "a query length (inputs + aux with A-density)", a_len, p.a_len());
  const std::size_t b_len = w.b_input_density.popcount() + w.b_aux_density.popcount();
  if (p.b_g1_len() != b_len) shape_error(index, "b_g1 query length (variables with B-density)", b_len, p.b_g1_len());
  if (p.b_g2_len() != b_len) shape_error(index, "b_g2 query length (variables with B-density)", b_len, p.b_g2_len());
}

Proof assemble_proof(const VerifyingKey& vk, const MsmResults& m, const Randomizers& rs) {
  if (vk.delta_g1.infinity || vk.delta_g2.infinity) {
    throw ProoflineError(Error::UnexpectedInfinity,
                         "parameters have delta at infinity (vk.delta_g1 or vk.delta_g2); cannot prove with them");
  }
  const Fr& r = rs.r;
  const Fr& s = rs.s;
  const ec::G1Projective delta1 = vk.delta_g1.to_projective();
  // A = α + A' + r·δ1
  ec::G1Projective a = m.a + vk.alpha_g1;
  a += delta1.mul(r);
  // B = β2 + B2' + s·δ2
  ec::G2Projective b = m.b_g2 + vk.beta_g2;
  b += vk.delta_g2.mul(s);
  // C = H + L + s·A' + r·B1' + (r·s)·δ1 + s·α + r·β1
  ec::G1Projective c = m.h + m.l;
  c += m.a.mul(s);
  c += m.b_g1.mul(r);
  c += delta1.mul(r * s);
  c += vk.alpha_g1.mul(s);
  c += vk.beta_g1.mul(r);
  return Proof{a.to_affine(), b.to_affine(), c.to_affine()};
}

ProverResult CpuBackend::prove(const Parameters& params, std::span<r1cs::ProvingBuffers> partitions,
                               std::span<const Randomizers> randomizers, const std::atomic<bool>* cancel) {
  const auto t_call = Clock::now();
  if (randomizers.size() != partitions.size()) {
    throw ProoflineError(Error::BadLength, "randomizers for " + std::to_string(partitions.size()) +
                                               " partitions: got " + std::to_string(randomizers.size()) +
                                               ", expected " + std::to_string(partitions.size()));
  }
  for (std::size_t k = 0; k < partitions.size(); ++k) check_partition_shape(params, partitions[k], k);
  if (params.vk.delta_g1.infinity || params.vk.delta_g2.infinity) {
    throw ProoflineError(Error::UnexpectedInfinity,
                         "parameters have delta at infinity (vk.delta_g1 or vk.delta_g2); cannot prove with them");
  }
  if (!params.has_host_queries()) {
    throw ProoflineError(Error::BadArgument, "CPU backend: these parameters hold no host queries (loaded straight to "
                                             "the GPU from '" + params.source->path() +
                                             "'); the CPU backend needs them read whole (Parameters::read_file)");
  }

  ProverResult result;
  result.proofs.resize(partitions.size());
  auto body = [&] {
    msm::MsmConfig mc = cfg_.msm;
    mc.threads = 0;  // the arena we run in
    mc.cancel = cancel;  // each MSM polls it between its windows / chunks
    const std::size_t m = params.domain_size();
    const bool odd_coset = params.h_form == HForm::OddCoset;
    // Bellperson: the m − 1 coefficients of (a·b − c)/Z; OddCoset: a·b − c on snarkjs' odd coset, m scalars.
    std::optional<poly::EvaluationDomain> domain;
    std::optional<snarkjs::OddCosetH> odd;
    if (odd_coset) {
      odd.emplace(static_cast<unsigned>(std::countr_zero(m)));
    } else {
      domain.emplace(m);
    }
    for (std::size_t k = 0; k < partitions.size(); ++k) {
      r1cs::ProvingBuffers& w = partitions[k];
      StageTimings t;
      MsmResults r;

      auto t0 = Clock::now();
      if (!w.packed_aux.empty()) {  // the packed aux assignment: its plain values (counted as evaluation)
        w.aux_assignment.resize(w.packed_aux.size());  // every element written by expand
        w.packed_aux.expand(w.aux_assignment);
        w.packed_aux.clear();
        t.evaluate = ms_since(t0);
      }
      if (w.compiled) {  // the compiled form: a, b, c from the compiled circuit first
        check_prove_cancel(cancel, k, "the constraint evaluation");
        r1cs::evaluate_in_place(w);
        t.evaluate = ms_since(t0);
        ++t.host_evaluations;
      }

      check_prove_cancel(cancel, k, "the H computation");
      t0 = Clock::now();
      w.a.resize(m, Fr::zero());
      w.b.resize(m, Fr::zero());
      w.c.resize(m, Fr::zero());
      // The H scalars: in w.a (Bellperson, m − 1 of them) or gathered into w.b (OddCoset, m).
      std::span<const Fr> h_scalars;
      if (odd_coset) {
        odd->compute_into(w.b, w.a, w.b, w.c);
        h_scalars = std::span<const Fr>(w.b.data(), m);
      } else {
        poly::compute_h(w.a, w.b, w.c, *domain);
        h_scalars = std::span<const Fr>(w.a.data(), m - 1);
      }
      t.ntt = ms_since(t0);

      check_prove_cancel(cancel, k, "the H MSM");
      t0 = Clock::now();
      r.h = msm::msm_g1(params.h, h_scalars, mc);
      t.msm_h = ms_since(t0);

      check_prove_cancel(cancel, k, "the L MSM");
      t0 = Clock::now();
      r.l = msm::msm_g1(params.l, std::span<const Fr>(w.aux_assignment), mc);
      t.msm_l = ms_since(t0);

      check_prove_cancel(cancel, k, "the A MSM");
      t0 = Clock::now();
      r.a = msm::msm_query_a<ec::G1Config>(params.a, std::span<const Fr>(w.input_assignment),
                                          std::span<const Fr>(w.aux_assignment), w.a_aux_density, mc);
      t.msm_a = ms_since(t0);

      check_prove_cancel(cancel, k, "the B (G1) MSM");
      t0 = Clock::now();
      r.b_g1 = msm::msm_query_b<ec::G1Config>(params.b_g1, std::span<const Fr>(w.input_assignment),
                                             w.b_input_density, std::span<const Fr>(w.aux_assignment),
                                             w.b_aux_density, mc);
      t.msm_b_g1 = ms_since(t0);

      check_prove_cancel(cancel, k, "the B (G2) MSM");
      t0 = Clock::now();
      r.b_g2 = msm::msm_query_b<ec::G2Config>(params.b_g2, std::span<const Fr>(w.input_assignment),
                                             w.b_input_density, std::span<const Fr>(w.aux_assignment),
                                             w.b_aux_density, mc);
      t.msm_b_g2 = ms_since(t0);

      check_prove_cancel(cancel, k, "the proof assembly");
      t0 = Clock::now();
      result.proofs[k] = assemble_proof(params.vk, r, randomizers[k]);
      t.assemble = ms_since(t0);

      t.kernel = t.evaluate + t.ntt + t.msm_h + t.msm_l + t.msm_a + t.msm_b_g1 + t.msm_b_g2 + t.assemble;
      t.total = 0;
      result.timings += t;
    }
  };
  if (cfg_.threads > 0) {
    tbb::task_arena arena(cfg_.threads);
    arena.execute(body);
  } else {
    body();
  }
  result.timings.total = ms_since(t_call);
  return result;
}

}  // namespace proofline::groth16
