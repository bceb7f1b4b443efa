// proofline/poly/poly.hpp — the poly/ layer: evaluation domains and NTTs over Fr on the CPU.
//
// Owns: `EvaluationDomain` (radix-2 subgroups of Fr up to 2^32 points, their coset by g = 7, NTT /
// iNTT / coset NTT in place over std::span<Fr>; poly/domain.hpp) and `compute_h`, Groth16's quotient
// H = (A·B − C)/Z in bellperson's convention (poly/quotient.hpp). Depends on ff/ only; multithreaded
// with oneTBB. The CUDA counterparts live in gpu/ and must give identical numbers.
#pragma once

#include "proofline/poly/domain.hpp"
#include "proofline/poly/quotient.hpp"
