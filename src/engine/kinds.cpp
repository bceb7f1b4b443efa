// Proof kinds: the registry, helpers for kinds, and the "snarkjs" kind (include/proofline/engine/kind.hpp).
//
// snarkjs zkey → bellperson Parameters (the "snarkjs" kind), n = domainSize, k = log2 n, ω5_n and
// σ = ω5_{2n} ffjavascript's roots (groth16/snarkjs/prover.hpp), ω7_n the blst root poly/ uses:
//   rows     snarkjs row c is the evaluation point ω5_n^c = ω7_n^(J·c mod n): the engine writes
//            a_c, b_c, c_c = a_c·b_c into row J·c mod n, so interp_ω7(a) is snarkjs' A(X) exactly.
//   vk       the zkey's α1, β1, β2, γ2, δ1, δ2, IC (Zkey::verifying_key()).
//   l        the zkey's C section (β·u_j + α·v_j + w_j)/δ for the private variables.
//   a, b_g1, b_g2   the zkey's A, B1, B2 sections: all inputs (ONE and the nPublic) then the aux
//            variables that have an A (resp. B) coefficient; the density bitmaps say which.
//   h        bellperson needs h[i] = τ^i·Z(τ)/δ (i < n − 1); the zkey holds H_j = L^(2n)_{2j+1}(τ)/δ,
//            the Lagrange basis of the 2n-domain at the odd points x_j = σ·ω5_n^j. τ^i·Z(τ) has
//            degree n + i < 2n and vanishes on the even points, so interpolating it on the odd
//            points is exact: τ^i·Z(τ) = Σ_j x_j^i·Z(x_j)·L_{2j+1}(τ), with Z(x_j) = σ^n − 1 = −2.
//            Hence h[i] = −2·σ^i·Σ_j ω5_n^(i·j)·H_j: one size-n DFT over G1 (radix 2, (n/2)·log2 n
//            scalar multiplications) and n scalings. Done once per zkey, on load.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <utility>

#include <tbb/parallel_for.h>

#include "proofline/engine/kind.hpp"
#include "proofline/groth16/prover.hpp"
#include "proofline/groth16/snarkjs/files.hpp"
#include "proofline/groth16/snarkjs/prover.hpp"
#include "proofline/util/error.hpp"

namespace proofline::engine {

namespace sj = groth16::snarkjs;
using ff::Fr;

// ---- shared pieces --------------------------------------------------------------------------------

std::uint64_t parameters_bytes(const groth16::Parameters& p) {
  const std::uint64_t g1 = sizeof(ec::G1Affine), g2 = sizeof(ec::G2Affine);
  return g1 * (p.vk.ic.size() + p.h.size() + p.l.size() + p.a.size() + p.b_g1.size()) + g2 * p.b_g2.size();
}

std::uint64_t partition_buffer_bytes(const groth16::Parameters& p) {
  const std::uint64_t m = p.domain_size();
  const std::uint64_t vars = p.num_inputs() + p.num_aux();
  return sizeof(Fr) * (3 * m + vars) + 8 * ((p.num_aux() + 63) / 64 * 2 + (p.num_inputs() + 63) / 64);
}

std::vector<Fr> KindJob::public_inputs(std::size_t, const r1cs::ProvingBuffers& buf) const {
  return groth16::public_inputs(buf);
}

bool KindJob::verify(const Srs& srs, const std::vector<groth16::Proof>& proofs,
                     const std::vector<std::vector<Fr>>& inputs) const {
  return groth16::verify_proofs_batch(srs.pvk, proofs, inputs);
}

namespace detail {
/// Defined in the generated kind_files.cpp (CMakeLists.txt): reads the link anchor of every
/// src/engine/*_kind.cpp, so that a static link keeps those files and their registrars.
int kind_files_linked();
}  // namespace detail

namespace {
/// The kinds KindRegistrars added, in registration order (static initialization: one thread).
std::vector<std::shared_ptr<const ProofKind>>& registered_kinds() {
  static std::vector<std::shared_ptr<const ProofKind>> kinds;
  return kinds;
}
}  // namespace

KindRegistrar::KindRegistrar(std::initializer_list<std::shared_ptr<const ProofKind>> kinds) {
  for (const auto& k : kinds) registered_kinds().push_back(k);
}

void KindRegistry::add(std::shared_ptr<const ProofKind> kind) {
  if (!kind || kind->name().empty()) throw std::invalid_argument("KindRegistry::add: a kind needs a name");
  const std::string name(kind->name());
  if (kinds_.count(name) != 0) throw std::invalid_argument("KindRegistry::add: kind '" + name + "' registered twice");
  check_declarations(name, kind->arguments());
  kinds_.emplace(name, std::move(kind));
}

const ProofKind* KindRegistry::find(std::string_view name) const {
  auto it = kinds_.find(name);
  return it == kinds_.end() ? nullptr : it->second.get();
}

std::shared_ptr<const ProofKind> KindRegistry::get(std::string_view name) const {
  auto it = kinds_.find(name);
  if (it != kinds_.end()) return it->second;
  std::string known;
  for (const auto& [k, v] : kinds_) known += (known.empty() ? "" : ", ") + k;
  throw std::invalid_argument("unknown proof kind '" + std::string(name) + "' (known: " + known + ")");
}

std::vector<std::string> KindRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [k, v] : kinds_) out.push_back(k);
  return out;
}

std::vector<std::shared_ptr<const ProofKind>> KindRegistry::all() const {
  std::vector<std::shared_ptr<const ProofKind>> out;
  for (const auto& [k, v] : kinds_) out.push_back(v);
  return out;
}

std::shared_ptr<KindRegistry> KindRegistry::builtin() {
  (void)detail::kind_files_linked();
  auto r = std::make_shared<KindRegistry>();
  for (const auto& k : registered_kinds()) r->add(k);
  return r;
}

const std::string& require_arg(const ProofRequest& r, const std::string& name) {
  auto it = r.args.find(name);
  if (it == r.args.end() || it->second.empty()) {
    throw std::invalid_argument("kind '" + r.kind + "' needs the argument '" + name + "'");
  }
  return it->second;
}

std::string arg_or(const ProofRequest& r, const std::string& name, const std::string& fallback) {
  auto it = r.args.find(name);
  return it == r.args.end() || it->second.empty() ? fallback : it->second;
}

unsigned parse_log_size_arg(const std::string& name, const std::string& s) {
  try {
    std::size_t used = 0;
    if (s.rfind("2^", 0) == 0) {
      const unsigned long k = std::stoul(s.substr(2), &used);
      if (used == s.size() - 2 && k < 64) return static_cast<unsigned>(k);
    } else {
      const unsigned long long n = std::stoull(s, &used);
      if (used == s.size() && n != 0 && (n & (n - 1)) == 0) return static_cast<unsigned>(__builtin_ctzll(n));
    }
  } catch (const std::exception&) {
  }
  throw std::invalid_argument("argument '" + name + "' = '" + s + "': expected 2^k or a power of two (e.g. 2^16)");
}

std::uint64_t parse_u64_arg(const std::string& name, const std::string& s) {
  try {
    std::size_t used = 0;
    const unsigned long long v = std::stoull(s, &used);
    if (used == s.size() && !s.empty() && s[0] != '-') return v;
  } catch (const std::exception&) {
  }
  throw std::invalid_argument("argument '" + name + "' = '" + s + "': expected an unsigned integer");
}

std::string file_version(const std::string& path) {
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(path, ec);
  if (ec) return "";
  const auto mtime = std::filesystem::last_write_time(path, ec);
  if (ec) return "";
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::file_clock::to_sys(mtime).time_since_epoch())
                      .count();  // ns since 1970 (file_clock's own epoch is not)
  std::string v = "#";  // appended piecewise: GCC 12's -Wrestrict misfires on "#" + to_string(…) here
  v += std::to_string(bytes);
  v += '-';
  v += std::to_string(ns);
  return v;
}

std::string existing_file(const std::string& what, const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw std::invalid_argument(what + " '" + path + "' not found (or not a regular file)");
  }
  return std::filesystem::weakly_canonical(path, ec).string();
}

std::shared_ptr<const Srs> make_srs(std::string key, groth16::Parameters params, std::shared_ptr<const void> extra,
                                    std::uint64_t extra_bytes) {
  auto srs = std::make_shared<Srs>();
  srs->key = std::move(key);
  srs->pvk = groth16::prepare_verifying_key(params.vk);
  srs->bytes = parameters_bytes(params) + extra_bytes;
  srs->params = std::move(params);
  srs->extra = std::move(extra);
  return srs;
}

namespace {

// ---- snarkjs zkey + wtns --------------------------------------------------------------------------

struct SnarkjsData {
  std::uint32_t n_vars = 0, n_public = 0, domain = 0;
  /// A and B coefficients with the row already permuted to the ω7 domain (J·c mod n).
  std::vector<sj::ZkeyCoeff> coeffs;
  r1cs::DensityTracker a_aux, b_in, b_aux;
};

/// h[i] = −2·σ^i·Σ_j ω^(ij)·H_j (see the file comment), i < n − 1. `progress` gets the fraction
/// done (0..1, by G1 scalar multiplications: one per butterfly stage of n/2, then n − 1 for the scale)
/// after each stage; it may throw to abandon the conversion.
std::vector<ec::G1Affine> bellperson_h_from_zkey(const sj::Zkey& z, const std::function<void(double)>& progress) {
  const std::size_t n = z.domain_size;
  const unsigned k = z.log_domain_size();
  const double total_muls = static_cast<double>(k) * static_cast<double>(n / 2) + static_cast<double>(n - 1);
  std::vector<ec::G1Projective> v(n);
  for (std::size_t j = 0; j < n; ++j) v[j] = z.h[j].to_projective();
  // Bit-reversal permutation, then iterative radix-2 Cooley–Tukey: v[i] = Σ_j ω^(ij)·H_j.
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(v[i], v[j]);
  }
  for (unsigned s = 1; s <= k; ++s) {
    const std::size_t len = std::size_t{1} << s, half = len >> 1;
    const Fr w_len = sj::snarkjs_root_of_unity(s);
    std::vector<Fr> tw(half);
    tw[0] = Fr::one();
    for (std::size_t t = 1; t < half; ++t) tw[t] = tw[t - 1] * w_len;
    tbb::parallel_for(std::size_t{0}, n / 2, [&](std::size_t b) {
      const std::size_t blk = b / half, t = b % half;
      const std::size_t i0 = blk * len + t, i1 = i0 + half;
      const ec::G1Projective x = t == 0 ? v[i1] : v[i1].mul(tw[t]);
      v[i1] = v[i0] - x;
      v[i0] = v[i0] + x;
    });
    progress(static_cast<double>(s) * static_cast<double>(n / 2) / total_muls);
  }
  const Fr sigma = sj::snarkjs_root_of_unity(k + 1);
  std::vector<Fr> scale(n - 1);
  Fr pw = -Fr::from_u64(2);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    scale[i] = pw;
    pw *= sigma;
  }
  std::vector<ec::G1Affine> h(n - 1);
  tbb::parallel_for(std::size_t{0}, n - 1, [&](std::size_t i) { h[i] = v[i].mul(scale[i]).to_affine(); });
  return h;
}

std::shared_ptr<const Srs> load_zkey(const std::string& key, const std::string& path,
                                     const std::function<void(double)>& progress) {
  progress(0);
  sj::Zkey z = sj::Zkey::read_file(path);
  progress(0.3);
  if (z.domain_size < 2) throw ProoflineError(Error::BadLength, "zkey '" + path + "': domain size below 2");
  auto data = std::make_shared<SnarkjsData>();
  data->n_vars = z.n_vars;
  data->n_public = z.n_public;
  data->domain = z.domain_size;
  const std::uint64_t J = sj::snarkjs_root_exponent();
  const std::size_t n_in = std::size_t{z.n_public} + 1, n_aux = z.n_vars - n_in;
  std::vector<char> in_a(z.n_vars, 0), in_b(z.n_vars, 0);
  data->coeffs = z.coeffs;
  for (auto& c : data->coeffs) {
    (c.matrix == 0 ? in_a : in_b)[c.signal] = 1;
    c.constraint = static_cast<std::uint32_t>((J * c.constraint) & (z.domain_size - 1));
  }
  groth16::Parameters p;
  p.vk = z.verifying_key();
  p.l = z.c;
  for (std::size_t i = 0; i < n_in; ++i) {
    p.a.push_back(z.a[i]);
    data->b_in.push_back(in_b[i] != 0);
    if (in_b[i]) {
      p.b_g1.push_back(z.b1[i]);
      p.b_g2.push_back(z.b2[i]);
    }
  }
  for (std::size_t j = 0; j < n_aux; ++j) {
    const std::size_t s = n_in + j;
    data->a_aux.push_back(in_a[s] != 0);
    data->b_aux.push_back(in_b[s] != 0);
    if (in_a[s]) p.a.push_back(z.a[s]);
    if (in_b[s]) {
      p.b_g1.push_back(z.b1[s]);
      p.b_g2.push_back(z.b2[s]);
    }
  }
  progress(0.4);
  // The H conversion dominates the load (minutes at 2^16 on a loaded host): 0.4 .. 1 follows it.
  p.h = bellperson_h_from_zkey(z, [&](double f) { progress(0.4 + 0.6 * std::min(f, 1.0)); });
  progress(1);
  const std::uint64_t extra = sizeof(sj::ZkeyCoeff) * data->coeffs.size();
  return make_srs(key, std::move(p), std::move(data), extra);
}

class SnarkjsJob final : public KindJob {
 public:
  SnarkjsJob(std::string zkey, sj::Witness w)
      : zkey_(std::move(zkey)), key_("snarkjs:" + zkey_ + file_version(zkey_)), w_(std::move(w)) {}
  std::size_t num_partitions() const override { return 1; }
  std::string srs_key() const override { return key_; }
  std::shared_ptr<const Srs> load_srs(const std::function<void(double)>& progress) const override {
    return load_zkey(srs_key(), zkey_, progress);
  }
  void check(const Srs& srs) const override {
    const auto& d = *static_cast<const SnarkjsData*>(srs.extra.get());
    if (w_.size() != d.n_vars) {
      throw ProoflineError(Error::BadLength, "witness does not fit zkey '" + zkey_ + "': witness values got " +
                                                 std::to_string(w_.size()) + ", expected nVars = " +
                                                 std::to_string(d.n_vars));
    }
    if (!(w_.fr(0) == Fr::one())) throw ProoflineError(Error::BadLength, "witness value 0 must be 1 (ONE)");
  }
  std::uint64_t partition_bytes(const Srs& srs) const override { return partition_buffer_bytes(srs.params); }
  void synthesize(std::size_t, const Srs& srs, r1cs::ProvingBuffers& buf) const override {
    const auto& d = *static_cast<const SnarkjsData*>(srs.extra.get());
    const std::size_t n = d.domain, n_in = std::size_t{d.n_public} + 1;
    buf.a.assign(n, Fr::zero());
    buf.b.assign(n, Fr::zero());
    buf.c.resize(n);
    std::vector<Fr> w(d.n_vars);
    for (std::size_t i = 0; i < w.size(); ++i) w[i] = w_.fr(i);
    for (const auto& c : d.coeffs) (c.matrix == 0 ? buf.a : buf.b)[c.constraint] += c.value * w[c.signal];
    for (std::size_t i = 0; i < n; ++i) buf.c[i] = buf.a[i] * buf.b[i];
    buf.input_assignment.assign(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(n_in));
    buf.aux_assignment.assign(w.begin() + static_cast<std::ptrdiff_t>(n_in), w.end());
    buf.a_aux_density = d.a_aux;
    buf.b_input_density = d.b_in;
    buf.b_aux_density = d.b_aux;
  }

 private:
  std::string zkey_, key_;  // key_: "snarkjs:" + zkey_ + file_version(zkey_)
  sj::Witness w_;
};

class SnarkjsKind final : public ProofKind {
 public:
  std::string_view name() const override { return "snarkjs"; }
  std::string_view description() const override {
    return "A circom/snarkjs Groth16 circuit (BLS12-381) from its .zkey and a witness; one partition";
  }
  std::vector<ArgSpec> arguments() const override {
    return {ArgSpec("zkey", ArgType::File, "the circuit's .zkey (snarkjs groth16 setup, BLS12-381)")
                .require()
                .names_srs(),
            ArgSpec("wtns", ArgType::File, "the witness .wtns (snarkjs wtns calculate)")
                .require()
                .or_payload()};
  }
  std::string_view proof_format() const override { return "snarkjs"; }
  std::shared_ptr<const KindJob> prepare(const ProofRequest& r) const override {
    const std::string zkey = existing_file("zkey file", require_arg(r, "zkey"));
    const std::string wtns = arg_or(r, "wtns", "");
    sj::Witness w;
    if (!wtns.empty()) {
      w = sj::Witness::read_file(existing_file("witness file", wtns));
    } else if (!r.payload.empty()) {
      w = sj::Witness::from_bytes(r.payload, "request payload (.wtns)");
    } else {
      throw std::invalid_argument("kind 'snarkjs' needs the argument 'wtns' or the .wtns bytes as the payload");
    }
    return std::make_shared<SnarkjsJob>(zkey, std::move(w));
  }
  std::shared_ptr<const KindJob> prepare_srs(const ProofRequest& r) const override {  // no witness needed
    return std::make_shared<SnarkjsJob>(existing_file("zkey file", require_arg(r, "zkey")), sj::Witness{});
  }
};

}  // namespace

PROOFLINE_REGISTER_KIND(kinds, std::make_shared<SnarkjsKind>());

}  // namespace proofline::engine
