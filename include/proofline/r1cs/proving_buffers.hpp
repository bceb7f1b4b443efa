// proofline/r1cs/proving_buffers.hpp — what prover mode produces (ProvingAssignment's buffers).
//
// Owns: `ProvingBuffers` (a, b, c, the two assignments and the three density bitmaps; movable out,
// recyclable). Shapes and meaning: see proving_assignment.hpp, which fills them. Split out of that
// header so that constraint_system.hpp can give gadgets the prover fast path (direct access to the
// buffers being filled, see ConstraintSystem::prover_buffers()) without a cyclic include.
#pragma once

#include <vector>

#include "proofline/ff/fr.hpp"
#include "proofline/r1cs/density.hpp"

namespace proofline::r1cs {

struct ProvingBuffers {
  std::vector<ff::Fr> a, b, c;
  std::vector<ff::Fr> input_assignment;
  std::vector<ff::Fr> aux_assignment;
  DensityTracker a_aux_density;
  DensityTracker b_input_density;
  DensityTracker b_aux_density;

  /// Empties every buffer, keeping capacity.
  void clear() noexcept;
};

}  // namespace proofline::r1cs
