// proofline/filecoin/c1.hpp — the commit-phase-1 output (C1) of a sealed sector: its vanilla PoRep
// proofs and commitments, read from and written to the JSON that filecoin-ffi `seal_commit_phase1`
// produces (serde_json of rust-filecoin-proofs-api `SealCommitPhase1Output`; reference §6).
//
// Owns: `Domain` (32 raw bytes), `PathElement`, `MerkleProof` (Single / Sub / Top), `Column`,
// `ColumnProof`, `ReplicaColumnProof`, `LabelingProof`, `EncodingProof`, `VanillaProof`,
// `SealCommitPhase1Output`, `parse_c1_json`, `to_json`, `read_c1_file`, `write_c1_file`.
//
// JSON shape (keys in serde order; every 32-byte value is an array of 32 integers 0..255):
//   { "registered_proof": "StackedDrg2KiBV1_1",
//     "vanilla_proofs": { "<SectorShape::vanilla_key, e.g. StackedDrg2KiBV1>": [ partitions ×
//                          [ challenges × VanillaProof ] ] },
//     "comm_r": [32], "comm_d": [32], "replica_id": [32], "seed": [32], "ticket": [32] }
//   VanillaProof = { "comm_d_proofs": MerkleProof, "comm_r_last_proof": MerkleProof,
//     "replica_column_proofs": { "c_x": ColumnProof, "drg_parents": [6 × ColumnProof],
//                                "exp_parents": [8 × ColumnProof] },
//     "labeling_proofs": [layers × { "parents": [37 × [32]], "layer_index": u32, "node": u64 }],
//     "encoding_proof": { "parents": [37 × [32]], "layer_index": u32, "node": u64 } }
//   ColumnProof = { "column": { "index": u32, "rows": [layers × [32]], "_h": null },
//                   "inclusion_proof": MerkleProof }
//   MerkleProof = { "data": { "Single": { "root", "leaf", "path": InclusionPath } } }
//              | { "data": { "Sub": { "base_proof": InclusionPath, "sub_proof": InclusionPath, "root", "leaf" } } }
//              | { "data": { "Top": { "base_proof", "sub_proof", "top_proof", "root", "leaf" } } }
//   InclusionPath = { "path": [ { "hashes": [(arity − 1) × [32]], "index": position in the group }, … ] }
//   (leaf level first).
//
// Encodings: comm_r, replica_id, tree C / tree R values, column rows and labels are Poseidon-domain
// bytes = little-endian canonical Fr; comm_d and tree D values are Sha256Domain bytes (trimmed SHA-256
// outputs, also < 2^254 and read as little-endian Fr by the circuit); seed and ticket are raw bytes.
//
// Validation by `parse_c1_json` (all against the registered proof's PorepConfig): every key present
// with the right JSON type; byte arrays exactly 32 integers in 0..255; every Fr-valued 32-byte value
// (everything except seed and ticket) < r; vanilla key = the shape's V1 key; partition and
// challenge counts; 6 DRG and 8 expander column proofs; `layers` rows, `layers` labeling proofs, 37
// parents; Merkle proof kind by tree (tree D: Single; tree C/R: Single for 8-0-0, Sub for 8-8-0 and
// 8-2-0, Top for 8-8-2); path lengths (tree D: log2 nodes; tree C/R: base levels, 1 sub, 1 top);
// `hashes` length arity − 1 and `index` < arity per level. Consistency of the values (hashes,
// labels, challenge indices) is `verify_vanilla`'s job (vanilla.hpp), not the parser's.
// Parsing: json::check_limits on the raw text (size, nesting, NUL bytes), then simdjson's DOM parser
// (Debian libsimdjson-dev) and one walk that validates and fills the structs; a 32 GiB sector's
// ~40 MB C1 reads in a fraction of a second (bench json/parse_c1_json/32GiB). Text simdjson refuses
// is handed to nlohmann's parser for its message (byte offset); an integer too large for 64 bits,
// which nlohmann would read as a double, is named by its byte offset.
// Errors: ProoflineError(Error::BadC1Json) whose message starts with the JSON path of the offending
// value, e.g. "vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs.data.Single.path.path[3].hashes[0]:
// value >= r (...)"; malformed JSON text gives the parser's byte offset.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "proofline/ff/fr.hpp"
#include "proofline/filecoin/sector.hpp"
#include "proofline/hash/merkle.hpp"

namespace proofline::filecoin {

/// 32 raw bytes: a Poseidon or SHA-256 domain element (little-endian Fr) or seed / ticket bytes.
using Domain = std::array<std::uint8_t, 32>;

/// One level of an inclusion path: the arity − 1 siblings (the path's own node removed) and the
/// position of the path's node among the arity children.
struct PathElement {
  std::vector<Domain> hashes;
  std::uint64_t index = 0;
  bool operator==(const PathElement&) const = default;
};

enum class MerkleProofKind { Single, Sub, Top };
std::string_view to_string(MerkleProofKind k);

/// merkletree MerkleProof (storage-proofs-core `merkle/proof.rs`). `base` holds the Single proof's
/// `path` or the Sub/Top proof's `base_proof`; `sub` (one level, Sub and Top) and `top` (one level,
/// Top) the upper paths.
struct MerkleProof {
  MerkleProofKind kind = MerkleProofKind::Single;
  Domain root{};
  Domain leaf{};
  std::vector<PathElement> base;
  std::vector<PathElement> sub;
  std::vector<PathElement> top;
  bool operator==(const MerkleProof&) const = default;

  /// The path as the PoR circuit takes it (siblings as little-endian Fr).
  hash::AuthPath auth_path() const;
  /// The leaf index the positions spell: Σ index_k · Π_{j<k} arity_j, arities from the level sizes
  /// (hashes.size() + 1), base levels first, then sub, then top.
  std::uint64_t leaf_index() const;
};

/// A column: the labels of node `index` in every layer (rows[l − 1] = label of layer l).
struct Column {
  std::uint32_t index = 0;
  std::vector<Domain> rows;
  bool operator==(const Column&) const = default;
};

/// A column and its inclusion in tree C (leaf = Poseidon_layers(rows)).
struct ColumnProof {
  Column column;
  MerkleProof inclusion_proof;
  bool operator==(const ColumnProof&) const = default;
};

struct ReplicaColumnProof {
  ColumnProof c_x;                       ///< the challenged node's column
  std::vector<ColumnProof> drg_parents;  ///< kBaseDegree, in DRG parent order
  std::vector<ColumnProof> exp_parents;  ///< kExpDegree, in expander parent order
  bool operator==(const ReplicaColumnProof&) const = default;
};

/// The labeling of `node` in layer `layer_index` (1-based): label = trim(SHA-256(replica_id ‖
/// u32 BE layer ‖ u64 BE node ‖ 20 zero bytes ‖ parents[0..37])).
struct LabelingProof {
  std::vector<Domain> parents;  ///< kLabelParents (37) parent labels in hashing order
  std::uint32_t layer_index = 0;
  std::uint64_t node = 0;
  bool operator==(const LabelingProof&) const = default;
};

/// Same content for the last layer; the encoding relation is replica = key + data (in Fr), key = that
/// label.
struct EncodingProof {
  std::vector<Domain> parents;
  std::uint32_t layer_index = 0;
  std::uint64_t node = 0;
  bool operator==(const EncodingProof&) const = default;
};

/// storage-proofs-porep stacked vanilla `Proof<Tree, Sha256Hasher>`: one challenge.
struct VanillaProof {
  MerkleProof comm_d_proofs;      ///< tree D (SHA-256, binary), leaf = data node
  MerkleProof comm_r_last_proof;  ///< tree R, leaf = replica node
  ReplicaColumnProof replica_column_proofs;
  std::vector<LabelingProof> labeling_proofs;  ///< layers of them, layer 1 first
  EncodingProof encoding_proof;
  bool operator==(const VanillaProof&) const = default;

  /// The challenged node (labeling_proofs[0].node, what the circuit takes).
  std::uint64_t challenge() const;
};

struct SealCommitPhase1Output {
  RegisteredSealProof registered_proof{};
  /// vanilla_proofs[k][i]: challenge i of partition k.
  std::vector<std::vector<VanillaProof>> vanilla_proofs;
  Domain comm_r{};      ///< Poseidon2(comm_c, comm_r_last), LE Fr
  Domain comm_d{};      ///< root of tree D
  Domain replica_id{};  ///< LE Fr
  Domain seed{};        ///< interactive randomness
  Domain ticket{};      ///< sealing randomness
  bool operator==(const SealCommitPhase1Output&) const = default;
};

/// The largest C1 JSON accepted, in bytes: 256 MiB, the daemon's gRPC message limit. A 32 GiB
/// sector's C1 is ~51 MB (10 partitions x 18 challenges), a 64 GiB one about the same.
inline constexpr std::size_t kMaxC1JsonBytes = std::size_t{256} << 20;

/// What the Commit2In envelope said, when the input was one (see parse_c1_json).
struct C1Envelope {
  bool present = false;          ///< false: the text was the bare C1 JSON
  std::int64_t sector_num = 0;   ///< "SectorNum" (Go int64; not used for proving, as cuzk)
  std::uint64_t sector_size = 0; ///< "SectorSize" in bytes (0 = not given)
};

/// Parses and validates C1 JSON (see the header comment). Throws ProoflineError(Error::BadC1Json),
/// also for a text over kMaxC1JsonBytes or nested deeper than json::kDefaultMaxDepth (checked on the
/// raw text before parsing: no recursion on the input).
///
/// Also accepts the Commit2In envelope that Curio sends to cuzk and lotus-bench writes as c1.json
/// (Go json.Marshal of {SectorNum int64; Phase1Out []byte; SectorSize uint64}; reference cuzk-api
/// §3.1): `{"SectorNum":<int>,"Phase1Out":"<standard base64, padded>","SectorSize":<uint>}`, told
/// apart by its "Phase1Out" key. Phase1Out must decode (strictly: RFC 4648 alphabet, '=' padding,
/// no line breaks) to C1 JSON, which is validated as above (Go re-marshalled JSON, whose keys come
/// in another order, is the same value). SectorSize, when not 0, must be the sector size of the
/// inner registered_proof. Errors inside Phase1Out are prefixed "Phase1Out (base64 of the C1 JSON): ";
/// envelope errors name the key (SectorNum, SectorSize, Phase1Out, or an unknown key). The envelope's
/// fields are returned through `envelope` when it is not null.
SealCommitPhase1Output parse_c1_json(std::string_view text, C1Envelope* envelope = nullptr);
/// serde_json's compact form (no spaces, keys in serde order, `_h: null` in columns); parse_c1_json
/// of the result gives back an equal value.
std::string to_json(const SealCommitPhase1Output& c1);

/// parse_c1_json of a file's contents (errors also name the file; a file over kMaxC1JsonBytes is
/// refused from its size, before reading).
SealCommitPhase1Output read_c1_file(const std::filesystem::path& path, C1Envelope* envelope = nullptr);
/// to_json into a file (tests; the CLI writes through its one output writer): std::system_error
/// naming the file when it cannot be written in full.
void write_c1_file(const std::filesystem::path& path, const SealCommitPhase1Output& c1);

/// Little-endian Fr of a domain value (must be < r; values that passed parse_c1_json are).
ff::Fr domain_fr(const Domain& d);
Domain fr_domain(const ff::Fr& f);

}  // namespace proofline::filecoin
