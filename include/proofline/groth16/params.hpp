// proofline/groth16/params.hpp — Groth16 verifying keys and parameters (SRS) in bellperson's
// exact file layout.
//
// Owns: `VerifyingKey` (the `.vk` file, and the prefix of `.params`), `Parameters` (the `.params`
// file: vk + h, l, a, b_g1, b_g2), `ReadOptions`, their readers and writers, the streamed form
// (`ParamsSection`, `ParamsSink`: section by section; `ParamsWriter` encodes as it goes, to a file or
// bytes; `ParamsCollector` builds a Parameters), the chunked reader `ParamsFile` (layout first, then
// the points in chunks for the CPU or a GPU decoder; `ParamsFile::shell`: parameters whose queries
// stay in the file), `load_parameters` (the engine's choice between the two), and
// `validate_verifying_key` (the one check every verifying key passes, whatever its source).
//
// Layout (../shared/reference/formats-and-circuits.md §1.2–1.4; no header, no padding, no trailer):
//   .vk      alpha_g1 G1 ‖ beta_g1 G1 ‖ beta_g2 G2 ‖ gamma_g2 G2 ‖ delta_g1 G1 ‖ delta_g2 G2 ‖
//            u32 n_ic ‖ n_ic × G1                                  = 868 + 96·n_ic bytes
//   .params  .vk ‖ u32 n_h ‖ n_h × G1 ‖ u32 n_l ‖ n_l × G1 ‖ u32 n_a ‖ n_a × G1 ‖
//            u32 n_b_g1 ‖ n_b_g1 × G1 ‖ u32 n_b_g2 ‖ n_b_g2 × G2
//            = 868 + 96·(n_ic + n_h + n_l + n_a + n_b_g1) + 20 + 192·n_b_g2 bytes
// Counts are u32 BIG-endian. Points are ZCash UNCOMPRESSED encodings: G1 = x ‖ y (96 bytes), G2 =
// x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0 (192 bytes), coordinates canonical big-endian, flags in byte 0 (see
// ec/curve.hpp). In memory every point is an affine point in Montgomery form.
//
// Meaning (all "·G" are the fixed generators; u_j, v_j, w_j the QAP polynomials of variable j;
// m the domain size; Z(X) = X^m − 1):
//   ic[j]   = (β·u_j(τ) + α·v_j(τ) + w_j(τ))/γ · G1   for each input j (ONE first)
//   h[i]    = τ^i·Z(τ)/δ · G1                          i = 0 .. m−2
//   l[j]    = (β·u_j(τ) + α·v_j(τ) + w_j(τ))/δ · G1   for each aux j
//   a       = u_j(τ)·G1 for every input, then for each aux with A-density (u_j ≠ 0)
//   b_g1/g2 = v_j(τ)·G1 / ·G2 for inputs with B-density, then aux with B-density
//
// Reading (bellperson's Parameters::read): the vk's points are decoded (on the curve) and then go
// through `validate_verifying_key` (no identity, prime-order subgroup), so a key read from a .vk, a
// .params, a snarkjs vk.json or a .zkey is held to the same rules; h, l, a, b_g1, b_g2 are checked or
// merely on-curve per `ReadOptions::check` (Filecoin loads cached parameters unchecked). No point of
// h, l, a, b_g1, b_g2 may be the identity (bellperson rejects it); nor may any vk point (beyond
// bellperson, which leaves the six fixed vk points untested: with γ = δ = identity the proof
// (α₁, β₂, any C) verifies for every public input). Every count is validated against the bytes that remain
// BEFORE anything is allocated. Beyond bellperson, proofline also rejects trailing bytes after the
// last section and parameters whose h is not 2^k − 1 long or whose a is shorter than ic.
// Files are memory-mapped; the points of each section are decoded in parallel (oneTBB).
//
// Errors: a malformed file raises ProoflineError whose message names the file (or "<memory>"),
// the section (vk.alpha_g1 … vk.delta_g2, ic, h, l, a, b_g1, b_g2), the element index and its byte
// offset, what was found and what was expected; codes: BadLength (truncated, trailing bytes,
// inconsistent counts), UnexpectedInfinity, and the point decoder's code (NotCanonical,
// NotOnCurve, NotInSubgroup, CompressionMismatch, …). A vk point at infinity or outside the
// subgroup is reported by `validate_verifying_key` (field names alpha_1 … IC[i], see there).
// Operating-system failures (open, mmap, write) raise std::system_error naming the path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"

namespace proofline::groth16 {

using ec::Check;
using ec::G1Affine;
using ec::G2Affine;
using ff::Fr;

/// Uncompressed point sizes used by .vk / .params.
inline constexpr std::size_t kG1Uncompressed = 96;
inline constexpr std::size_t kG2Uncompressed = 192;
/// The fixed part of a verifying key: 3 G1 + 3 G2 uncompressed points, plus the u32 ic count.
inline constexpr std::size_t kVkFixedBytes = 3 * kG1Uncompressed + 3 * kG2Uncompressed + 4;  // 868

struct ReadOptions {
  /// How the points of h, l, a, b_g1, b_g2 are checked (the vk is always Check::Subgroup).
  Check check = Check::Subgroup;
  /// 0: all cores of the calling thread's TBB arena; 1: serial; n: at most n threads.
  unsigned max_threads = 0;
};

struct VerifyingKey {
  G1Affine alpha_g1;
  G1Affine beta_g1;
  G2Affine beta_g2;
  G2Affine gamma_g2;
  G1Affine delta_g1;
  G2Affine delta_g2;
  /// One point per public input, ONE first (so ic.size() = number of public inputs + 1).
  std::vector<G1Affine> ic;

  /// 868 + 96·ic.size().
  std::size_t serialized_size() const noexcept { return kVkFixedBytes + kG1Uncompressed * ic.size(); }
  /// Appends the .vk encoding to `out`.
  void write(std::vector<std::uint8_t>& out) const;
  std::vector<std::uint8_t> to_bytes() const;
  /// Writes the .vk file (std::system_error on I/O failure).
  void write_file(const std::string& path) const;

  /// Decodes a whole .vk buffer (trailing bytes are an error). `source` names it in messages.
  static VerifyingKey from_bytes(std::span<const std::uint8_t> bytes, std::string_view source = "<memory>");
  /// Memory-maps and decodes a .vk file.
  static VerifyingKey read_file(const std::string& path);
  /// The verifying key at the head of a bellperson .params file (the same bytes as its .vk),
  /// memory-mapped: the queries after it are never touched, so a 44 GB file costs what its vk
  /// costs. Errors as read_file (the ic count checked against the file's size before use); a file
  /// that ends right after the key (a .vk file given as parameters) is ProoflineError(BadLength)
  /// "… it is a verifying-key (.vk) file, not a .params file …".
  static VerifyingKey read_params_file_head(const std::string& path);

  friend bool operator==(const VerifyingKey&, const VerifyingKey&) = default;
};

/// True when the file at `path` has exactly the size of a .vk file whose ic count is the u32
/// (big-endian) at byte kVkFixedBytes − 4: the verifying key alone, as `setup --vk` writes it. Reads
/// 4 bytes; no point is decoded. False for a .params file (its sections follow the key), a file too
/// short, or one that cannot be read.
bool is_verifying_key_file(const std::string& path);

/// Whether a verifying-key source carries β·G1 and δ·G1 (only provers use them).
enum class VkG1Extras {
  Present,  ///< bellperson .vk / .params, snarkjs .zkey: beta_1 and delta_1 are checked like the rest
  Absent,   ///< snarkjs verification_key.json has none: they stay at infinity and are not checked
};

/// The one validation every verifying key goes through, whatever its source (VerifyingKey and
/// Parameters readers, vk_from_snarkjs_json, snarkjs::Zkey::from_bytes, prepare_verifying_key).
///
/// Checks, in this order, field by field: alpha_1, beta_1 (if Present), beta_2, gamma_2, delta_1 (if
/// Present), delta_2, then IC[0], IC[1], … (names as in snarkjs' vk.json; bellperson's alpha_g1,
/// beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2, ic[i]):
///   - IC holds at least one point (ONE's): else ProoflineError(BadLength);
///   - the point is not the identity: else UnexpectedInfinity (γ₂ = δ₂ = identity makes the proof
///     (α₁, β₂, any C) verify for every public input; an identity IC[i] makes input i irrelevant);
///   - it is on its curve: else NotOnCurve (decoders already refuse such points; keys built in memory
///     are checked here);
///   - it is in the prime-order subgroup: else NotInSubgroup.
/// No rule beyond these (γ₂ = δ₂ is allowed, as everywhere else). snarkjs 0.7.6's verifier
/// (src/groth16_verify.js) checks NONE of the key's points: it only checks public inputs < r and that
/// pi_a, pi_b, pi_c are on their curves (ffjavascript isValid: identity allowed, no subgroup test),
/// then runs pairingEq. It still answers "Invalid proof" for γ₂ = δ₂ = infinity with the proof
/// (α₁, β₂, IC[1]) (tried on the toy key), because its pairing does not treat a G2 identity as the
/// factor 1, not because of a check; so refusing such keys outright loses nothing snarkjs accepts.
/// The message reads "<source>: <field> is …; expected a G1|G2 point that is not the identity, on
/// the curve, in the prime-order subgroup", e.g. "vk file 'x.vk': gamma_2 is the point at infinity; …".
/// `source` names the key's origin (file kind and path). Cost: one subgroup check per point (IC in
/// parallel), well under a millisecond per point.
void validate_verifying_key(const VerifyingKey& vk, std::string_view source,
                            VkG1Extras g1_extras = VkG1Extras::Present);

/// Which H query a Parameters holds, and so which scalars its H MSM takes (both backends honour it):
///   Bellperson  h[i] = τ^i·Z(τ)/δ for i < m − 1 (bellperson/.params; Z(X) = X^m − 1): the scalars are
///               the m − 1 coefficients of (A·B − C)/Z (poly::compute_h, coset g = 7).
///   OddCoset    h[j] = the zkey's H section, L^(2m)_{2j+1}(τ)/δ for j < m (snarkjs: Lagrange basis of
///               the 2m-th roots at the odd positions, ffjavascript's roots ω5): the scalars are
///               A·B − C evaluated at σ·ω5_m^j (σ = ω5_{2m}), in snarkjs' order j, computed from the
///               rows placed on the ω7 domain at J·c mod m (groth16/snarkjs/prover.hpp OddCosetH;
///               such parameters come from a zkey: groth16/snarkjs/circuit.hpp zkey_parameters).
/// Only Bellperson parameters have a .params encoding (write/to_bytes throw std::logic_error on
/// OddCoset); readers of .params always produce Bellperson.
enum class HForm : std::uint8_t { Bellperson, OddCoset };

class ParamsSink;
class ParamsFile;
class QuerySource;

/// Parameters whose queries are not held on the host ("queries off the host"): `source` is set and
/// h, l, a, b_g1, b_g2 are empty; the lengths come from the file (ParamsFile::shell()). Such an object
/// serves a GPU backend, which loads the queries from the file straight into device memory
/// (gpu/backend.hpp "Residency"); the CPU backend refuses it (ProoflineError BadArgument: it proves
/// from host queries, so an engine with a CPU backend reads the file whole: load_parameters under
/// HostQueries::Keep, i.e. Parameters::read_file). Every engine kind loads .params through load_parameters.
/// Every shape accessor (num_aux, domain_size, h_terms, the *_len below) answers from the file then.
struct Parameters {
  VerifyingKey vk;
  /// The H query: m − 1 points (Bellperson) or m points (OddCoset); see HForm.
  std::vector<G1Affine> h;
  std::vector<G1Affine> l;
  std::vector<G1Affine> a;
  std::vector<G1Affine> b_g1;
  std::vector<G2Affine> b_g2;
  HForm h_form = HForm::Bellperson;
  /// Set iff the queries live in a file and not in the vectors above (see above): a .params file
  /// (ParamsFile::shell) or a snarkjs .zkey (snarkjs::zkey_shell, groth16/snarkjs/circuit.hpp).
  std::shared_ptr<const QuerySource> source;

  /// True iff h, l, a, b_g1, b_g2 are held in the vectors (no `source`).
  bool has_host_queries() const noexcept { return source == nullptr; }
  /// Query lengths (the vectors' sizes, or the file's counts when the queries are off the host).
  std::size_t h_len() const noexcept;
  std::size_t l_len() const noexcept;
  std::size_t a_len() const noexcept;
  std::size_t b_g1_len() const noexcept;
  std::size_t b_g2_len() const noexcept;
  /// Bytes the five queries take in memory (host Affine points), wherever they are held.
  std::size_t query_bytes() const noexcept;

  /// Number of public inputs including ONE (= vk.ic.size()).
  std::size_t num_inputs() const noexcept { return vk.ic.size(); }
  /// Number of aux variables (= l_len()).
  std::size_t num_aux() const noexcept { return l_len(); }
  /// Evaluation-domain size m (h_len() + 1 for Bellperson, h_len() for OddCoset).
  std::size_t domain_size() const noexcept { return h_form == HForm::OddCoset ? h_len() : h_len() + 1; }
  /// Number of H MSM scalars and points (m − 1 for Bellperson, m for OddCoset) = h_len().
  std::size_t h_terms() const noexcept { return h_len(); }

  std::size_t serialized_size() const noexcept;
  /// Appends the .params encoding to `out` (points encoded in parallel for large sections).
  void write(std::vector<std::uint8_t>& out) const;
  std::vector<std::uint8_t> to_bytes() const;
  /// Streams the .params file to `path` (std::system_error on I/O failure).
  void write_file(const std::string& path) const;
  /// Feeds vk and every section to `sink` in .params order, then sink.finish().
  void stream_to(ParamsSink& sink) const;

  /// Decodes a whole .params buffer. `source` names it in messages.
  static Parameters from_bytes(std::span<const std::uint8_t> bytes, const ReadOptions& opts = {},
                               std::string_view source = "<memory>");
  /// Memory-maps and decodes a .params file.
  static Parameters read_file(const std::string& path, const ReadOptions& opts = {});

  friend bool operator==(const Parameters&, const Parameters&) = default;
};

// ---- streamed .params ------------------------------------------------------------------------------
/// The sections after the vk, in file order.
enum class ParamsSection : std::uint8_t { H, L, A, BG1, BG2 };
/// "h", "l", "a", "b_g1", "b_g2".
std::string_view to_string(ParamsSection s) noexcept;

/// Receives parameters in .params order, section by section, so that no section need exist whole:
///   vk(…) once; then for each of h, l, a, b_g1, b_g2 in this order: begin(section, count) and
///   append(…) of points until `count` have been given (G1 for h … b_g1, G2 for b_g2); finish().
/// groth16::generate_parameters streams into one; Parameters::stream_to feeds one from memory.
/// Errors: ProoflineError(BadLength) when a section receives more or fewer points than its count
/// ("section l: 7 points appended, expected 8"); std::logic_error for calls out of that order.
class ParamsSink {
 public:
  virtual ~ParamsSink() = default;
  void vk(const VerifyingKey& vk);
  void begin(ParamsSection s, std::size_t count);
  void append(std::span<const G1Affine> points);
  void append(std::span<const G2Affine> points);
  void finish();
  /// Points still expected in the open section.
  std::size_t remaining() const noexcept { return count_ - given_; }

 protected:
  virtual void on_vk(const VerifyingKey& vk) = 0;
  virtual void on_begin(ParamsSection s, std::size_t count) = 0;
  virtual void on_append(std::span<const G1Affine> points) = 0;
  virtual void on_append(std::span<const G2Affine> points) = 0;
  virtual void on_finish() = 0;

 private:
  void close_section(const char* why);
  void accept(std::size_t n, bool g2);
  int next_ = -1;           // −1: vk expected; 0 … 4: next section; 5: finish expected; 6: finished
  bool open_ = false;
  std::size_t count_ = 0, given_ = 0;
};

/// Writes the .params encoding as it is streamed in (vk, then each section's u32 count and points,
/// encoded in parallel chunk by chunk): to a file (created or truncated; std::system_error naming
/// the path on failure), appended to a byte vector, or encoded and dropped (Discard: only counted,
/// for timing runs whose file would not fit the disk). Memory: one appended chunk's encoding.
/// Parameters::write / write_file use it, so a streamed file and a whole one are the same bytes.
class ParamsWriter final : public ParamsSink {
 public:
  struct Discard {};
  explicit ParamsWriter(const std::string& path);
  explicit ParamsWriter(std::vector<std::uint8_t>& out);
  explicit ParamsWriter(Discard) {}
  ~ParamsWriter() override;
  ParamsWriter(const ParamsWriter&) = delete;
  ParamsWriter& operator=(const ParamsWriter&) = delete;
  /// Bytes written so far.
  std::uint64_t bytes_written() const noexcept { return written_; }

 protected:
  void on_vk(const VerifyingKey& vk) override;
  void on_begin(ParamsSection s, std::size_t count) override;
  void on_append(std::span<const G1Affine> points) override;
  void on_append(std::span<const G2Affine> points) override;
  void on_finish() override;

 private:
  void emit(std::span<const std::uint8_t> bytes);
  std::string path_;
  std::FILE* file_ = nullptr;
  std::vector<std::uint8_t>* out_ = nullptr;
  std::vector<std::uint8_t> buf_;
  std::uint64_t written_ = 0;
};

/// Collects streamed parameters into a Parameters (Bellperson form).
class ParamsCollector final : public ParamsSink {
 public:
  Parameters& params() noexcept { return p_; }
  Parameters take() noexcept { return std::move(p_); }

 protected:
  void on_vk(const VerifyingKey& vk) override { p_.vk = vk; }
  void on_begin(ParamsSection s, std::size_t count) override;
  void on_append(std::span<const G1Affine> points) override;
  void on_append(std::span<const G2Affine> points) override;
  void on_finish() override {}

 private:
  std::vector<G1Affine>* g1_ = nullptr;
  Parameters p_;
};

// ---- queries read from a file by whoever loads them ----------------------------------------------------
/// The queries of a Parameters that keeps them in a file (Parameters::source), as a loader reads
/// them: the GPU backend's SrsLoader (gpu/srs_load.hpp) reads a query's points in chunks, in the
/// file's encoding, decodes and checks them on the device, and asks the source to name a bad one.
/// Two implementations: ParamsFile (bellperson .params) and snarkjs::ZkeyFile (a .zkey's sections 5–9,
/// groth16/snarkjs/files.hpp). Thread-safe after construction.
class QuerySource {
 public:
  /// How a point's bytes are encoded (point_bytes(): 96 per G1 point, 192 per G2 point, both):
  ///   Bellperson  uncompressed, coordinates big-endian canonical (< p), the top three bits of the
  ///               first byte flags (compression, infinity, sign) that must be clear; G2 coordinates
  ///               c1 ‖ c0 (ZCash order). The point at infinity is refused (UnexpectedInfinity).
  ///   Zkey        coordinates in Montgomery form (x·2^384 mod p) as 48 bytes little-endian, each < p;
  ///               G2 x.c0 ‖ x.c1 ‖ y.c0 ‖ y.c1; all-zero bytes are the point at infinity (snarkjs'
  ///               encoding, groth16/snarkjs/files.hpp).
  enum class Encoding : std::uint8_t { Bellperson, Zkey };

  virtual ~QuerySource() = default;
  /// The file, for messages.
  virtual const std::string& path() const noexcept = 0;
  virtual Encoding encoding() const noexcept = 0;
  /// How the points are to be checked by whoever decodes them (on the curve, or also in the subgroup).
  virtual ec::Check check() const noexcept = 0;
  /// Points of query s (what Parameters' h_len() … b_g2_len() answer).
  virtual std::uint64_t count(ParamsSection s) const noexcept = 0;
  /// Bytes of one encoded point of query s: 192 for BG2, 96 for the others.
  static std::size_t point_bytes(ParamsSection s) noexcept { return s == ParamsSection::BG2 ? 192 : 96; }
  /// The encoded bytes of points [first, first + n) of query s into dst (exactly n · point_bytes(s)
  /// bytes), read from the file with preads (no mapping of the points is touched).
  /// std::system_error naming the path on a failed or short read; std::out_of_range past count(s).
  virtual void read_points(ParamsSection s, std::uint64_t first, std::uint64_t n, std::span<std::uint8_t> dst) const = 0;
  /// Throws the named error of point `index` of query s, which a decoder found bad (it is decoded
  /// again on the CPU for the exact reason: file, section, element, byte offset). std::logic_error if
  /// the CPU finds it good.
  [[noreturn]] virtual void throw_bad_point(ParamsSection s, std::uint64_t index) const = 0;
};

// ---- a .params file read in chunks ------------------------------------------------------------------
/// A bellperson .params file opened for chunked reading: the vk is decoded and checked (as
/// Parameters::read_file does), every section's u32 count is read and checked against the bytes that
/// remain, trailing bytes and the shape rules (h = 2^k − 1, a ≥ ic, b_g1 = b_g2) are checked — all
/// before any query point is read, so a truncated 44 GB file fails in milliseconds. The query points
/// are then read in chunks by the caller (read(): parallel preads into the caller's buffer, e.g.
/// pinned host memory for a GPU upload), decoded and checked by it: the GPU backend on the device
/// (gpu/backend.hpp), read_parameters() on the CPU.
///
/// Errors: as Parameters::read_file (same messages: file, section, element index, byte offset, what
/// was found and expected). One difference of order: count, truncation, trailing-bytes and shape
/// errors of every section are reported before a bad point of an earlier section (read_file decodes
/// section by section). std::system_error naming the path for open/mmap/read failures.
/// Thread-safe after construction (read() may run concurrently). As a QuerySource: Encoding::Bellperson.
class ParamsFile final : public QuerySource {
 public:
  /// One query section: `count` points of `point_bytes` (96: G1, 192: G2) from byte `offset` (the
  /// first point, after the u32 count).
  struct Section {
    std::uint64_t count = 0;
    std::uint64_t offset = 0;
    std::size_t point_bytes = 0;
    std::uint64_t bytes() const noexcept { return count * point_bytes; }
  };

  /// Opens, maps and checks `path` (see above). `opts.check` is how the query points are to be checked
  /// by whoever decodes them; `opts.max_threads` bounds the reader threads (0: the TBB arena).
  explicit ParamsFile(const std::string& path, const ReadOptions& opts = {});
  ~ParamsFile();
  ParamsFile(const ParamsFile&) = delete;
  ParamsFile& operator=(const ParamsFile&) = delete;

  const std::string& path() const noexcept override { return path_; }
  Encoding encoding() const noexcept override { return Encoding::Bellperson; }
  ec::Check check() const noexcept override { return opts_.check; }
  std::uint64_t count(ParamsSection s) const noexcept override { return section(s).count; }
  void read_points(ParamsSection s, std::uint64_t first, std::uint64_t n, std::span<std::uint8_t> dst) const override;
  std::uint64_t file_size() const noexcept { return size_; }
  const ReadOptions& options() const noexcept { return opts_; }
  const VerifyingKey& vk() const noexcept { return vk_; }
  const Section& section(ParamsSection s) const noexcept { return sections_[static_cast<int>(s)]; }

  /// Copies file bytes [offset, offset + dst.size()) into dst with parallel preads of up to 8 MiB
  /// (the page cache or the disk; no mapping is touched). std::system_error on a failed or short read.
  void read(std::uint64_t offset, std::span<std::uint8_t> dst) const;
  /// The bytes of points [first, first + n) of section s, for error paths: a view of the mapping.
  std::span<const std::uint8_t> point_bytes(ParamsSection s, std::uint64_t first, std::uint64_t n) const;

  /// Decodes the `bytes` of points [first, first + n) of section s on the CPU, with options().check;
  /// each point i goes to out(i, point) — G1 for h … b_g1, G2 for b_g2. Throws the named error of the
  /// first bad point (the point at infinity included: UnexpectedInfinity).
  void decode_g1(ParamsSection s, std::uint64_t first, std::span<const std::uint8_t> bytes, G1Affine* out) const;
  void decode_g2(std::uint64_t first, std::span<const std::uint8_t> bytes, G2Affine* out) const;
  /// Throws the named error of point `index` of section s, which a decoder found bad (it is decoded
  /// again on the CPU for the exact reason). std::logic_error if the CPU finds it good.
  [[noreturn]] void throw_bad_point(ParamsSection s, std::uint64_t index) const override;

  /// The whole parameters decoded on the CPU from chunked reads of `chunk_bytes` (double-buffered:
  /// the next chunk is read while this one is decoded). Same result and errors as read_file.
  Parameters read_parameters(std::size_t chunk_bytes = std::size_t{64} << 20) const;
  /// A Parameters with this file's vk, no host queries and `self` as its source (see Parameters).
  /// `self` must own this object.
  static Parameters shell(std::shared_ptr<const ParamsFile> self);

 private:
  std::string path_;
  ReadOptions opts_;
  int fd_ = -1;
  const std::uint8_t* map_ = nullptr;
  std::uint64_t size_ = 0;
  VerifyingKey vk_;
  Section sections_[5];
};

// ---- where the engine keeps the queries ------------------------------------------------------------
/// Whether parameter sets loaded through load_parameters() keep their queries on the host.
enum class HostQueries : std::uint8_t {
  Keep,         ///< Parameters::read_file: every backend can prove with them (the default)
  LeaveInFile,  ///< ParamsFile::shell: only the vk and shape on the host; GPU backends load the
                ///< queries from the file into device (or pinned host) memory themselves
};
/// The process-wide choice load_parameters() follows. The engine sets it when it starts: LeaveInFile
/// when every backend is a GPU backend (no host copy of a 47 GB SRS), Keep otherwise. Thread-safe.
void set_host_queries(HostQueries h) noexcept;
HostQueries host_queries() noexcept;
/// Loads a .params file as host_queries() says: Parameters::read_file(path, opts), or
/// ParamsFile::shell of ParamsFile(path, opts) (its vk, counts and layout checked now; its points
/// when a GPU backend loads it). Errors as those.
Parameters load_parameters(const std::string& path, const ReadOptions& opts = {});

/// Reads a whole file into memory (std::system_error naming the path on failure). Small helper for
/// proof files and tests; parameters use the memory-mapped readers above.
std::vector<std::uint8_t> read_file_bytes(const std::string& path);
/// Writes bytes to a file, replacing it (std::system_error naming the path on failure).
void write_file_bytes(const std::string& path, std::span<const std::uint8_t> bytes);

}  // namespace proofline::groth16
