// proofline/filecoin/post_bincode.hpp — the bytes of a PoSt vanilla proof as nodes send them:
// bincode (v1, little-endian, fixed-width integers) of filecoin-proofs `FallbackPoStSectorProof<Tree>`
// (what ffi GenerateSingleVanillaProof returns; cuzk `vanilla_proofs`, cuzk-api §3.2).
//
// Owns: `PostBincodeError`, `PostDecodeLimits`, `decode_fallback_post_sector_proof`,
// `encode_fallback_post_sector_proof`, `fallback_post_sector_proof_size`.
//
// Layout (serde field order; u32/u64 little-endian; Domain = 32 raw bytes, a PoseidonDomain's
// little-endian Fr; Vec = u64 length then the elements; enums = u32 variant index; PhantomData = nothing):
//   FallbackPoStSectorProof = sector_id u64 ‖ comm_r Domain ‖ vanilla_proof: Vec<SectorProof>
//   SectorProof   = inclusion_proofs: Vec<MerkleProof> ‖ comm_c Domain ‖ comm_r_last Domain
//   MerkleProof   = u32 variant ‖ fields: 0 Single { root, leaf, path: InclusionPath }
//                                         1 Sub    { base_proof, sub_proof, root, leaf }
//                                         2 Top    { base_proof, sub_proof, top_proof, root, leaf }
//   InclusionPath = Vec<PathElement>;  PathElement = hashes: Vec<Domain> ‖ index u64
// Size for one sector proof of C challenges over tree R with b base levels of arity a (plus sub /
// top levels): 48 + 8 + C·(4 + 8·(1 + [sub] + [top]) + Σ_levels (8 + 32·(arity − 1) + 8) + 64) + 64;
// 32 GiB (8-8-0, 9 base levels), C = 10: 24,960 bytes — the size of Curio's lib/proof/testgolden/post.vproof.
//
// Strictness (all against the sector size's tree R shape and the challenge count the caller
// expects): the variant is the one of the shape (Single for x-0-0, Sub for x-y-0, Top for x-y-z);
// each path has exactly the shape's levels; every `hashes` has arity − 1 entries, every `index` <
// arity; every Domain < r; exactly one SectorProof; `challenges` inclusion proofs; no trailing
// bytes. Lengths are checked against the bytes left and the limits before anything is allocated.
// Consistency of values (roots, leaves, challenges) is verify_post_vanilla's job (post.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "proofline/filecoin/bincode.hpp"
#include "proofline/filecoin/post.hpp"
#include "proofline/util/error.hpp"

namespace proofline::filecoin {

/// A refused byte string (filecoin/bincode.hpp): what() = "bincode FallbackPoStSectorProof: <field> at
/// byte <offset>: <found>, expected <expected>", field e.g.
/// "vanilla_proof[0].inclusion_proofs[3].base_proof[1].hashes".
class PostBincodeError : public BincodeError {
 public:
  PostBincodeError(Error code, std::size_t offset, std::string field, std::string expected, const std::string& found);
};

struct PostDecodeLimits {
  /// Largest input accepted (a 64 GiB Winning proof of 66 challenges is ~178 KB).
  std::size_t max_bytes = std::size_t{1} << 20;
};

/// Decodes one FallbackPoStSectorProof for sector size `sector_bytes` with `challenges` inclusion
/// proofs (Window: 10, Winning: 66). Throws PostBincodeError (see above), ProoflineError(BadArgument)
/// for an unsupported sector size.
FallbackPoStSectorProof decode_fallback_post_sector_proof(std::span<const std::uint8_t> bytes,
                                                          std::uint64_t sector_bytes, std::size_t challenges,
                                                          const PostDecodeLimits& limits = {});
/// The bincode bytes (decode of them gives back an equal value when the shape fits).
std::vector<std::uint8_t> encode_fallback_post_sector_proof(const FallbackPoStSectorProof& p);
/// Bytes of a well-formed proof of `challenges` challenges at `sector_bytes` (formula above).
std::size_t fallback_post_sector_proof_size(std::uint64_t sector_bytes, std::size_t challenges);

}  // namespace proofline::filecoin
