// proofline/groth16/snarkjs/files.hpp — circom/snarkjs binary files for BLS12-381: `.r1cs`, `.wtns`,
// `.zkey` (Groth16), readers and writers.
//
// Owns: `R1cs`, `Witness`, `Zkey`, `ZkeyReadOptions`, the BLS12-381 identification of a file's
// primes, and `check_witness` (r1cs satisfaction, with the first failing constraint).
//
// Formats (../shared/reference/oracles.md §5.1–5.3; snarkjs 0.7.6, circom 2.2.3), all in the iden3
// container of binfile.hpp, integers little-endian:
//   .r1cs v1  sec 1 header: u32 n8 (32), prime[n8] (= r), u32 nWires, nPubOut, nPubIn, nPrvIn,
//                 u64 nLabels, u32 nConstraints
//             sec 2 constraints: per constraint A, B, C; each = u32 nTerms, nTerms × {u32 wire, coef[n8]}
//                 coef CANONICAL little-endian (< r; −1 stored as r − 1)
//             sec 3 wire → label: nWires × u64 (optional here)
//             sec 4/5 custom gates (PLONK only) → refused (WrongProtocol)
//             wires: 0 = ONE, then outputs, public inputs, private inputs, internal signals.
//             Checked: 1 + nPubOut + nPubIn <= nWires, every constraint's wire < nWires (the error
//             names constraint, A/B/C, term and wire), section 3 exactly nWires entries. nPrvIn is
//             NOT bounded by nWires: circom --O2 declares the private inputs of the source even when
//             it removed unused ones (snarkjs accepts such files), so nWires may be smaller than
//             1 + nPubOut + nPubIn + nPrvIn.
//   .wtns v2  sec 1: u32 n8 (32), prime[n8] (= r), u32 nWitness;  sec 2: nWitness × value[n8], CANONICAL LE.
//   .zkey v1  sec 1: u32 protocol (1 = Groth16; 2 = PLONK, 10 = FFLONK are refused)
//             sec 2: u32 n8q (48), q[48], u32 n8r (32), r[32], u32 nVars, u32 nPublic, u32 domainSize,
//                    α1, β1 (G1), β2, γ2 (G2), δ1 (G1), δ2 (G2) — in this order
//             sec 3 IC: (nPublic + 1) G1;  sec 4 coefficients: u32 nCoeffs, nCoeffs × {u32 matrix (0 = A,
//                    1 = B), u32 constraint, u32 signal, value[32]} with value = coef·R² mod r canonical,
//                    R = 2^256 (only A and B are stored);
//             sec 5 A, sec 6 B1: nVars G1; sec 7 B2: nVars G2; sec 8 C: (nVars − nPublic − 1) G1;
//             sec 9 H: domainSize G1 (odd-point Lagrange bases of the 2n domain over δ);
//             sec 10 contributions (kept as raw bytes, rewritten unchanged).
//             Points: affine, each Fq coordinate in MONTGOMERY form (x·2^384 mod q) as 48 bytes little-endian,
//             G1 = x ‖ y (96 bytes), G2 = x.c0 ‖ x.c1 ‖ y.c0 ‖ y.c1 (192 bytes); all-zero bytes = infinity.
//             proofline's Fp holds exactly that Montgomery form (R = 2^384), so coordinates load as raw limbs
//             after the < q check.
//
// In memory: field elements are proofline Fr / Fp (Montgomery form, as everywhere); witness values are
// kept canonical (the MSM layer takes canonical scalars directly) with `Witness::fr(i)` converting one.
// Zkey coefficients are held as the coefficient itself (Fr(coef)); the R² scaling is undone on read and
// redone on write.
//
// Checks on read (each its own FormatError; see binfile.hpp): magic, version, every section inside the
// file, required sections present, section sizes exactly as the header implies, the primes equal to
// BLS12-381's (a bn128 file is named as such), scalars < r, coordinates < q, points on the curve;
// the verifying key (α1, β1, β2, γ2, δ1, δ2, IC) then goes through validate_verifying_key
// (groth16/params.hpp: no identity, prime-order subgroup; a plain ProoflineError naming
// "zkey '<file>'" and the field, e.g. gamma_2 or IC[3]); subgroup checks of the big point sections only with
// `ZkeyReadOptions::check = Subgroup` (default OnCurveOnly, as Filecoin loads its parameter cache —
// every proof is verified before it is written, so a bad point cannot leak out as a bad proof).
// Coefficient entries: matrix ∈ {0, 1}, constraint < domainSize, signal < nVars.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"
#include "proofline/ff/fr.hpp"
#include "proofline/groth16/params.hpp"
#include "proofline/groth16/snarkjs/binfile.hpp"
#include "proofline/msm/msm.hpp"

namespace proofline::groth16::snarkjs {

using ec::G1Affine;
using ec::G2Affine;
using ff::Fr;
using msm::ScalarLimbs;

/// Name of a known 32-byte prime ("bls12381", "bn128", …) or its decimal value.
std::string describe_prime(std::span<const std::uint8_t> prime_le);

// ---- .r1cs --------------------------------------------------------------------------------------

struct R1csTerm {
  std::uint32_t wire;
  Fr coeff;
  friend bool operator==(const R1csTerm&, const R1csTerm&) = default;
};

struct R1cs {
  std::uint32_t n_wires = 0;
  std::uint32_t n_pub_out = 0;
  std::uint32_t n_pub_in = 0;
  std::uint32_t n_prv_in = 0;
  std::uint64_t n_labels = 0;
  std::uint32_t n_constraints = 0;
  /// Linear combination k of constraint c (k = 0 A, 1 B, 2 C) is terms[lc_start[3c + k] .. lc_start[3c + k + 1]).
  std::vector<std::uint64_t> lc_start;
  std::vector<R1csTerm> terms;
  /// Section 3 (empty when the file has none).
  std::vector<std::uint64_t> wire_to_label;

  /// snarkjs' nPublic: outputs + public inputs.
  std::uint32_t n_public() const { return n_pub_out + n_pub_in; }
  std::span<const R1csTerm> lc(std::size_t constraint, int k) const {
    return {terms.data() + lc_start[3 * constraint + k], terms.data() + lc_start[3 * constraint + k + 1]};
  }
  /// Appends a constraint ⟨a,w⟩·⟨b,w⟩ = ⟨c,w⟩ (for writers and tests); updates n_constraints.
  void add_constraint(std::span<const R1csTerm> a, std::span<const R1csTerm> b, std::span<const R1csTerm> c);

  static R1cs from_bytes(std::span<const std::uint8_t> bytes, std::string_view source = "<memory>");
  static R1cs read_file(const std::string& path);
  /// Sections written in the order 1, 2, 3 (3 only when wire_to_label is non-empty).
  std::vector<std::uint8_t> to_bytes() const;
  void write_file(const std::string& path) const;
};

// ---- .wtns --------------------------------------------------------------------------------------

struct Witness {
  /// w[0] = 1, then the wires in r1cs order; canonical little-endian limbs, every value < r.
  std::vector<ScalarLimbs> values;

  std::size_t size() const { return values.size(); }
  Fr fr(std::size_t i) const { return Fr::from_canonical_unchecked(values[i]); }
  /// w[1 .. n_public] as Fr (what public.json holds).
  std::vector<Fr> public_inputs(std::size_t n_public) const;
  static Witness from_fr(std::span<const Fr> w);

  static Witness from_bytes(std::span<const std::uint8_t> bytes, std::string_view source = "<memory>");
  static Witness read_file(const std::string& path);
  std::vector<std::uint8_t> to_bytes() const;
  void write_file(const std::string& path) const;
};

// ---- .zkey (Groth16) ----------------------------------------------------------------------------

struct ZkeyCoeff {
  std::uint32_t matrix;      ///< 0 = A, 1 = B
  std::uint32_t constraint;  ///< row, < domain_size (rows >= nConstraints are the public-input padding rows)
  std::uint32_t signal;      ///< wire, < n_vars
  Fr value;                  ///< the coefficient (Montgomery form as every Fr)
  friend bool operator==(const ZkeyCoeff&, const ZkeyCoeff&) = default;
};

struct ZkeyReadOptions {
  /// Check of the points of sections 5–9 (header and IC points are always subgroup-checked).
  ec::Check check = ec::Check::OnCurveOnly;
};

struct Zkey {
  std::uint32_t n_vars = 0;
  std::uint32_t n_public = 0;
  std::uint32_t domain_size = 0;
  G1Affine alpha1, beta1, delta1;
  G2Affine beta2, gamma2, delta2;
  std::vector<G1Affine> ic;  ///< n_public + 1
  std::vector<ZkeyCoeff> coeffs;
  std::vector<G1Affine> a, b1;  ///< n_vars each
  std::vector<G2Affine> b2;     ///< n_vars
  std::vector<G1Affine> c;      ///< n_vars − n_public − 1 (private variables)
  std::vector<G1Affine> h;      ///< domain_size
  /// Section 10 as read (circuit hash, contributions); empty if absent. Rewritten unchanged.
  std::vector<std::uint8_t> contributions;

  unsigned log_domain_size() const;
  /// The verifying key (β·G1 and δ·G1 included, as proofline's VerifyingKey carries them).
  VerifyingKey verifying_key() const;

  static Zkey from_bytes(std::span<const std::uint8_t> bytes, const ZkeyReadOptions& opts = {},
                         std::string_view source = "<memory>");
  static Zkey read_file(const std::string& path, const ZkeyReadOptions& opts = {});
  /// Sections 1 and 2 only (protocol, curve, nVars, nPublic, domainSize, the six fixed points, on the
  /// curve), memory-mapped: the rest of the file is not read, so a multi-GB zkey costs what its
  /// header costs. ic, coeffs and the point sections stay empty and the verifying key is NOT
  /// validated: for checking files against each other (check_witness_matches, check_r1cs_matches)
  /// before a prover loads the whole zkey. Errors as read_file's for those sections.
  static Zkey read_header_file(const std::string& path);
  /// snarkjs' section order 1, 2, 4, 3, 9, 8, 5, 6, 7, then 10 if `contributions` is non-empty
  /// (a zkey read from snarkjs is rewritten byte for byte).
  std::vector<std::uint8_t> to_bytes() const;
  void write_file(const std::string& path) const;
};

/// A .zkey whose point sections stay in the file, read by a loader as a groth16::QuerySource
/// (Encoding::Zkey): the queries of the Parameters snarkjs::zkey_shell makes (circuit.hpp), which the
/// GPU backend loads straight from the file to the device (gpu/srs_load.hpp) with no host copy.
///
/// The constructor reads and checks everything Zkey::read_file checks but the points of sections
/// 5–9: magic, version, sections, protocol, curve, counts, the six fixed points, IC and the verifying
/// key, every coefficient, and the exact size of sections 5–9 — with read_file's messages. Those
/// points are then checked by whoever decodes them (the GPU loader: coordinates < q, on the curve,
/// in the subgroup with Check::Subgroup), and a bad one is named by throw_bad_point exactly as
/// read_file names it ("A[7]", its byte offset). Points of signals without an A (or B) coefficient
/// are never read: the A and B queries hold only the signals with one, as zkey_parameters' do.
///
/// Queries (Parameters' order; counts as zkey_parameters gives them):
///   H   section 9, every point (domainSize);      L   section 8, every point (nVars − nPublic − 1);
///   A   section 5: ONE and the public signals, then the private signals with an A coefficient;
///   BG1, BG2  sections 6, 7: the signals with a B coefficient, inputs first (signal order).
/// The file is mapped only while the constructor reads it; points are read with preads, so the
/// process holds the coefficients and the selections, not the points. Thread-safe after construction.
class ZkeyFile final : public QuerySource {
 public:
  /// Errors: those of Zkey::read_file for the parts read (FormatError naming the file, section, byte
  /// offset), std::system_error naming the path on open/map/read failures.
  explicit ZkeyFile(const std::string& path, const ZkeyReadOptions& opts = {});
  ~ZkeyFile() override;
  ZkeyFile(const ZkeyFile&) = delete;
  ZkeyFile& operator=(const ZkeyFile&) = delete;

  /// The zkey's header, IC and coefficients (a, b1, b2, c, h empty; contributions not read).
  const Zkey& head() const noexcept { return head_; }
  /// Moves the coefficients out of head() (zkey_shell hands them to the ZkeyCircuit).
  std::vector<ZkeyCoeff> take_coeffs() noexcept { return std::move(head_.coeffs); }
  /// Whether signal s has an A (matrix 0) or B (matrix 1) coefficient.
  bool in_a(std::uint32_t s) const noexcept { return in_[s] & 1; }
  bool in_b(std::uint32_t s) const noexcept { return (in_[s] & 2) != 0; }

  const std::string& path() const noexcept override { return path_; }
  Encoding encoding() const noexcept override { return Encoding::Zkey; }
  ec::Check check() const noexcept override { return check_; }
  std::uint64_t count(ParamsSection s) const noexcept override;
  void read_points(ParamsSection s, std::uint64_t first, std::uint64_t n, std::span<std::uint8_t> dst) const override;
  [[noreturn]] void throw_bad_point(ParamsSection s, std::uint64_t index) const override;

 private:
  /// Zkey section of query s, and the signal (= the point's index in that section) of its point i.
  std::uint32_t section_id(ParamsSection s) const noexcept;
  std::uint64_t point_index(ParamsSection s, std::uint64_t i) const noexcept;
  void pread_exact(std::uint8_t* dst, std::size_t bytes, std::uint64_t offset) const;

  std::string path_;
  ec::Check check_;
  int fd_ = -1;
  Zkey head_;
  std::vector<std::uint8_t> in_;              ///< per signal: bit 0 an A coefficient, bit 1 a B coefficient
  std::vector<std::uint32_t> a_signals_;      ///< the A query's signals, increasing
  std::vector<std::uint32_t> b_signals_;      ///< the B queries' signals, increasing
  std::uint64_t offset_[10] = {};             ///< data offset of sections 5–9
};

/// Sizes of the files that belong together: throws FormatError(Mismatch) naming both files unless
/// witness.size() == zkey.n_vars.
void check_witness_matches(const Zkey& zkey, const Witness& w, std::string_view zkey_name = "zkey",
                           std::string_view wtns_name = "witness");
/// The same check against a zkey's nVars alone (FormatError(Mismatch) naming both files; also when
/// w[0] ≠ 1).
void check_witness_matches(std::uint32_t n_vars, const Witness& w, std::string_view zkey_name = "zkey",
                           std::string_view wtns_name = "witness");
/// r1cs ↔ zkey: n_wires == n_vars, n_public equal, n_constraints + n_public + 1 <= domain_size.
void check_r1cs_matches(const Zkey& zkey, const R1cs& r1cs, std::string_view zkey_name = "zkey",
                        std::string_view r1cs_name = "r1cs");

/// Index of the first constraint with ⟨A,w⟩·⟨B,w⟩ ≠ ⟨C,w⟩, or nullopt when all hold.
/// Requires w.size() == r1cs.n_wires (FormatError Mismatch otherwise) and w[0] = 1.
std::optional<std::size_t> first_unsatisfied(const R1cs& r1cs, const Witness& w);
/// Throws FormatError(Unsatisfied) naming the first failing constraint and its three values
/// (or Mismatch for a wrong length, or w[0] ≠ 1).
void check_witness(const R1cs& r1cs, const Witness& w, std::string_view wtns_name = "witness");

}  // namespace proofline::groth16::snarkjs
