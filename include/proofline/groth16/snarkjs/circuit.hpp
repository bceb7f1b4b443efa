// proofline/groth16/snarkjs/circuit.hpp — a snarkjs zkey as the prover backends take it: the
// zkey → Parameters conversion (H kept in snarkjs' odd-coset form) and the synthesis of a witness
// into r1cs::ProvingBuffers. The engine's "snarkjs" kind is built on these (src/engine/kinds.cpp).
//
// Owns: `ZkeyCircuit` (what synthesis needs of a zkey besides its points), `ZkeyParameters`,
// `zkey_parameters` (the conversion), `zkey_shell` (the same with the points left in the file),
// `synthesize` (witness → ProvingBuffers) and `compiled_circuit` / `synthesize_compiled` (the same in
// the compiled form, issue 31).
//
// Conversion (n = domainSize, J = snarkjs_root_exponent(), prover.hpp; no point is transformed):
//   vk            the zkey's α1, β1, β2, γ2, δ1, δ2, IC (Zkey::verifying_key()).
//   h             the zkey's H section as it is, n points, h_form = HForm::OddCoset (params.hpp): the
//                 backends take the scalars of OddCosetH (prover.hpp), n of them in snarkjs' order.
//   l             the zkey's C section ((β·u_j + α·v_j + w_j)/δ for the private signals), nVars − nPublic − 1.
//   a             A section: every input (ONE, then the nPublic public signals), then the private
//                 signals that have an A coefficient (a_aux_density).
//   b_g1, b_g2    B1, B2 sections: the inputs with a B coefficient (b_input_density), then the private
//                 signals with one (b_aux_density).
//   coefficients  the zkey's A and B entries, row c moved to J·c mod n: snarkjs' evaluation point
//                 ω5_n^c is the point ω7_n^(J·c mod n) of poly/'s domain, so the rows lie where
//                 poly::EvaluationDomain expects them (the order OddCosetH::compute takes).
// The proof is then the one snarkjs makes: Σ h_j·H_j = h(τ)·Z(τ)/δ either way, and the assembly is
// the reference formula of backend.hpp (= snarkjs' C = Σ w·C + Σ h·H + s·A + r·B1 − r·s·δ1).
//
// Synthesis (one partition, n rows): a_c = Σ_{A entries (c, s)} coef·w_s, b_c likewise, c_c = a_c·b_c
// (the zkey has no C matrix: circom's constraints are encoded so that A·B = C row by row), each placed
// at row J·c mod n; input_assignment = w[0 .. nPublic] (ONE first), aux_assignment = w[nPublic + 1 ..];
// the densities as above. All values Fr (Montgomery form).
//
// Errors: zkey_parameters throws ProoflineError(BadLength) for a domain below 2 (Zkey's reader
// already refuses it); synthesize throws FormatError(Mismatch) (files.hpp check_witness_matches)
// for a witness whose length is not nVars or whose value 0 is not 1.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "proofline/groth16/params.hpp"
#include "proofline/groth16/snarkjs/files.hpp"
#include "proofline/r1cs/compiled_circuit.hpp"
#include "proofline/r1cs/density.hpp"
#include "proofline/r1cs/proving_buffers.hpp"

namespace proofline::groth16::snarkjs {

/// What synthesizing a witness for a zkey needs besides the points.
struct ZkeyCircuit {
  std::uint32_t n_vars = 0;       ///< signals incl. ONE (= witness length)
  std::uint32_t n_public = 0;     ///< public signals (outputs + public inputs), ONE excluded
  std::uint32_t domain_size = 0;  ///< n, a power of two >= 2
  /// The A (matrix 0) and B (matrix 1) entries, `constraint` already moved to J·c mod n.
  std::vector<ZkeyCoeff> coeffs;
  r1cs::DensityTracker a_aux_density;    ///< private signal j has an A coefficient (nVars − nPublic − 1 bits)
  r1cs::DensityTracker b_input_density;  ///< input i (ONE first) has a B coefficient (nPublic + 1 bits)
  r1cs::DensityTracker b_aux_density;    ///< private signal j has a B coefficient

  /// Host bytes held (coefficients and bitmaps), for memory accounting.
  std::uint64_t bytes() const noexcept;
};

struct ZkeyParameters {
  Parameters params;  ///< h_form == HForm::OddCoset; h.size() == domain_size
  ZkeyCircuit circuit;
};

/// Converts a zkey (taken by value: move it in, its point vectors are moved, not copied). Cost:
/// linear in the coefficient count; no curve arithmetic.
ZkeyParameters zkey_parameters(Zkey zkey);

/// The zkey at `path` as zkey_parameters(Zkey::read_file(path, opts)) gives it, but with its queries
/// left in the file: params.source is a ZkeyFile (files.hpp; h, l, a, b_g1, b_g2 empty, their lengths
/// from the file), for a GPU backend that loads them straight to the device (groth16::HostQueries
/// ::LeaveInFile, the engine's choice when every backend is a GPU backend). The host keeps the
/// verifying key, the coefficients and the selections. Errors: ZkeyFile's (the points of sections
/// 5–9 are checked when a loader decodes them), and zkey_parameters'.
ZkeyParameters zkey_shell(const std::string& path, const ZkeyReadOptions& opts = {});

/// The circuit in the compiled form (r1cs/compiled_circuit.hpp) with CompiledShape::c_is_ab: A and B
/// as sparse rows over z = [inputs | aux] (column = signal), domain_size rows at J·c mod n as in
/// `coeffs` (the padding rows empty), the entries of one (row, signal) summed and zero sums dropped,
/// the densities the zkey's. Evaluating it gives synthesize()'s a, b, c value for value, in parallel
/// over the rows. nullopt when the coefficients take more than CompiledCircuit::kMaxCoefficients
/// distinct values (synthesize() then). Cost: a sort of the coefficients.
std::optional<r1cs::CompiledCircuit> compiled_circuit(const ZkeyCircuit& circuit);

/// Partition buffers for `witness` in the compiled form: the assignments and densities as
/// synthesize() makes them, a, b, c empty, `compiled` = cc (compiled_circuit(circuit)). Errors as
/// synthesize().
void synthesize_compiled(const ZkeyCircuit& circuit, const Witness& witness,
                         std::shared_ptr<const r1cs::CompiledCircuit> cc, r1cs::ProvingBuffers& buf,
                         std::string_view zkey_name = "zkey", std::string_view wtns_name = "witness");

/// Partition buffers for `witness` (see the header comment). `buf`'s contents are replaced (its
/// capacity is reused). `zkey_name` / `wtns_name` name the files in a Mismatch error.
void synthesize(const ZkeyCircuit& circuit, const Witness& witness, r1cs::ProvingBuffers& buf,
                std::string_view zkey_name = "zkey", std::string_view wtns_name = "witness");

}  // namespace proofline::groth16::snarkjs
