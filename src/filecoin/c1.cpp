// C1 JSON: parse with shape validation and JSON-path errors, write in serde's compact form.
#include "proofline/filecoin/c1.hpp"

#include <cerrno>
#include <charconv>
#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>
// simdjson's inline accessors trip GCC 12's -Wmaybe-uninitialized on their result pairs (a false
// positive: every value is read only after its error code said SUCCESS).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <simdjson.h>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "proofline/util/base64.hpp"
#include "proofline/util/error.hpp"
#include "proofline/util/json.hpp"

namespace proofline::filecoin {

using ff::Fr;

std::string_view to_string(MerkleProofKind k) {
  switch (k) {
    case MerkleProofKind::Single: return "Single";
    case MerkleProofKind::Sub: return "Sub";
    case MerkleProofKind::Top: return "Top";
  }
  return "?";
}

Fr domain_fr(const Domain& d) {
  Fr f;
  if (Fr::from_bytes_le(f, std::span<const std::uint8_t, 32>(d)) != Error::Ok) {
    throw ProoflineError(Error::NotCanonical, "32-byte value is >= r (not a field element)");
  }
  return f;
}

Domain fr_domain(const Fr& f) {
  Domain d;
  f.to_bytes_le(std::span<std::uint8_t, 32>(d));
  return d;
}

hash::AuthPath MerkleProof::auth_path() const {
  auto conv = [](const std::vector<PathElement>& in, std::vector<hash::PathLevel>& out) {
    for (const auto& e : in) {
      hash::PathLevel l;
      l.index = e.index;
      for (const auto& h : e.hashes) l.hashes.push_back(domain_fr(h));
      out.push_back(std::move(l));
    }
  };
  hash::AuthPath p;
  conv(base, p.base);
  conv(sub, p.sub);
  conv(top, p.top);
  return p;
}

std::uint64_t MerkleProof::leaf_index() const {
  std::uint64_t idx = 0, scale = 1;
  for (const auto* levels : {&base, &sub, &top}) {
    for (const auto& e : *levels) {
      idx += e.index * scale;
      scale *= e.hashes.size() + 1;
    }
  }
  return idx;
}

std::uint64_t VanillaProof::challenge() const { return labeling_proofs.empty() ? 0 : labeling_proofs[0].node; }

// ---- parsing ----------------------------------------------------------------------------------
// simdjson's DOM parser (Debian libsimdjson-dev) builds the tape of a 32 GiB sector's 40 MB C1 in
// tens of milliseconds; the walk below validates it and fills the vectors. JSON paths for errors are
// built only when something is wrong (Path: a chain of keys and indices on the stack). Text that
// simdjson refuses is given to nlohmann's parser for the message (its byte offset and wording, as
// before; every other JSON input of proofline reads through it, util/json.hpp).

namespace {

using El = simdjson::dom::element;
using ElType = simdjson::dom::element_type;

/// A JSON path as a chain on the stack: `parent` + ".key" or "[index]"; to_string() only on error.
struct Path {
  const Path* parent = nullptr;
  std::string_view key;  ///< empty: an index
  std::size_t index = 0;

  Path operator/(std::string_view k) const { return Path{this, k, 0}; }
  Path operator[](std::size_t i) const { return Path{this, {}, i}; }
  std::string str() const {
    if (parent == nullptr) return std::string(key);  // the root: "" (document) or a top-level key
    std::string base = parent->str();
    if (key.empty()) return base + "[" + std::to_string(index) + "]";
    return base.empty() ? std::string(key) : base + "." + std::string(key);
  }
};
const Path kRoot{};

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw ProoflineError(Error::BadC1Json, path + ": " + what);
}
[[noreturn]] void fail(const Path& path, const std::string& what) {
  const std::string p = path.str();
  fail(p.empty() ? std::string("(document)") : p, what);
}

/// nlohmann's type names, which the messages have always used.
std::string type_name(El j) {
  switch (j.type()) {
    case ElType::ARRAY: return "array";
    case ElType::OBJECT: return "object";
    case ElType::INT64:
    case ElType::UINT64:
    case ElType::DOUBLE: return "number";
    case ElType::STRING: return "string";
    case ElType::BOOL: return "boolean";
    case ElType::NULL_VALUE: return "null";
  }
  return "?";
}

/// A number as nlohmann's dump wrote it (integers in decimal, other numbers shortest with ".0").
std::string number_text(El j) {
  if (j.type() == ElType::INT64) return std::to_string(std::int64_t(j));
  if (j.type() == ElType::UINT64) return std::to_string(std::uint64_t(j));
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, double(j));
  std::string t(buf, r.ptr);
  if (t.find_first_of(".eE") == std::string::npos && t.find_first_of("0123456789") != std::string::npos) t += ".0";
  return t;
}
std::string value_text(El j) { return j.is_number() ? number_text(j) : type_name(j); }

simdjson::dom::object object(El j, const Path& path) {
  if (j.type() != ElType::OBJECT) fail(path, "expected an object, got " + type_name(j));
  return j.get_object().value_unsafe();
}

El field(El obj, std::string_view key, const Path& path) {
  const simdjson::dom::object o = object(obj, path);
  El v;
  if (o.at_key(key).get(v) != simdjson::SUCCESS) fail(path / key, "missing field");
  return v;
}

simdjson::dom::array array(El j, const Path& path, std::size_t expected_len) {
  if (j.type() != ElType::ARRAY) fail(path, "expected an array, got " + type_name(j));
  const simdjson::dom::array a = j.get_array().value_unsafe();
  if (a.size() != expected_len) {
    fail(path, "expected " + std::to_string(expected_len) + " elements, got " + std::to_string(a.size()));
  }
  return a;
}

std::uint64_t uint_value(El j, const Path& path, std::uint64_t max) {
  std::uint64_t v = 0;
  if (j.type() == ElType::UINT64) {
    v = std::uint64_t(j);
  } else if (j.type() == ElType::INT64 && std::int64_t(j) >= 0) {
    v = static_cast<std::uint64_t>(std::int64_t(j));
  } else {
    fail(path, "expected a non-negative integer, got " + value_text(j));
  }
  if (v > max) fail(path, "value " + std::to_string(v) + " exceeds " + std::to_string(max));
  return v;
}

// A 32-byte array; `fr` requires the little-endian value < r.
Domain bytes32(El j, const Path& path, bool fr) {
  const simdjson::dom::array a = array(j, path, 32);
  Domain d;
  std::size_t i = 0;
  for (El b : a) {
    std::int64_t v = -1;
    if (b.type() == ElType::INT64) v = std::int64_t(b);
    if (v < 0 || v > 255) fail(path[i], "expected a byte 0..255, got " + value_text(b));
    d[i++] = static_cast<std::uint8_t>(v);
  }
  if (fr) {
    Fr f;
    if (Fr::from_bytes_le(f, std::span<const std::uint8_t, 32>(d)) != Error::Ok) {
      fail(path, "value >= r (a 32-byte little-endian field element was expected)");
    }
  }
  return d;
}

/// An array of exactly n elements, each read by `element(value, its path)`.
template <class F>
auto list_of(El j, const Path& path, std::size_t n, F element) {
  const simdjson::dom::array a = array(j, path, n);
  std::vector<decltype(element(j, path))> out;
  out.reserve(n);
  std::size_t i = 0;
  for (El x : a) out.push_back(element(x, path[i++]));
  return out;
}

std::vector<Domain> bytes32_list(El j, const Path& path, std::size_t n) {
  return list_of(j, path, n, [](El x, const Path& p) { return bytes32(x, p, true); });
}

// Expected levels of an inclusion path: `count` levels of arity `arity`.
std::vector<PathElement> inclusion_path(El j, const Path& path, std::size_t count, std::size_t arity) {
  return list_of(field(j, "path", path), path / "path", count, [&](El level, const Path& pi) {
    PathElement e;
    e.hashes = bytes32_list(field(level, "hashes", pi), pi / "hashes", arity - 1);
    e.index = uint_value(field(level, "index", pi), pi / "index", arity - 1);
    return e;
  });
}

struct TreeSpec {
  MerkleProofKind kind;
  std::size_t base_levels, base_arity, sub_arity, top_arity;
};

TreeSpec tree_d_spec(const SectorShape& s) { return {MerkleProofKind::Single, s.tree_d_levels, 2, 0, 0}; }
TreeSpec tree_rc_spec(const SectorShape& s) {
  const auto& t = s.tree_rc;
  const MerkleProofKind k = t.top ? MerkleProofKind::Top : t.sub ? MerkleProofKind::Sub : MerkleProofKind::Single;
  return {k, s.base_tree_levels(), t.base, t.sub, t.top};
}

MerkleProof merkle_proof(El j, const Path& path, const TreeSpec& spec) {
  const Path pd = path / "data";
  const El data = field(j, "data", path);
  if (data.type() != ElType::OBJECT || data.get_object().value_unsafe().size() != 1) {
    fail(pd, "expected an object with one key (Single, Sub or Top), got " +
                 (data.type() == ElType::OBJECT ? std::to_string(data.get_object().value_unsafe().size()) + " keys"
                                                : type_name(data)));
  }
  const simdjson::dom::key_value_pair kv = *data.get_object().value_unsafe().begin();
  const std::string_view kind = kv.key;
  const std::string_view expected = to_string(spec.kind);
  if (kind != expected) {
    fail(pd / kind, "wrong proof kind \"" + std::string(kind) + "\" for this tree (expected \"" +
                        std::string(expected) + "\")");
  }
  const El body = kv.value;
  const Path pb = pd / kind;
  MerkleProof m;
  m.kind = spec.kind;
  if (spec.kind == MerkleProofKind::Single) {
    m.root = bytes32(field(body, "root", pb), pb / "root", true);
    m.leaf = bytes32(field(body, "leaf", pb), pb / "leaf", true);
    m.base = inclusion_path(field(body, "path", pb), pb / "path", spec.base_levels, spec.base_arity);
    return m;
  }
  m.base = inclusion_path(field(body, "base_proof", pb), pb / "base_proof", spec.base_levels, spec.base_arity);
  m.sub = inclusion_path(field(body, "sub_proof", pb), pb / "sub_proof", 1, spec.sub_arity);
  if (spec.kind == MerkleProofKind::Top) {
    m.top = inclusion_path(field(body, "top_proof", pb), pb / "top_proof", 1, spec.top_arity);
  }
  m.root = bytes32(field(body, "root", pb), pb / "root", true);
  m.leaf = bytes32(field(body, "leaf", pb), pb / "leaf", true);
  return m;
}

ColumnProof column_proof(El j, const Path& path, const SectorShape& s) {
  ColumnProof c;
  const Path pc = path / "column";
  const El col = field(j, "column", path);
  c.column.index = static_cast<std::uint32_t>(uint_value(field(col, "index", pc), pc / "index", s.nodes - 1));
  c.column.rows = bytes32_list(field(col, "rows", pc), pc / "rows", s.layers);
  c.inclusion_proof = merkle_proof(field(j, "inclusion_proof", path), path / "inclusion_proof", tree_rc_spec(s));
  return c;
}

template <class P>
P labeling(El j, const Path& path, const SectorShape& s) {
  P l;
  l.parents = bytes32_list(field(j, "parents", path), path / "parents", kLabelParents);
  l.layer_index = static_cast<std::uint32_t>(uint_value(field(j, "layer_index", path), path / "layer_index", s.layers));
  l.node = uint_value(field(j, "node", path), path / "node", s.nodes - 1);
  return l;
}

std::vector<ColumnProof> column_proofs(El j, const Path& path, std::size_t n, const SectorShape& s) {
  return list_of(j, path, n, [&](El x, const Path& p) { return column_proof(x, p, s); });
}

VanillaProof vanilla_proof(El j, const Path& path, const SectorShape& s) {
  VanillaProof v;
  v.comm_d_proofs = merkle_proof(field(j, "comm_d_proofs", path), path / "comm_d_proofs", tree_d_spec(s));
  v.comm_r_last_proof = merkle_proof(field(j, "comm_r_last_proof", path), path / "comm_r_last_proof",
                                     tree_rc_spec(s));
  const Path pr = path / "replica_column_proofs";
  const El rcp = field(j, "replica_column_proofs", path);
  v.replica_column_proofs.c_x = column_proof(field(rcp, "c_x", pr), pr / "c_x", s);
  v.replica_column_proofs.drg_parents = column_proofs(field(rcp, "drg_parents", pr), pr / "drg_parents", kBaseDegree, s);
  v.replica_column_proofs.exp_parents = column_proofs(field(rcp, "exp_parents", pr), pr / "exp_parents", kExpDegree, s);
  const Path pl = path / "labeling_proofs";
  v.labeling_proofs = list_of(field(j, "labeling_proofs", path), pl, s.layers,
                              [&](El x, const Path& p) { return labeling<LabelingProof>(x, p, s); });
  v.encoding_proof = labeling<EncodingProof>(field(j, "encoding_proof", path), path / "encoding_proof", s);
  return v;
}

/// Strict standard base64 (util/base64.hpp: RFC 4648 §4, '=' padding, no line breaks, as Go's
/// base64.StdEncoding writes it); what is wrong is named under `path`.
std::vector<std::uint8_t> base64_decode(std::string_view b64, const std::string& path) {
  std::vector<std::uint8_t> out;
  if (std::string why = base64_decode_into(b64, out); !why.empty()) fail(path, why);
  return out;
}

/// Byte offset of the first number literal outside strings whose integer part does not fit 64 bits
/// (simdjson refuses those; nlohmann reads them as doubles), or npos.
std::size_t first_oversized_integer(std::string_view t) {
  bool in_string = false;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') { in_string = true; continue; }
    if (c == '-' || (c >= '0' && c <= '9')) {
      const std::size_t start = i;
      if (c == '-') ++i;
      std::size_t digits = 0;
      while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i, ++digits;
      if (digits > 19) {
        std::uint64_t v = 0;
        const char* b = t.data() + start + (c == '-' ? 1 : 0);
        if (std::from_chars(b, t.data() + i, v).ec != std::errc{}) return start;
      }
      --i;
    }
  }
  return std::string_view::npos;
}

/// The document's tape (simdjson), after the limits; text simdjson refuses gets nlohmann's message.
/// simdjson enforces json::check_limits' rules itself (nesting: its max_depth; NUL bytes and other
/// raw control characters: not JSON text, refused), so the limits scan runs only on the error path,
/// where json::parse names the byte. `padded`: the text is followed by SIMDJSON_PADDING readable
/// bytes (read_c1_file's buffer), so simdjson need not copy it.
El parse_text(simdjson::dom::parser& parser, std::string_view text, bool padded = false) {
  const json::Limits limits{kMaxC1JsonBytes};
  if (text.size() > limits.max_bytes) json::check_limits(text, limits, "(document)", Error::BadC1Json);  // throws
  El doc;
  simdjson::error_code err = parser.allocate(text.size(), limits.max_depth);
  if (err == simdjson::SUCCESS) err = parser.parse(text.data(), text.size(), !padded).get(doc);
  if (err == simdjson::SUCCESS) return doc;
  (void)json::parse<nlohmann::json>(text, limits, "(document)", Error::BadC1Json);  // throws its message
  if (const std::size_t at = first_oversized_integer(text); at != std::string_view::npos) {
    throw ProoflineError(Error::BadC1Json, "(document): a number at byte " + std::to_string(at) +
                                               " does not fit 64 bits (no C1 value is that large)");
  }
  throw ProoflineError(Error::BadC1Json, std::string("(document): not valid JSON: ") + simdjson::error_message(err));
}

SealCommitPhase1Output parse_c1_document(El j) {
  if (j.type() != ElType::OBJECT) fail("(document)", "expected an object, got " + type_name(j));
  SealCommitPhase1Output c1;
  const El rp = field(j, "registered_proof", kRoot);
  if (rp.type() != ElType::STRING) fail("registered_proof", "expected a string, got " + type_name(rp));
  const std::string rp_name{std::string_view(rp)};
  try {
    c1.registered_proof = registered_seal_proof_from_string(rp_name);
  } catch (const ProoflineError& e) {
    fail("registered_proof", e.what());
  }
  const PorepConfig cfg = porep_config(c1.registered_proof);
  const SectorShape& s = *cfg.shape;

  const El vp = field(j, "vanilla_proofs", kRoot);
  if (vp.type() != ElType::OBJECT || vp.get_object().value_unsafe().size() != 1) {
    fail("vanilla_proofs", "expected an object with one key (" + std::string(s.vanilla_key) + ")");
  }
  const simdjson::dom::key_value_pair kv = *vp.get_object().value_unsafe().begin();
  const std::string key(kv.key);
  if (key != s.vanilla_key) {
    fail("vanilla_proofs." + key, "wrong key for " + rp_name + " (expected \"" + std::string(s.vanilla_key) + "\")");
  }
  const Path pvp = kRoot / "vanilla_proofs";
  const Path pv = pvp / kv.key;
  const simdjson::dom::array parts = array(kv.value, pv, cfg.partitions);
  // The shape first (partition and challenge counts, in order), then the vanilla proofs walked in
  // parallel (a 32 GiB C1 holds 180 of them, ~12 M numbers); the error reported is the one of the
  // first failing proof in document order, as a sequential walk would find it.
  std::vector<El> proofs;
  proofs.reserve(cfg.partitions * cfg.challenges_per_partition);
  std::size_t k = 0;
  for (El part_el : parts) {
    const Path pk = pv[k++];
    for (El ch : array(part_el, pk, cfg.challenges_per_partition)) proofs.push_back(ch);
  }
  c1.vanilla_proofs.assign(cfg.partitions, std::vector<VanillaProof>(cfg.challenges_per_partition));
  std::vector<std::exception_ptr> errors(proofs.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, proofs.size()), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t n = r.begin(); n != r.end(); ++n) {
      const std::size_t pk_index = n / cfg.challenges_per_partition, i = n % cfg.challenges_per_partition;
      try {
        const Path pk = pv[pk_index];
        c1.vanilla_proofs[pk_index][i] = vanilla_proof(proofs[n], pk[i], s);
      } catch (...) {
        errors[n] = std::current_exception();
        return;  // the rest of this range is not needed: an earlier error, if any, wins anyway
      }
    }
  });
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  c1.comm_r = bytes32(field(j, "comm_r", kRoot), kRoot / "comm_r", true);
  c1.comm_d = bytes32(field(j, "comm_d", kRoot), kRoot / "comm_d", true);
  c1.replica_id = bytes32(field(j, "replica_id", kRoot), kRoot / "replica_id", true);
  c1.seed = bytes32(field(j, "seed", kRoot), kRoot / "seed", false);
  c1.ticket = bytes32(field(j, "ticket", kRoot), kRoot / "ticket", false);
  return c1;
}

/// The Commit2In envelope (reference cuzk-api §3.1): {"SectorNum", "Phase1Out": base64 C1 JSON,
/// "SectorSize"}.
SealCommitPhase1Output parse_envelope(El j, C1Envelope* envelope) {
  C1Envelope env;
  env.present = true;
  const El num = field(j, "SectorNum", kRoot);
  if (num.type() == ElType::INT64) {
    env.sector_num = std::int64_t(num);
  } else if (num.type() == ElType::UINT64) {
    // nlohmann's get<int64_t> of such a value wrapped; keep that (SectorNum is not used for proving).
    env.sector_num = static_cast<std::int64_t>(std::uint64_t(num));
  } else {
    fail("SectorNum", "expected an integer, got " + type_name(num));
  }
  const El size = field(j, "SectorSize", kRoot);
  if (size.type() == ElType::UINT64) {
    env.sector_size = std::uint64_t(size);
  } else if (size.type() == ElType::INT64 && std::int64_t(size) >= 0) {
    env.sector_size = static_cast<std::uint64_t>(std::int64_t(size));
  } else {
    fail("SectorSize", "expected an unsigned integer, got " + type_name(size));
  }
  const El p1 = field(j, "Phase1Out", kRoot);
  if (p1.type() != ElType::STRING) fail("Phase1Out", "expected a base64 string, got " + type_name(p1));
  const simdjson::dom::object keys = object(j, kRoot);  // a copy: iterating a temporary's object would dangle
  for (const simdjson::dom::key_value_pair kv : keys) {
    if (kv.key != "SectorNum" && kv.key != "SectorSize" && kv.key != "Phase1Out") {
      fail(std::string(kv.key), "unknown key in the Commit2In envelope (expected SectorNum, Phase1Out, SectorSize)");
    }
  }
  const std::vector<std::uint8_t> inner = base64_decode(std::string_view(p1), "Phase1Out");
  SealCommitPhase1Output c1;
  try {
    const std::string_view text(reinterpret_cast<const char*>(inner.data()), inner.size());
    simdjson::dom::parser parser;
    c1 = parse_c1_document(parse_text(parser, text));
  } catch (const ProoflineError& e) {
    const std::string msg = e.what();
    const std::size_t skip = to_string(e.code()).size() + 2;  // the "<code>: " prefix
    throw ProoflineError(e.code(), "Phase1Out (base64 of the C1 JSON): " + msg.substr(std::min(skip, msg.size())));
  }
  const std::uint64_t want = porep_config(c1.registered_proof).shape->sector_bytes;
  if (env.sector_size != 0 && env.sector_size != want) {
    fail("SectorSize", std::to_string(env.sector_size) + " bytes, but Phase1Out's registered_proof is a " +
                           std::to_string(want) + "-byte sector");
  }
  if (envelope) *envelope = env;
  return c1;
}

}  // namespace

namespace {

SealCommitPhase1Output parse_c1(std::string_view text, bool padded, C1Envelope* envelope) {
  simdjson::dom::parser parser;
  const El j = parse_text(parser, text, padded);
  if (envelope) *envelope = C1Envelope{};
  El p1;
  if (j.type() == ElType::OBJECT && j.get_object().value_unsafe().at_key("Phase1Out").get(p1) == simdjson::SUCCESS) {
    return parse_envelope(j, envelope);
  }
  return parse_c1_document(j);
}

}  // namespace

SealCommitPhase1Output parse_c1_json(std::string_view text, C1Envelope* envelope) {
  return parse_c1(text, false, envelope);
}

// ---- writing ----------------------------------------------------------------------------------
// A direct writer (serde_json's compact form: no spaces, keys in serde order); ~10x faster and far
// leaner than building a JSON document for the 40 MB C1 of a 32 GiB sector.

namespace {

class Writer {
 public:
  std::string out;
  void raw(std::string_view s) { out.append(s); }
  void key(std::string_view k) {
    out.push_back('"');
    out.append(k);
    out.append("\":");
  }
  void num(std::uint64_t v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
  }
  void bytes(const Domain& d) {
    out.push_back('[');
    for (std::size_t i = 0; i < 32; ++i) {
      if (i) out.push_back(',');
      num(d[i]);
    }
    out.push_back(']');
  }
  void list(const std::vector<Domain>& v) {
    out.push_back('[');
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i) out.push_back(',');
      bytes(v[i]);
    }
    out.push_back(']');
  }
  void path(const std::vector<PathElement>& levels) {
    raw("{\"path\":[");
    for (std::size_t i = 0; i < levels.size(); ++i) {
      if (i) out.push_back(',');
      raw("{");
      key("hashes");
      list(levels[i].hashes);
      raw(",");
      key("index");
      num(levels[i].index);
      raw("}");
    }
    raw("]}");
  }
  void merkle(const MerkleProof& m) {
    raw("{\"data\":{");
    key(to_string(m.kind));
    raw("{");
    if (m.kind == MerkleProofKind::Single) {
      key("root");
      bytes(m.root);
      raw(",");
      key("leaf");
      bytes(m.leaf);
      raw(",");
      key("path");
      path(m.base);
    } else {
      key("base_proof");
      path(m.base);
      raw(",");
      key("sub_proof");
      path(m.sub);
      if (m.kind == MerkleProofKind::Top) {
        raw(",");
        key("top_proof");
        path(m.top);
      }
      raw(",");
      key("root");
      bytes(m.root);
      raw(",");
      key("leaf");
      bytes(m.leaf);
    }
    raw("}}}");
  }
  void column(const ColumnProof& c) {
    raw("{\"column\":{");
    key("index");
    num(c.column.index);
    raw(",");
    key("rows");
    list(c.column.rows);
    raw(",\"_h\":null},");
    key("inclusion_proof");
    merkle(c.inclusion_proof);
    raw("}");
  }
  template <class P>
  void labeling(const P& l) {
    raw("{");
    key("parents");
    list(l.parents);
    raw(",");
    key("layer_index");
    num(l.layer_index);
    raw(",");
    key("node");
    num(l.node);
    raw("}");
  }
  void vanilla(const VanillaProof& v) {
    raw("{");
    key("comm_d_proofs");
    merkle(v.comm_d_proofs);
    raw(",");
    key("comm_r_last_proof");
    merkle(v.comm_r_last_proof);
    raw(",\"replica_column_proofs\":{");
    key("c_x");
    column(v.replica_column_proofs.c_x);
    for (const auto* group : {&v.replica_column_proofs.drg_parents, &v.replica_column_proofs.exp_parents}) {
      raw(group == &v.replica_column_proofs.drg_parents ? ",\"drg_parents\":[" : ",\"exp_parents\":[");
      for (std::size_t i = 0; i < group->size(); ++i) {
        if (i) out.push_back(',');
        column((*group)[i]);
      }
      raw("]");
    }
    raw("},\"labeling_proofs\":[");
    for (std::size_t i = 0; i < v.labeling_proofs.size(); ++i) {
      if (i) out.push_back(',');
      labeling(v.labeling_proofs[i]);
    }
    raw("],");
    key("encoding_proof");
    labeling(v.encoding_proof);
    raw("}");
  }
};

}  // namespace

std::string to_json(const SealCommitPhase1Output& c1) {
  const PorepConfig cfg = porep_config(c1.registered_proof);
  Writer w;
  w.raw("{");
  w.key("registered_proof");
  w.raw("\"");
  w.raw(to_string(c1.registered_proof));
  w.raw("\",\"vanilla_proofs\":{");
  w.key(cfg.shape->vanilla_key);
  w.raw("[");
  for (std::size_t k = 0; k < c1.vanilla_proofs.size(); ++k) {
    if (k) w.raw(",");
    w.raw("[");
    for (std::size_t i = 0; i < c1.vanilla_proofs[k].size(); ++i) {
      if (i) w.raw(",");
      w.vanilla(c1.vanilla_proofs[k][i]);
    }
    w.raw("]");
  }
  w.raw("]}");
  const std::pair<const char*, const Domain*> tail[] = {{"comm_r", &c1.comm_r},
                                                        {"comm_d", &c1.comm_d},
                                                        {"replica_id", &c1.replica_id},
                                                        {"seed", &c1.seed},
                                                        {"ticket", &c1.ticket}};
  for (const auto& [name, d] : tail) {
    w.raw(",");
    w.key(name);
    w.bytes(*d);
  }
  w.raw("}");
  return std::move(w.out);
}

SealCommitPhase1Output read_c1_file(const std::filesystem::path& path, C1Envelope* envelope) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) {
    // /dev/zero would be read without end, a FIFO would block the open.
    throw ProoflineError(Error::BadC1Json, path.string() + ": not a regular file (a C1 output is a JSON file)");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ProoflineError(Error::BadC1Json, path.string() + ": cannot open");
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxC1JsonBytes) {
    throw ProoflineError(Error::BadC1Json, path.string() + ": " + std::to_string(size) + " bytes, more than the " +
                                               std::to_string(kMaxC1JsonBytes) + " bytes a C1 output can have");
  }
  // Read into a buffer with simdjson's padding after the text: parsed in place, not copied.
  std::string buf;
  std::size_t len = 0;
  if (!ec) {
    buf.resize(size + simdjson::SIMDJSON_PADDING);
    in.read(buf.data(), static_cast<std::streamsize>(size));
    len = static_cast<std::size_t>(in.gcount());
    if (len == size && in.peek() != std::char_traits<char>::eof()) len = size + 1;  // grew while read
  }
  if (ec || len != size) {  // no size, or it changed: read what is there, at most one byte past the limit
    in.clear();
    in.seekg(0);
    buf.assign(kMaxC1JsonBytes + 1 + simdjson::SIMDJSON_PADDING, '\0');
    in.read(buf.data(), static_cast<std::streamsize>(kMaxC1JsonBytes + 1));
    len = static_cast<std::size_t>(in.gcount());  // over the limit: parse_c1 refuses it by its size
    buf.resize(len + simdjson::SIMDJSON_PADDING);
  }
  try {
    return parse_c1(std::string_view(buf.data(), len), true, envelope);
  } catch (const ProoflineError& e) {
    const std::string msg = e.what();
    const std::size_t skip = to_string(e.code()).size() + 2;  // the "<code>: " prefix
    throw ProoflineError(e.code(), path.string() + ": " + msg.substr(std::min(skip, msg.size())));
  }
}

void write_c1_file(const std::filesystem::path& path, const SealCommitPhase1Output& c1) {
  const std::string s = to_json(c1);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(s.data(), static_cast<std::streamsize>(s.size()));
  out.close();  // a full disk shows here, not before
  if (!out) throw std::system_error(errno, std::generic_category(), "cannot write the C1 file '" + path.string() + "'");
}

}  // namespace proofline::filecoin

#pragma GCC diagnostic pop
