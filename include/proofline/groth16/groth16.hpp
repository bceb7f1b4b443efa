// proofline/groth16/groth16.hpp — the groth16 layer: Groth16 over BLS12-381, byte-compatible with
// Filecoin's bellperson.
//
// Owns (one header each):
//   params.hpp    VerifyingKey, Parameters: bellperson .vk / .params read (mmap, parallel,
//                 checked/unchecked) and write (whole, or streamed section by section: ParamsWriter)
//   proof.hpp     Proof: 192-byte encoding, multi-partition proofs
//   random.hpp    OsRandom (OpenSSL), SeededRandom, uniform Fr sampling
//   backend.hpp   ProverBackend (the CPU/GPU seam), CpuBackend, proof assembly, StageTimings
//   prover.hpp    synthesis front: synthesize_for_proving, draw_randomizers, public_inputs
//   setup.hpp     generate_parameters (development/tests only; NOT secure), streamed, bounded memory
//   verifier.hpp  PreparedVerifyingKey, verify_proof(_bytes), verify_proofs_batch
//   snarkjs.hpp   verification_key.json / proof.json / public.json export and import
//   param_cache.hpp  a Filecoin parameter cache checked against the published digests (BLAKE2b-512,
//                 parameters.json, section-header walk)
// Depends on ff, ec, pairing, poly, msm, r1cs.
#pragma once

#include "proofline/groth16/backend.hpp"
#include "proofline/groth16/params.hpp"
#include "proofline/groth16/proof.hpp"
#include "proofline/groth16/prover.hpp"
#include "proofline/groth16/random.hpp"
#include "proofline/groth16/setup.hpp"
#include "proofline/groth16/snarkjs.hpp"
#include "proofline/groth16/verifier.hpp"
