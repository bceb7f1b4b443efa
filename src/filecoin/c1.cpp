// C1 JSON: parse with shape validation and JSON-path errors, write in serde's compact form.
#include "proofline/filecoin/c1.hpp"

#include <charconv>
#include <fstream>
#include <nlohmann/json.hpp>
#include <openssl/evp.h>
#include <sstream>

#include "proofline/util/error.hpp"
#include "proofline/util/json.hpp"

namespace proofline::filecoin {

using Json = nlohmann::ordered_json;
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

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw ProoflineError(Error::BadC1Json, path + ": " + what);
}

std::string type_name(const Json& j) { return j.type_name(); }

const Json& field(const Json& obj, const char* key, const std::string& path) {
  if (!obj.is_object()) fail(path.empty() ? "(document)" : path, "expected an object, got " + type_name(obj));
  auto it = obj.find(key);
  if (it == obj.end()) fail(path.empty() ? std::string(key) : path + "." + key, "missing field");
  return *it;
}

const Json& array(const Json& j, const std::string& path, std::size_t expected_len) {
  if (!j.is_array()) fail(path, "expected an array, got " + type_name(j));
  if (j.size() != expected_len) {
    fail(path, "expected " + std::to_string(expected_len) + " elements, got " + std::to_string(j.size()));
  }
  return j;
}

std::uint64_t uint_value(const Json& j, const std::string& path, std::uint64_t max) {
  if (!j.is_number_unsigned() && !(j.is_number_integer() && j.get<std::int64_t>() >= 0)) {
    fail(path, "expected a non-negative integer, got " + (j.is_number() ? j.dump() : type_name(j)));
  }
  const auto v = j.get<std::uint64_t>();
  if (v > max) fail(path, "value " + std::to_string(v) + " exceeds " + std::to_string(max));
  return v;
}

// A 32-byte array; `fr` requires the little-endian value < r.
Domain bytes32(const Json& j, const std::string& path, bool fr) {
  array(j, path, 32);
  Domain d;
  for (std::size_t i = 0; i < 32; ++i) {
    const Json& b = j[i];
    if (!b.is_number_integer() || b.get<std::int64_t>() < 0 || b.get<std::int64_t>() > 255) {
      fail(path + "[" + std::to_string(i) + "]",
           "expected a byte 0..255, got " + (b.is_number() ? b.dump() : type_name(b)));
    }
    d[i] = static_cast<std::uint8_t>(b.get<std::int64_t>());
  }
  if (fr) {
    Fr f;
    if (Fr::from_bytes_le(f, std::span<const std::uint8_t, 32>(d)) != Error::Ok) {
      fail(path, "value >= r (a 32-byte little-endian field element was expected)");
    }
  }
  return d;
}

std::vector<Domain> bytes32_list(const Json& j, const std::string& path, std::size_t n) {
  array(j, path, n);
  std::vector<Domain> v;
  v.reserve(n);
  for (std::size_t i = 0; i < n; ++i) v.push_back(bytes32(j[i], path + "[" + std::to_string(i) + "]", true));
  return v;
}

// Expected levels of an inclusion path: `count` levels of arity `arity`.
std::vector<PathElement> inclusion_path(const Json& j, const std::string& path, std::size_t count, std::size_t arity) {
  const std::string p = path + ".path";
  const Json& list = array(field(j, "path", path), p, count);
  std::vector<PathElement> out;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string pi = p + "[" + std::to_string(i) + "]";
    PathElement e;
    e.hashes = bytes32_list(field(list[i], "hashes", pi), pi + ".hashes", arity - 1);
    e.index = uint_value(field(list[i], "index", pi), pi + ".index", arity - 1);
    out.push_back(std::move(e));
  }
  return out;
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

MerkleProof merkle_proof(const Json& j, const std::string& path, const TreeSpec& spec) {
  const std::string pd = path + ".data";
  const Json& data = field(j, "data", path);
  if (!data.is_object() || data.size() != 1) {
    fail(pd, "expected an object with one key (Single, Sub or Top), got " +
                 (data.is_object() ? std::to_string(data.size()) + " keys" : type_name(data)));
  }
  const std::string kind = data.begin().key();
  const std::string expected(to_string(spec.kind));
  if (kind != expected) {
    fail(pd + "." + kind, "wrong proof kind \"" + kind + "\" for this tree (expected \"" + expected + "\")");
  }
  const Json& body = data.begin().value();
  const std::string pb = pd + "." + kind;
  MerkleProof m;
  m.kind = spec.kind;
  if (spec.kind == MerkleProofKind::Single) {
    m.root = bytes32(field(body, "root", pb), pb + ".root", true);
    m.leaf = bytes32(field(body, "leaf", pb), pb + ".leaf", true);
    m.base = inclusion_path(field(body, "path", pb), pb + ".path", spec.base_levels, spec.base_arity);
    return m;
  }
  m.base = inclusion_path(field(body, "base_proof", pb), pb + ".base_proof", spec.base_levels, spec.base_arity);
  m.sub = inclusion_path(field(body, "sub_proof", pb), pb + ".sub_proof", 1, spec.sub_arity);
  if (spec.kind == MerkleProofKind::Top) {
    m.top = inclusion_path(field(body, "top_proof", pb), pb + ".top_proof", 1, spec.top_arity);
  }
  m.root = bytes32(field(body, "root", pb), pb + ".root", true);
  m.leaf = bytes32(field(body, "leaf", pb), pb + ".leaf", true);
  return m;
}

ColumnProof column_proof(const Json& j, const std::string& path, const SectorShape& s) {
  ColumnProof c;
  const std::string pc = path + ".column";
  const Json& col = field(j, "column", path);
  c.column.index = static_cast<std::uint32_t>(uint_value(field(col, "index", pc), pc + ".index", s.nodes - 1));
  c.column.rows = bytes32_list(field(col, "rows", pc), pc + ".rows", s.layers);
  c.inclusion_proof = merkle_proof(field(j, "inclusion_proof", path), path + ".inclusion_proof", tree_rc_spec(s));
  return c;
}

template <class P>
P labeling(const Json& j, const std::string& path, const SectorShape& s) {
  P l;
  l.parents = bytes32_list(field(j, "parents", path), path + ".parents", kLabelParents);
  l.layer_index = static_cast<std::uint32_t>(uint_value(field(j, "layer_index", path), path + ".layer_index", s.layers));
  l.node = uint_value(field(j, "node", path), path + ".node", s.nodes - 1);
  return l;
}

VanillaProof vanilla_proof(const Json& j, const std::string& path, const SectorShape& s) {
  VanillaProof v;
  v.comm_d_proofs = merkle_proof(field(j, "comm_d_proofs", path), path + ".comm_d_proofs", tree_d_spec(s));
  v.comm_r_last_proof = merkle_proof(field(j, "comm_r_last_proof", path), path + ".comm_r_last_proof",
                                     tree_rc_spec(s));
  const std::string pr = path + ".replica_column_proofs";
  const Json& rcp = field(j, "replica_column_proofs", path);
  v.replica_column_proofs.c_x = column_proof(field(rcp, "c_x", pr), pr + ".c_x", s);
  const Json& drg = array(field(rcp, "drg_parents", pr), pr + ".drg_parents", kBaseDegree);
  for (std::size_t i = 0; i < kBaseDegree; ++i) {
    v.replica_column_proofs.drg_parents.push_back(
        column_proof(drg[i], pr + ".drg_parents[" + std::to_string(i) + "]", s));
  }
  const Json& exp = array(field(rcp, "exp_parents", pr), pr + ".exp_parents", kExpDegree);
  for (std::size_t i = 0; i < kExpDegree; ++i) {
    v.replica_column_proofs.exp_parents.push_back(
        column_proof(exp[i], pr + ".exp_parents[" + std::to_string(i) + "]", s));
  }
  const std::string pl = path + ".labeling_proofs";
  const Json& labels = array(field(j, "labeling_proofs", path), pl, s.layers);
  for (std::size_t i = 0; i < s.layers; ++i) {
    v.labeling_proofs.push_back(labeling<LabelingProof>(labels[i], pl + "[" + std::to_string(i) + "]", s));
  }
  v.encoding_proof = labeling<EncodingProof>(field(j, "encoding_proof", path), path + ".encoding_proof", s);
  return v;
}

}  // namespace

namespace {

/// Strict standard base64 (RFC 4648 §4, '=' padding, no line breaks: Go's base64.StdEncoding).
std::vector<std::uint8_t> base64_decode(std::string_view b64, const std::string& path) {
  if (b64.size() % 4 != 0) {
    fail(path, "base64 text of " + std::to_string(b64.size()) + " characters (expected a multiple of 4)");
  }
  for (std::size_t i = 0; i < b64.size(); ++i) {
    const char c = b64[i];
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
                    c == '/' || (c == '=' && i + 2 >= b64.size() && (i + 1 == b64.size() || b64[i + 1] == '='));
    if (!ok) fail(path, "not base64 at character " + std::to_string(i) + " (expected A-Z a-z 0-9 + / and final '=')");
  }
  std::vector<std::uint8_t> out(b64.size() / 4 * 3);
  const int n = EVP_DecodeBlock(out.data(), reinterpret_cast<const unsigned char*>(b64.data()),
                                static_cast<int>(b64.size()));
  if (n < 0) fail(path, "not valid base64");
  std::size_t pad = 0;
  if (!b64.empty() && b64.back() == '=') pad = (b64[b64.size() - 2] == '=') ? 2 : 1;
  out.resize(static_cast<std::size_t>(n) - pad);
  return out;
}

SealCommitPhase1Output parse_c1_document(const Json& j);

/// The Commit2In envelope (reference cuzk-api §3.1): {"SectorNum", "Phase1Out": base64 C1 JSON,
/// "SectorSize"}.
SealCommitPhase1Output parse_envelope(const Json& j, C1Envelope* envelope) {
  C1Envelope env;
  env.present = true;
  const Json& num = field(j, "SectorNum", "");
  if (!num.is_number_integer()) fail("SectorNum", "expected an integer, got " + type_name(num));
  env.sector_num = num.get<std::int64_t>();
  const Json& size = field(j, "SectorSize", "");
  if (!size.is_number_unsigned() && !(size.is_number_integer() && size.get<std::int64_t>() >= 0)) {
    fail("SectorSize", "expected an unsigned integer, got " + type_name(size));
  }
  env.sector_size = size.get<std::uint64_t>();
  const Json& p1 = field(j, "Phase1Out", "");
  if (!p1.is_string()) fail("Phase1Out", "expected a base64 string, got " + type_name(p1));
  for (const auto& [k, v] : j.items()) {
    if (k != "SectorNum" && k != "SectorSize" && k != "Phase1Out") {
      fail(k, "unknown key in the Commit2In envelope (expected SectorNum, Phase1Out, SectorSize)");
    }
  }
  const std::vector<std::uint8_t> inner = base64_decode(p1.get_ref<const std::string&>(), "Phase1Out");
  SealCommitPhase1Output c1;
  try {
    const std::string_view text(reinterpret_cast<const char*>(inner.data()), inner.size());
    const Json c = json::parse<Json>(text, {kMaxC1JsonBytes}, "(document)", Error::BadC1Json);
    c1 = parse_c1_document(c);
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

SealCommitPhase1Output parse_c1_json(std::string_view text, C1Envelope* envelope) {
  const Json j = json::parse<Json>(text, {kMaxC1JsonBytes}, "(document)", Error::BadC1Json);
  if (envelope) *envelope = C1Envelope{};
  if (j.is_object() && j.contains("Phase1Out")) return parse_envelope(j, envelope);
  return parse_c1_document(j);
}

namespace {

SealCommitPhase1Output parse_c1_document(const Json& j) {
  if (!j.is_object()) fail("(document)", "expected an object, got " + type_name(j));
  SealCommitPhase1Output c1;
  const Json& rp = field(j, "registered_proof", "");
  if (!rp.is_string()) fail("registered_proof", "expected a string, got " + type_name(rp));
  try {
    c1.registered_proof = registered_seal_proof_from_string(rp.get<std::string>());
  } catch (const ProoflineError& e) {
    fail("registered_proof", e.what());
  }
  const PorepConfig cfg = porep_config(c1.registered_proof);
  const SectorShape& s = *cfg.shape;

  const Json& vp = field(j, "vanilla_proofs", "");
  if (!vp.is_object() || vp.size() != 1) {
    fail("vanilla_proofs", "expected an object with one key (" + std::string(s.vanilla_key) + ")");
  }
  const std::string key = vp.begin().key();
  if (key != s.vanilla_key) {
    fail("vanilla_proofs." + key, "wrong key for " + rp.get<std::string>() + " (expected \"" +
                                      std::string(s.vanilla_key) + "\")");
  }
  const std::string pv = "vanilla_proofs." + key;
  const Json& parts = array(vp.begin().value(), pv, cfg.partitions);
  for (std::size_t k = 0; k < cfg.partitions; ++k) {
    const std::string pk = pv + "[" + std::to_string(k) + "]";
    const Json& chs = array(parts[k], pk, cfg.challenges_per_partition);
    std::vector<VanillaProof> part;
    for (std::size_t i = 0; i < cfg.challenges_per_partition; ++i) {
      part.push_back(vanilla_proof(chs[i], pk + "[" + std::to_string(i) + "]", s));
    }
    c1.vanilla_proofs.push_back(std::move(part));
  }
  c1.comm_r = bytes32(field(j, "comm_r", ""), "comm_r", true);
  c1.comm_d = bytes32(field(j, "comm_d", ""), "comm_d", true);
  c1.replica_id = bytes32(field(j, "replica_id", ""), "replica_id", true);
  c1.seed = bytes32(field(j, "seed", ""), "seed", false);
  c1.ticket = bytes32(field(j, "ticket", ""), "ticket", false);
  return c1;
}

}  // namespace

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
  std::ostringstream ss;
  ss << in.rdbuf();
  try {
    return parse_c1_json(ss.str(), envelope);
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
  if (!out) throw ProoflineError(Error::BadArgument, path.string() + ": cannot write the C1 file");
}

}  // namespace proofline::filecoin
