// src/gpu/ff.cuh — BLS12-381 Fr and Fp on the device: Montgomery form over 32-bit limbs with PTX
// carry chains (add.cc/addc, mad.lo.cc/madc.hi.cc), one asm statement per whole chain.
//
// Representation: N little-endian 32-bit limbs of a·R mod m with R = 2^(32N) — the same R as the
// host layer (Fr: 2^256 over 4×64-bit limbs, Fp: 2^384 over 6×64-bit limbs), so a host Fr/Fp array
// is bit-for-bit a device array (limb 2k = low half of host limb k). No conversion on upload.
// Every value is kept fully reduced (< m).
//
// Multiplication: CIOS with the accumulator split by limb parity (src/gpu/mont_mul.cuh: the
// algorithm, its host twin and the paper); the carry chains it is made of are DevChains below.
// Squaring: mont_sqr, the same file's squaring with each off-diagonal product once, doubled (23 %
// fewer multiply-adds for Fp, 21 % for Fr), or with -DPROOFLINE_GPU_DEDICATED_SQR=0 the product a·a.
// The modulus and −m^{-1} mod 2^32 are compile-time constants (field_params.cuh; all loops fully
// unrolled), checked against the host ff layer by static_assert in ff_check.cu.
#pragma once

#include <cstdint>

#include "field_params.cuh"
#include "mont_mul.cuh"

namespace proofline::gpu {

/// The carry chains of mont_mul.cuh, each one asm statement (non-volatile: the compiler may move and
/// interleave whole chains; the carry flag lives only inside one). Instruction k of each string is
/// step k of HostChains<N> (mont_mul.cuh), which tests/gpu_host/mont_mul_test.cpp runs on the host:
///   row      acc[0..N] (+r), x[0..N/2) (r), w (r):  mad.lo.cc acc0 = lo(x0·w) + acc0; madc.hi.cc acc1 =
///            hi(x0·w) + acc1 + cc; madc.lo.cc acc2 … (lo/hi of x[t] into acc[2t], acc[2t+1]); addc accN += cc
///   row_cin  the same with cc = carry(c0 + c1) first (add.cc into a scratch register), every mad a madc
///   add      r[0..N) (+r) += y (r): add.cc, addc.cc …, addc (no carry out)
///   sub      r[0..N) (+r) −= y (r): sub.cc, subc.cc …; then subc mask = 0 − 0 − borrow (0 or 0xffffffff)
/// and mont_sqr's:
///   row_k<K>     row over K < N/2 products: acc[0..2K] (+r), x[0..K) (r), w (r); addc acc2K += cc
///   add_wide     add over 2N words (r, y)
///   dbl_wide     r[0..2N) (+r) doubled: add.cc r0, r0, r0, addc.cc … (no carry out)
///   add_squares  acc[0..2N) (+r) += x_i² (x[0..N) r): mad.lo.cc acc0 = lo(x0·x0) + acc0; madc.hi.cc acc1 …
///                (lo/hi of x[i]² into acc[2i], acc[2i+1]), the last madc.hi without carry out
/// The texts and operand lists are the macros PROOFLINE_{ROW,ROW_CIN,ADD,SUB,ADD_WIDE,DBL_WIDE,
/// SQUARES}[_OPS]_N and PROOFLINE_ROW_K[_OPS]_K (row and row_cin share their text after the first
/// instruction, PROOFLINE_ROW_TAIL_N, and their operands).
// N = 8. row / row_cin: acc %0..%8, x %9..%12, w %13, row_cin's c0 %14, c1 %15.
#define PROOFLINE_ROW_8 "mad.lo.cc.u32 %0, %9, %13, %0;\n\t" PROOFLINE_ROW_TAIL_8
#define PROOFLINE_ROW_CIN_8 \
  "{\n\t.reg .u32 t;\n\tadd.cc.u32 t, %14, %15;\n\tmadc.lo.cc.u32 %0, %9, %13, %0;\n\t" PROOFLINE_ROW_TAIL_8 "\n\t}"
#define PROOFLINE_ROW_TAIL_8 \
  "madc.hi.cc.u32 %1, %9, %13, %1;\n\t" \
  "madc.lo.cc.u32 %2, %10, %13, %2;\n\t" \
  "madc.hi.cc.u32 %3, %10, %13, %3;\n\t" \
  "madc.lo.cc.u32 %4, %11, %13, %4;\n\t" \
  "madc.hi.cc.u32 %5, %11, %13, %5;\n\t" \
  "madc.lo.cc.u32 %6, %12, %13, %6;\n\t" \
  "madc.hi.cc.u32 %7, %12, %13, %7;\n\t" \
  "addc.u32 %8, %8, 0;"
#define PROOFLINE_ROW_OPS_8 \
  : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]), "+r"(acc[3]), "+r"(acc[4]), "+r"(acc[5]), "+r"(acc[6]), "+r"(acc[7]), "+r"(acc[8]) \
  : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(w)
// add: r %0..%7, y %8..%15.
#define PROOFLINE_ADD_8 \
  "add.cc.u32 %0, %0, %8;\n\t" \
  "addc.cc.u32 %1, %1, %9;\n\t" \
  "addc.cc.u32 %2, %2, %10;\n\t" \
  "addc.cc.u32 %3, %3, %11;\n\t" \
  "addc.cc.u32 %4, %4, %12;\n\t" \
  "addc.cc.u32 %5, %5, %13;\n\t" \
  "addc.cc.u32 %6, %6, %14;\n\t" \
  "addc.u32 %7, %7, %15;"
#define PROOFLINE_ADD_OPS_8 \
  : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3]), "+r"(r[4]), "+r"(r[5]), "+r"(r[6]), "+r"(r[7]) \
  : "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(y[3]), "r"(y[4]), "r"(y[5]), "r"(y[6]), "r"(y[7])
// sub: r %0..%7, mask %8, y %9..%16.
#define PROOFLINE_SUB_8 \
  "sub.cc.u32 %0, %0, %9;\n\t" \
  "subc.cc.u32 %1, %1, %10;\n\t" \
  "subc.cc.u32 %2, %2, %11;\n\t" \
  "subc.cc.u32 %3, %3, %12;\n\t" \
  "subc.cc.u32 %4, %4, %13;\n\t" \
  "subc.cc.u32 %5, %5, %14;\n\t" \
  "subc.cc.u32 %6, %6, %15;\n\t" \
  "subc.cc.u32 %7, %7, %16;\n\t" \
  "subc.u32 %8, 0, 0;"
#define PROOFLINE_SUB_OPS_8 \
  : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3]), "+r"(r[4]), "+r"(r[5]), "+r"(r[6]), "+r"(r[7]), "=r"(mask) \
  : "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(y[3]), "r"(y[4]), "r"(y[5]), "r"(y[6]), "r"(y[7])

// N = 12. row / row_cin: acc %0..%12, x %13..%18, w %19, row_cin's c0 %20, c1 %21.
#define PROOFLINE_ROW_12 "mad.lo.cc.u32 %0, %13, %19, %0;\n\t" PROOFLINE_ROW_TAIL_12
#define PROOFLINE_ROW_CIN_12 \
  "{\n\t.reg .u32 t;\n\tadd.cc.u32 t, %20, %21;\n\tmadc.lo.cc.u32 %0, %13, %19, %0;\n\t" PROOFLINE_ROW_TAIL_12 "\n\t}"
#define PROOFLINE_ROW_TAIL_12 \
  "madc.hi.cc.u32 %1, %13, %19, %1;\n\t" \
  "madc.lo.cc.u32 %2, %14, %19, %2;\n\t" \
  "madc.hi.cc.u32 %3, %14, %19, %3;\n\t" \
  "madc.lo.cc.u32 %4, %15, %19, %4;\n\t" \
  "madc.hi.cc.u32 %5, %15, %19, %5;\n\t" \
  "madc.lo.cc.u32 %6, %16, %19, %6;\n\t" \
  "madc.hi.cc.u32 %7, %16, %19, %7;\n\t" \
  "madc.lo.cc.u32 %8, %17, %19, %8;\n\t" \
  "madc.hi.cc.u32 %9, %17, %19, %9;\n\t" \
  "madc.lo.cc.u32 %10, %18, %19, %10;\n\t" \
  "madc.hi.cc.u32 %11, %18, %19, %11;\n\t" \
  "addc.u32 %12, %12, 0;"
#define PROOFLINE_ROW_OPS_12 \
  : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]), "+r"(acc[3]), "+r"(acc[4]), "+r"(acc[5]), "+r"(acc[6]), "+r"(acc[7]), "+r"(acc[8]), "+r"(acc[9]), "+r"(acc[10]), "+r"(acc[11]), "+r"(acc[12]) \
  : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(x[4]), "r"(x[5]), "r"(w)
// add: r %0..%11, y %12..%23.
#define PROOFLINE_ADD_12 \
  "add.cc.u32 %0, %0, %12;\n\t" \
  "addc.cc.u32 %1, %1, %13;\n\t" \
  "addc.cc.u32 %2, %2, %14;\n\t" \
  "addc.cc.u32 %3, %3, %15;\n\t" \
  "addc.cc.u32 %4, %4, %16;\n\t" \
  "addc.cc.u32 %5, %5, %17;\n\t" \
  "addc.cc.u32 %6, %6, %18;\n\t" \
  "addc.cc.u32 %7, %7, %19;\n\t" \
  "addc.cc.u32 %8, %8, %20;\n\t" \
  "addc.cc.u32 %9, %9, %21;\n\t" \
  "addc.cc.u32 %10, %10, %22;\n\t" \
  "addc.u32 %11, %11, %23;"
#define PROOFLINE_ADD_OPS_12 \
  : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3]), "+r"(r[4]), "+r"(r[5]), "+r"(r[6]), "+r"(r[7]), "+r"(r[8]), "+r"(r[9]), "+r"(r[10]), "+r"(r[11]) \
  : "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(y[3]), "r"(y[4]), "r"(y[5]), "r"(y[6]), "r"(y[7]), "r"(y[8]), "r"(y[9]), "r"(y[10]), "r"(y[11])
// sub: r %0..%11, mask %12, y %13..%24.
#define PROOFLINE_SUB_12 \
  "sub.cc.u32 %0, %0, %13;\n\t" \
  "subc.cc.u32 %1, %1, %14;\n\t" \
  "subc.cc.u32 %2, %2, %15;\n\t" \
  "subc.cc.u32 %3, %3, %16;\n\t" \
  "subc.cc.u32 %4, %4, %17;\n\t" \
  "subc.cc.u32 %5, %5, %18;\n\t" \
  "subc.cc.u32 %6, %6, %19;\n\t" \
  "subc.cc.u32 %7, %7, %20;\n\t" \
  "subc.cc.u32 %8, %8, %21;\n\t" \
  "subc.cc.u32 %9, %9, %22;\n\t" \
  "subc.cc.u32 %10, %10, %23;\n\t" \
  "subc.cc.u32 %11, %11, %24;\n\t" \
  "subc.u32 %12, 0, 0;"
#define PROOFLINE_SUB_OPS_12 \
  : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3]), "+r"(r[4]), "+r"(r[5]), "+r"(r[6]), "+r"(r[7]), "+r"(r[8]), "+r"(r[9]), "+r"(r[10]), "+r"(r[11]), "=r"(mask) \
  : "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(y[3]), "r"(y[4]), "r"(y[5]), "r"(y[6]), "r"(y[7]), "r"(y[8]), "r"(y[9]), "r"(y[10]), "r"(y[11])

// mont_sqr's chains (mont_mul.cuh). row_k<K>, K < N/2 products (the same text for N = 8 and 12):
// acc %0..%2K, x %2K+1..%3K, w %3K+1.
#define PROOFLINE_ROW_K_1 \
  "mad.lo.cc.u32 %0, %3, %4, %0;\n\t" \
  "madc.hi.cc.u32 %1, %3, %4, %1;\n\t" \
  "addc.u32 %2, %2, 0;"
#define PROOFLINE_ROW_K_OPS_1 \
  : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]) \
  : "r"(x[0]), "r"(w)
#define PROOFLINE_ROW_K_2 \
  "mad.lo.cc.u32 %0, %5, %7, %0;\n\t" \
  "madc.hi.cc.u32 %1, %5, %7, %1;\n\t" \
  "madc.lo.cc.u32 %2, %6, %7, %2;\n\t" \
  "madc.hi.cc.u32 %3, %6, %7, %3;\n\t" \
  "addc.u32 %4, %4, 0;"
#define PROOFLINE_ROW_K_OPS_2 \
  : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]), "+r"(acc[3]), "+r"(acc[4]) \
  : "r"(x[0]), "r"(x[1]), "r"(w)
#define PROOFLINE_ROW_K_3 \
  "mad.lo.cc.u32 %0, %7, %10, %0;\n\t" \
  "madc.hi.cc.u32 %1, %7, %10, %1;\n\t" \
  "madc.lo.cc.u32 %2, %8, %10, %2;\n\t" \
  "madc.hi.cc.u32 %3, %8, %10, %3;\n\t" \
  "madc.lo.cc.u32 %4, %9, %10, %4;\n\t" \
  "madc.hi.cc.u32 %5, %9, %10, %5;\n\t" \
  "addc.u32 %6, %6, 0;"
#define PROOFLINE_ROW_K_OPS_3 \
  : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]), "+r"(acc[3]), "+r"(acc[4]), "+r"(acc[5]), "+r"(acc[6]) \
  : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(w)
// row_k<4> is N = 8's row (4 products, the same operands).
#define PROOFLINE_ROW_K_4 PROOFLINE_ROW_8
#define PROOFLINE_ROW_K_OPS_4 PROOFLINE_ROW_OPS_8
#define PROOFLINE_ROW_K_5 \
  "mad.lo.cc.u32 %0, %11, %16, %0;\n\t" \
  "madc.hi.cc.u32 %1, %11, %16, %1;\n\t" \
  "madc.lo.cc.u32 %2, %12, %16, %2;\n\t" \
  "madc.hi.cc.u32 %3, %12, %16, %3;\n\t" \
  "madc.lo.cc.u32 %4, %13, %16, %4;\n\t" \
  "madc.hi.cc.u32 %5, %13, %16, %5;\n\t" \
  "madc.lo.cc.u32 %6, %14, %16, %6;\n\t" \
  "madc.hi.cc.u32 %7, %14, %16, %7;\n\t" \
  "madc.lo.cc.u32 %8, %15, %16, %8;\n\t" \
  "madc.hi.cc.u32 %9, %15, %16, %9;\n\t" \
  "addc.u32 %10, %10, 0;"
#define PROOFLINE_ROW_K_OPS_5 \
  : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]), "+r"(acc[3]), "+r"(acc[4]), "+r"(acc[5]), "+r"(acc[6]), "+r"(acc[7]), "+r"(acc[8]), "+r"(acc[9]), "+r"(acc[10]) \
  : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(x[4]), "r"(w)
// N = 8. add_wide: r %0..%15, y %16..%31.
#define PROOFLINE_ADD_WIDE_8 \
  "add.cc.u32 %0, %0, %16;\n\t" \
  "addc.cc.u32 %1, %1, %17;\n\t" \
  "addc.cc.u32 %2, %2, %18;\n\t" \
  "addc.cc.u32 %3, %3, %19;\n\t" \
  "addc.cc.u32 %4, %4, %20;\n\t" \
  "addc.cc.u32 %5, %5, %21;\n\t" \
  "addc.cc.u32 %6, %6, %22;\n\t" \
  "addc.cc.u32 %7, %7, %23;\n\t" \
  "addc.cc.u32 %8, %8, %24;\n\t" \
  "addc.cc.u32 %9, %9, %25;\n\t" \
  "addc.cc.u32 %10, %10, %26;\n\t" \
  "addc.cc.u32 %11, %11, %27;\n\t" \
  "addc.cc.u32 %12, %12, %28;\n\t" \
  "addc.cc.u32 %13, %13, %29;\n\t" \
  "addc.cc.u32 %14, %14, %30;\n\t" \
  "addc.u32 %15, %15, %31;"
#define PROOFLINE_ADD_WIDE_OPS_8 \
  : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3]), "+r"(r[4]), "+r"(r[5]), "+r"(r[6]), "+r"(r[7]), "+r"(r[8]), "+r"(r[9]), "+r"(r[10]), "+r"(r[11]), "+r"(r[12]), "+r"(r[13]), "+r"(r[14]), "+r"(r[15]) \
  : "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(y[3]), "r"(y[4]), "r"(y[5]), "r"(y[6]), "r"(y[7]), "r"(y[8]), "r"(y[9]), "r"(y[10]), "r"(y[11]), "r"(y[12]), "r"(y[13]), "r"(y[14]), "r"(y[15])
// dbl_wide: r %0..%15; its first 15 instructions, N = 12's too:
#define PROOFLINE_DBL_WIDE_HEAD \
  "add.cc.u32 %0, %0, %0;\n\t" \
  "addc.cc.u32 %1, %1, %1;\n\t" \
  "addc.cc.u32 %2, %2, %2;\n\t" \
  "addc.cc.u32 %3, %3, %3;\n\t" \
  "addc.cc.u32 %4, %4, %4;\n\t" \
  "addc.cc.u32 %5, %5, %5;\n\t" \
  "addc.cc.u32 %6, %6, %6;\n\t" \
  "addc.cc.u32 %7, %7, %7;\n\t" \
  "addc.cc.u32 %8, %8, %8;\n\t" \
  "addc.cc.u32 %9, %9, %9;\n\t" \
  "addc.cc.u32 %10, %10, %10;\n\t" \
  "addc.cc.u32 %11, %11, %11;\n\t" \
  "addc.cc.u32 %12, %12, %12;\n\t" \
  "addc.cc.u32 %13, %13, %13;\n\t" \
  "addc.cc.u32 %14, %14, %14;\n\t"
#define PROOFLINE_DBL_WIDE_8 \
  PROOFLINE_DBL_WIDE_HEAD \
  "addc.u32 %15, %15, %15;"
#define PROOFLINE_DBL_WIDE_OPS_8 \
  : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3]), "+r"(r[4]), "+r"(r[5]), "+r"(r[6]), "+r"(r[7]), "+r"(r[8]), "+r"(r[9]), "+r"(r[10]), "+r"(r[11]), "+r"(r[12]), "+r"(r[13]), "+r"(r[14]), "+r"(r[15])
// add_squares: acc %0..%15, x %16..%23.
#define PROOFLINE_SQUARES_8 \
  "mad.lo.cc.u32 %0, %16, %16, %0;\n\t" \
  "madc.hi.cc.u32 %1, %16, %16, %1;\n\t" \
  "madc.lo.cc.u32 %2, %17, %17, %2;\n\t" \
  "madc.hi.cc.u32 %3, %17, %17, %3;\n\t" \
  "madc.lo.cc.u32 %4, %18, %18, %4;\n\t" \
  "madc.hi.cc.u32 %5, %18, %18, %5;\n\t" \
  "madc.lo.cc.u32 %6, %19, %19, %6;\n\t" \
  "madc.hi.cc.u32 %7, %19, %19, %7;\n\t" \
  "madc.lo.cc.u32 %8, %20, %20, %8;\n\t" \
  "madc.hi.cc.u32 %9, %20, %20, %9;\n\t" \
  "madc.lo.cc.u32 %10, %21, %21, %10;\n\t" \
  "madc.hi.cc.u32 %11, %21, %21, %11;\n\t" \
  "madc.lo.cc.u32 %12, %22, %22, %12;\n\t" \
  "madc.hi.cc.u32 %13, %22, %22, %13;\n\t" \
  "madc.lo.cc.u32 %14, %23, %23, %14;\n\t" \
  "madc.hi.u32 %15, %23, %23, %15;"
#define PROOFLINE_SQUARES_OPS_8 \
  : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]), "+r"(acc[3]), "+r"(acc[4]), "+r"(acc[5]), "+r"(acc[6]), "+r"(acc[7]), "+r"(acc[8]), "+r"(acc[9]), "+r"(acc[10]), "+r"(acc[11]), "+r"(acc[12]), "+r"(acc[13]), "+r"(acc[14]), "+r"(acc[15]) \
  : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(x[4]), "r"(x[5]), "r"(x[6]), "r"(x[7])
// N = 12. add_wide: r %0..%23, y %24..%47.
#define PROOFLINE_ADD_WIDE_12 \
  "add.cc.u32 %0, %0, %24;\n\t" \
  "addc.cc.u32 %1, %1, %25;\n\t" \
  "addc.cc.u32 %2, %2, %26;\n\t" \
  "addc.cc.u32 %3, %3, %27;\n\t" \
  "addc.cc.u32 %4, %4, %28;\n\t" \
  "addc.cc.u32 %5, %5, %29;\n\t" \
  "addc.cc.u32 %6, %6, %30;\n\t" \
  "addc.cc.u32 %7, %7, %31;\n\t" \
  "addc.cc.u32 %8, %8, %32;\n\t" \
  "addc.cc.u32 %9, %9, %33;\n\t" \
  "addc.cc.u32 %10, %10, %34;\n\t" \
  "addc.cc.u32 %11, %11, %35;\n\t" \
  "addc.cc.u32 %12, %12, %36;\n\t" \
  "addc.cc.u32 %13, %13, %37;\n\t" \
  "addc.cc.u32 %14, %14, %38;\n\t" \
  "addc.cc.u32 %15, %15, %39;\n\t" \
  "addc.cc.u32 %16, %16, %40;\n\t" \
  "addc.cc.u32 %17, %17, %41;\n\t" \
  "addc.cc.u32 %18, %18, %42;\n\t" \
  "addc.cc.u32 %19, %19, %43;\n\t" \
  "addc.cc.u32 %20, %20, %44;\n\t" \
  "addc.cc.u32 %21, %21, %45;\n\t" \
  "addc.cc.u32 %22, %22, %46;\n\t" \
  "addc.u32 %23, %23, %47;"
#define PROOFLINE_ADD_WIDE_OPS_12 \
  : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3]), "+r"(r[4]), "+r"(r[5]), "+r"(r[6]), "+r"(r[7]), "+r"(r[8]), "+r"(r[9]), "+r"(r[10]), "+r"(r[11]), "+r"(r[12]), "+r"(r[13]), "+r"(r[14]), "+r"(r[15]), "+r"(r[16]), "+r"(r[17]), "+r"(r[18]), "+r"(r[19]), "+r"(r[20]), "+r"(r[21]), "+r"(r[22]), "+r"(r[23]) \
  : "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(y[3]), "r"(y[4]), "r"(y[5]), "r"(y[6]), "r"(y[7]), "r"(y[8]), "r"(y[9]), "r"(y[10]), "r"(y[11]), "r"(y[12]), "r"(y[13]), "r"(y[14]), "r"(y[15]), "r"(y[16]), "r"(y[17]), "r"(y[18]), "r"(y[19]), "r"(y[20]), "r"(y[21]), "r"(y[22]), "r"(y[23])
// dbl_wide: r %0..%23.
#define PROOFLINE_DBL_WIDE_12 \
  PROOFLINE_DBL_WIDE_HEAD \
  "addc.cc.u32 %15, %15, %15;\n\t" \
  "addc.cc.u32 %16, %16, %16;\n\t" \
  "addc.cc.u32 %17, %17, %17;\n\t" \
  "addc.cc.u32 %18, %18, %18;\n\t" \
  "addc.cc.u32 %19, %19, %19;\n\t" \
  "addc.cc.u32 %20, %20, %20;\n\t" \
  "addc.cc.u32 %21, %21, %21;\n\t" \
  "addc.cc.u32 %22, %22, %22;\n\t" \
  "addc.u32 %23, %23, %23;"
#define PROOFLINE_DBL_WIDE_OPS_12 \
  : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3]), "+r"(r[4]), "+r"(r[5]), "+r"(r[6]), "+r"(r[7]), "+r"(r[8]), "+r"(r[9]), "+r"(r[10]), "+r"(r[11]), "+r"(r[12]), "+r"(r[13]), "+r"(r[14]), "+r"(r[15]), "+r"(r[16]), "+r"(r[17]), "+r"(r[18]), "+r"(r[19]), "+r"(r[20]), "+r"(r[21]), "+r"(r[22]), "+r"(r[23])
// add_squares: acc %0..%23, x %24..%35.
#define PROOFLINE_SQUARES_12 \
  "mad.lo.cc.u32 %0, %24, %24, %0;\n\t" \
  "madc.hi.cc.u32 %1, %24, %24, %1;\n\t" \
  "madc.lo.cc.u32 %2, %25, %25, %2;\n\t" \
  "madc.hi.cc.u32 %3, %25, %25, %3;\n\t" \
  "madc.lo.cc.u32 %4, %26, %26, %4;\n\t" \
  "madc.hi.cc.u32 %5, %26, %26, %5;\n\t" \
  "madc.lo.cc.u32 %6, %27, %27, %6;\n\t" \
  "madc.hi.cc.u32 %7, %27, %27, %7;\n\t" \
  "madc.lo.cc.u32 %8, %28, %28, %8;\n\t" \
  "madc.hi.cc.u32 %9, %28, %28, %9;\n\t" \
  "madc.lo.cc.u32 %10, %29, %29, %10;\n\t" \
  "madc.hi.cc.u32 %11, %29, %29, %11;\n\t" \
  "madc.lo.cc.u32 %12, %30, %30, %12;\n\t" \
  "madc.hi.cc.u32 %13, %30, %30, %13;\n\t" \
  "madc.lo.cc.u32 %14, %31, %31, %14;\n\t" \
  "madc.hi.cc.u32 %15, %31, %31, %15;\n\t" \
  "madc.lo.cc.u32 %16, %32, %32, %16;\n\t" \
  "madc.hi.cc.u32 %17, %32, %32, %17;\n\t" \
  "madc.lo.cc.u32 %18, %33, %33, %18;\n\t" \
  "madc.hi.cc.u32 %19, %33, %33, %19;\n\t" \
  "madc.lo.cc.u32 %20, %34, %34, %20;\n\t" \
  "madc.hi.cc.u32 %21, %34, %34, %21;\n\t" \
  "madc.lo.cc.u32 %22, %35, %35, %22;\n\t" \
  "madc.hi.u32 %23, %35, %35, %23;"
#define PROOFLINE_SQUARES_OPS_12 \
  : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]), "+r"(acc[3]), "+r"(acc[4]), "+r"(acc[5]), "+r"(acc[6]), "+r"(acc[7]), "+r"(acc[8]), "+r"(acc[9]), "+r"(acc[10]), "+r"(acc[11]), "+r"(acc[12]), "+r"(acc[13]), "+r"(acc[14]), "+r"(acc[15]), "+r"(acc[16]), "+r"(acc[17]), "+r"(acc[18]), "+r"(acc[19]), "+r"(acc[20]), "+r"(acc[21]), "+r"(acc[22]), "+r"(acc[23]) \
  : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(x[4]), "r"(x[5]), "r"(x[6]), "r"(x[7]), "r"(x[8]), "r"(x[9]), "r"(x[10]), "r"(x[11])

template <int N>
struct DevChains {
  static_assert(N == 8 || N == 12, "PTX chains are written out for Fr (8 limbs) and Fp (12 limbs)");
  __device__ __forceinline__ static void row(uint32_t* acc, const uint32_t* x, uint32_t w) {
    if constexpr (N == 8) asm(PROOFLINE_ROW_8 PROOFLINE_ROW_OPS_8);
    else asm(PROOFLINE_ROW_12 PROOFLINE_ROW_OPS_12);
  }
  __device__ __forceinline__ static void row_cin(uint32_t* acc, const uint32_t* x, uint32_t w, uint32_t c0,
                                                  uint32_t c1) {
    if constexpr (N == 8) asm(PROOFLINE_ROW_CIN_8 PROOFLINE_ROW_OPS_8, "r"(c0), "r"(c1));
    else asm(PROOFLINE_ROW_CIN_12 PROOFLINE_ROW_OPS_12, "r"(c0), "r"(c1));
  }
  __device__ __forceinline__ static void add(uint32_t* r, const uint32_t* y) {
    if constexpr (N == 8) asm(PROOFLINE_ADD_8 PROOFLINE_ADD_OPS_8);
    else asm(PROOFLINE_ADD_12 PROOFLINE_ADD_OPS_12);
  }
  template <int K>
  __device__ __forceinline__ static void row_k(uint32_t* acc, const uint32_t* x, uint32_t w) {
    static_assert(K >= 1 && K < N / 2, "mont_sqr's rows: 1 <= K < N/2");
    if constexpr (K == 1) asm(PROOFLINE_ROW_K_1 PROOFLINE_ROW_K_OPS_1);
    else if constexpr (K == 2) asm(PROOFLINE_ROW_K_2 PROOFLINE_ROW_K_OPS_2);
    else if constexpr (K == 3) asm(PROOFLINE_ROW_K_3 PROOFLINE_ROW_K_OPS_3);
    else if constexpr (K == 4) asm(PROOFLINE_ROW_K_4 PROOFLINE_ROW_K_OPS_4);
    else asm(PROOFLINE_ROW_K_5 PROOFLINE_ROW_K_OPS_5);
  }
  __device__ __forceinline__ static void add_wide(uint32_t* r, const uint32_t* y) {
    if constexpr (N == 8) asm(PROOFLINE_ADD_WIDE_8 PROOFLINE_ADD_WIDE_OPS_8);
    else asm(PROOFLINE_ADD_WIDE_12 PROOFLINE_ADD_WIDE_OPS_12);
  }
  __device__ __forceinline__ static void dbl_wide(uint32_t* r) {
    if constexpr (N == 8) asm(PROOFLINE_DBL_WIDE_8 PROOFLINE_DBL_WIDE_OPS_8);
    else asm(PROOFLINE_DBL_WIDE_12 PROOFLINE_DBL_WIDE_OPS_12);
  }
  __device__ __forceinline__ static void add_squares(uint32_t* acc, const uint32_t* x) {
    if constexpr (N == 8) asm(PROOFLINE_SQUARES_8 PROOFLINE_SQUARES_OPS_8);
    else asm(PROOFLINE_SQUARES_12 PROOFLINE_SQUARES_OPS_12);
  }
  __device__ __forceinline__ static uint32_t sub(uint32_t* r, const uint32_t* y) {
    uint32_t mask;
    if constexpr (N == 8) asm(PROOFLINE_SUB_8 PROOFLINE_SUB_OPS_8);
    else asm(PROOFLINE_SUB_12 PROOFLINE_SUB_OPS_12);
    return mask;
  }
};

/// DevField::sqr() by mont_sqr (mont_mul.cuh's dedicated squaring, 23 % fewer multiply-adds for Fp)
/// instead of the product a·a, for every field without a kDedicatedSqr of its own. On by default:
/// verified on the host (tests/gpu_host/mont_mul_test.cpp: the algorithm and the PTX of its chains)
/// and on an H100 (test_gpu's field, MSM, NTT and whole-proof tests), where it took G1 2^27 from 844.1
/// to 834.5 ms and 2^26 from 447.9 to 444.8 (bench/RESULTS.md, 2026-12-08).
/// -DPROOFLINE_GPU_DEDICATED_SQR=0: the product, for comparison.
#ifndef PROOFLINE_GPU_DEDICATED_SQR
#define PROOFLINE_GPU_DEDICATED_SQR 1
#endif

template <class P>
struct DevField {
  static constexpr int N = P::N;
  uint32_t v[N];
  /// P::kInPlace where P has it (FpInPlaceParams32: DevFpInPlace, the "lean" G1 MSM kernels), else
  /// false: products by reference (mul_ref, square_ref; operator* too), and DevXyzz over this field
  /// runs the in-place formulas (xyzz_in_place.cuh).
  static constexpr bool kInPlace = [] {
    if constexpr (requires { P::kInPlace; }) return P::kInPlace;
    else return false;
  }();
  /// P::kDedicatedSqr where P has it, else PROOFLINE_GPU_DEDICATED_SQR: sqr() and square_ref run
  /// mont_sqr, else the product x·x.
  static constexpr bool kDedicatedSqr = [] {
    if constexpr (requires { P::kDedicatedSqr; }) return P::kDedicatedSqr;
    else return PROOFLINE_GPU_DEDICATED_SQR != 0;
  }();
  /// P::kMinBlocks where P has it, else 0: msm.cuh's kBucketKernelBlocks (0: no minimum).
  static constexpr int kMinBlocks = [] {
    if constexpr (requires { P::kMinBlocks; }) return P::kMinBlocks;
    else return 0;
  }();

  __host__ __device__ static DevField zero() {
    DevField r;
#pragma unroll
    for (int i = 0; i < N; ++i) r.v[i] = 0;
    return r;
  }
  __host__ __device__ static DevField one() {
    DevField r;
#pragma unroll
    for (int i = 0; i < N; ++i) r.v[i] = P::one_limb(i);
    return r;
  }
  __device__ bool is_zero() const {
    uint32_t acc = 0;
#pragma unroll
    for (int i = 0; i < N; ++i) acc |= v[i];
    return acc == 0;
  }
  __device__ bool is_one() const {
    uint32_t acc = 0;
#pragma unroll
    for (int i = 0; i < N; ++i) acc |= v[i] ^ P::one_limb(i);
    return acc == 0;
  }
  __device__ friend bool operator==(const DevField& a, const DevField& b) {
    uint32_t acc = 0;
#pragma unroll
    for (int i = 0; i < N; ++i) acc |= a.v[i] ^ b.v[i];
    return acc == 0;
  }
  __device__ friend bool operator!=(const DevField& a, const DevField& b) { return !(a == b); }

  using Chains = DevChains<N>;

  /// x = x − m if x >= m else x, for x < 2m held in N limbs (m < 2^(32N−1)).
  __device__ static void reduce_once(uint32_t* x) { gpu::reduce_once<P, Chains>(x); }
  __device__ friend DevField operator+(const DevField& a, const DevField& b) {
    DevField r;
    mod_add<P, Chains>(r.v, a.v, b.v);
    return r;
  }
  __device__ friend DevField operator-(const DevField& a, const DevField& b) {
    DevField r;
    mod_sub<P, Chains>(r.v, a.v, b.v);
    return r;
  }
  __device__ DevField operator-() const { return zero() - *this; }
  __device__ DevField dbl() const { return *this + *this; }

  /// Montgomery product a·b·R^{-1} mod m; inlined when P::kOutlineMul is false, else one shared
  /// non-inlined copy (mul_outlined): the G1 bucket kernels inline ~10 Fp products per point
  /// addition, and Nsight Compute on the H200 put 30 % of their stall cycles on instruction fetch.
  /// kInPlace: one non-inlined product with operands and result by reference (mul_ref; what is
  /// live across the call is what the caller holds, no argument registers).
  __device__ friend DevField operator*(const DevField& a, const DevField& b) {
    if constexpr (kInPlace) {
      DevField r;
      mul_ref(r, a, b);
      return r;
    } else if constexpr (P::kOutlineMul) {
      return mul_outlined(a, b);
    } else {
      return mul_inline(a, b);
    }
  }
  __device__ __noinline__ static DevField mul_outlined(const DevField a, const DevField b) { return mul_inline(a, b); }
  /// r = a·b and r = x^2 (the Montgomery product, or mont_sqr where kDedicatedSqr), non-inlined,
  /// through references (r may alias an operand): the products of the in-place XYZZ formulas (ec.cuh's
  /// RefProductOps) for a kInPlace field. Compiled only where used (DevFpInPlace).
  __device__ __noinline__ static void mul_ref(DevField& r, const DevField& a, const DevField& b) { r = mul_inline(a, b); }
  __device__ __noinline__ static void square_ref(DevField& r, const DevField& x) {
    if constexpr (kDedicatedSqr) r = sqr_inline(x);
    else r = mul_inline(x, x);
  }
  /// mont_sqr non-inlined, where P::kOutlineMul (as mul_outlined).
  __device__ __noinline__ static DevField sqr_outlined(const DevField x) { return sqr_inline(x); }

  /// Montgomery product a·b·R^{-1} mod m (mont_mul.cuh over DevChains), always inlined.
  __device__ __forceinline__ static DevField mul_inline(const DevField& a, const DevField& b) {
    DevField r;
    mont_mul<P, Chains>(r.v, a.v, b.v);
    return r;
  }
  /// Montgomery square x·x·R^{-1} mod m by mont_sqr (mont_mul.cuh over DevChains), always inlined.
  __device__ __forceinline__ static DevField sqr_inline(const DevField& x) {
    DevField r;
    mont_sqr<P, Chains>(r.v, x.v);
    return r;
  }
  __device__ DevField& operator+=(const DevField& b) { return *this = *this + b; }
  __device__ DevField& operator-=(const DevField& b) { return *this = *this - b; }
  __device__ DevField& operator*=(const DevField& b) { return *this = *this * b; }
  /// x^2: the product x·x, or with kDedicatedSqr mont_sqr, called the way operator* calls the product
  /// (by reference for kInPlace, one non-inlined copy for kOutlineMul, else inlined).
  __device__ DevField sqr() const {
    if constexpr (!kDedicatedSqr) {
      return *this * *this;
    } else if constexpr (kInPlace) {
      DevField r;
      square_ref(r, *this);
      return r;
    } else if constexpr (P::kOutlineMul) {
      return sqr_outlined(*this);
    } else {
      return sqr_inline(*this);
    }
  }

  /// this^e for a 64-bit exponent (square-and-multiply, MSB first).
  __device__ DevField pow(uint64_t e) const {
    DevField r = one();
    for (int b = 63; b >= 0; --b) {
      r = r.sqr();
      if ((e >> b) & 1) r = r * *this;
    }
    return r;
  }
};

using DevFr = DevField<FrParams32>;
using DevFp = DevField<FpParams32>;
/// The Fp of msm.cuh's "lean" G1 bucket kernels (PROOFLINE_G1_KERNELS=lean-4: 4 blocks of 128 per
/// SM, ≤ 128 registers; lean-5: 5 blocks, ≤ 102 registers): DevFp's layout and values, products by
/// reference, XYZZ additions in place (kInPlace), kMinBlocks = kBlocks.
template <int kBlocks>
using DevFpInPlace = DevField<FpInPlaceParams32<kBlocks>>;
static_assert(sizeof(DevFr) == 32 && sizeof(DevFp) == 48 && sizeof(DevFpInPlace<4>) == 48,
              "device fields mirror host layout");
static_assert(!DevFp::kInPlace && DevFp::kMinBlocks == 0 && DevFpInPlace<5>::kInPlace &&
                  DevFpInPlace<5>::kMinBlocks == 5,
              "only DevFpInPlace runs the in-place formulas");

/// How DevFp2T compiles its products; every variant performs the same Fp operations in the same order
/// (Karatsuba: t0 = a0·b0, t1 = a1·b1, t2 = (a0 + a1)(b0 + b1), c0 = t0 − t1, c1 = t2 − t0 − t1;
/// square: c0 = (x0 + x1)(x0 − x1), c1 = 2·x0·x1), so the values are the same.
///   kByValue  one non-inlined Fp2 product taking its operands by value and returning the result
///             (the Fp products inside inlined): one call per Fp2 product. Inlined, the G2 bucket
///             accumulation kernel spent 66 % of its stall cycles waiting for instruction fetch
///             (Nsight Compute on the H200, bench/RESULTS.md). In the 255-register G2 kernels ptxas
///             (sm_90) saves and restores 72–256 B of registers per call inside the product, and the
///             reduction kernel spills 26 KB.
///   kByRef    the same non-inlined body behind out/in references (mul_ref, square_ref): operands
///             and result go through the caller's stack frame (explicit local memory) instead of
///             ~72 argument/return registers, which removes almost all spilling in the G2 MSM
///             kernels (msm.cuh's "new" G2 kernels, PROOFLINE_G2_KERNELS).
///   kInPlace  kByRef's products, as functions of their own (so that kernels bounded to fewer
///             registers compile them without changing kByRef's code), for the XYZZ formulas that
///             write every product into existing storage (xyzz_in_place.cuh; ec.cuh's DevXyzz takes
///             them where kInPlace is set): msm.cuh's "lean" G2 kernels. kMinBlocks (DevFp2T's second
///             argument) is the __launch_bounds__ minimum of blocks those kernels are compiled for.
enum class Fp2Code { kByValue, kByRef, kInPlace };

/// Fp2 = Fp[u]/(u^2 + 1) on the device (c0 + c1·u), same layout as the host ff::Fp2, whatever kCode.
template <Fp2Code kCode, int kBlocks = 0>
struct DevFp2T {
  DevFp c0, c1;
  /// Whether DevXyzz over this field runs the in-place formulas (xyzz_in_place.cuh).
  static constexpr bool kInPlace = kCode == Fp2Code::kInPlace;
  /// Blocks of 128 threads per SM that msm.cuh's bucket kernels over this field are compiled for
  /// (__launch_bounds__' minimum; 0: none, the PTX of a kernel without one). A type of its own per
  /// bound, so that its non-inlined products are compiled once per bound.
  static constexpr int kMinBlocks = kBlocks;
  __host__ __device__ static DevFp2T zero() { return {DevFp::zero(), DevFp::zero()}; }
  __host__ __device__ static DevFp2T one() { return {DevFp::one(), DevFp::zero()}; }
  __device__ bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  __device__ friend bool operator==(const DevFp2T& a, const DevFp2T& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
  __device__ friend DevFp2T operator+(const DevFp2T& a, const DevFp2T& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  __device__ friend DevFp2T operator-(const DevFp2T& a, const DevFp2T& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  __device__ DevFp2T operator-() const { return {-c0, -c1}; }
  __device__ DevFp2T dbl() const { return {c0.dbl(), c1.dbl()}; }
  /// Karatsuba, 3 Fp multiplications, not inlined (kByValue's call).
  __device__ __noinline__ static DevFp2T mul(const DevFp2T a, const DevFp2T b) { return mul_body(a, b); }
  __device__ __noinline__ static DevFp2T square(const DevFp2T x) { return square_body(x); }
  /// The same, not inlined, through references (kByRef's call). r may alias a, b or x: the whole
  /// product is computed before r is written.
  __device__ __noinline__ static void mul_ref(DevFp2T& r, const DevFp2T& a, const DevFp2T& b) { r = mul_body(a, b); }
  __device__ __noinline__ static void square_ref(DevFp2T& r, const DevFp2T& x) { r = square_body(x); }
  __device__ friend DevFp2T operator*(const DevFp2T& a, const DevFp2T& b) {
    if constexpr (kCode != Fp2Code::kByValue) {
      DevFp2T r;
      mul_ref(r, a, b);
      return r;
    } else {
      return mul(a, b);
    }
  }
  __device__ DevFp2T sqr() const {
    if constexpr (kCode != Fp2Code::kByValue) {
      DevFp2T r;
      square_ref(r, *this);
      return r;
    } else {
      return square(*this);
    }
  }
  __device__ DevFp2T& operator+=(const DevFp2T& b) { return *this = *this + b; }
  __device__ DevFp2T& operator-=(const DevFp2T& b) { return *this = *this - b; }
  __device__ DevFp2T& operator*=(const DevFp2T& b) { return *this = *this * b; }

 private:
  /// The Fp products inlined (DevFp::mul_inline).
  __device__ __forceinline__ static DevFp2T mul_body(const DevFp2T& a, const DevFp2T& b) {
    DevFp t0 = DevFp::mul_inline(a.c0, b.c0), t1 = DevFp::mul_inline(a.c1, b.c1);
    DevFp t2 = DevFp::mul_inline(a.c0 + a.c1, b.c0 + b.c1);
    return {t0 - t1, t2 - t0 - t1};
  }
  __device__ __forceinline__ static DevFp2T square_body(const DevFp2T& x) {
    DevFp a = x.c0 + x.c1, b = x.c0 - x.c1, c = DevFp::mul_inline(x.c0, x.c1);
    return {DevFp::mul_inline(a, b), c.dbl()};
  }
};
/// The Fp2 of every G2 kernel but msm.cuh's "new" G2 MSM kernels.
using DevFp2 = DevFp2T<Fp2Code::kByValue>;
/// The Fp2 of msm.cuh's "new" G2 MSM kernels (PROOFLINE_G2_KERNELS=new, the default).
using DevFp2ByRef = DevFp2T<Fp2Code::kByRef>;
/// The Fp2 of msm.cuh's "lean" G2 MSM kernels: PROOFLINE_G2_KERNELS=lean (3 blocks per SM, ≤ 168
/// registers) and lean-4 (4 blocks, ≤ 128 registers).
template <int kBlocks>
using DevFp2InPlace = DevFp2T<Fp2Code::kInPlace, kBlocks>;
static_assert(sizeof(DevFp2) == 96 && sizeof(DevFp2ByRef) == 96 && sizeof(DevFp2InPlace<3>) == 96,
              "device Fp2 mirrors host layout");

}  // namespace proofline::gpu
