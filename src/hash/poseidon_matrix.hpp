// hash/poseidon_matrix.hpp (private, src/hash/) — the one piece of the constants' matrix algebra
// (poseidon_constants.cpp) that the native hash (poseidon.cpp) uses too.
#pragma once

#include <span>
#include <vector>

#include "proofline/hash/poseidon.hpp"

namespace proofline::hash::detail {

/// v·M (v a row vector): r[j] = Σ_i M[i][j]·v[i] (neptune's apply_matrix).
std::vector<Fr> row_times(const FrMatrix& m, std::span<const Fr> v);

}  // namespace proofline::hash::detail
