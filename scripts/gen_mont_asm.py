#!/usr/bin/env python3
"""Generates src/ff/mont_mul_x86_64.S: Montgomery multiplication for the BLS12-381 fields on
x86-64 with BMI2 (mulx) and ADX (adcx/adox: two independent carry chains).

Functions (SysV ABI, output pointer first, all values Montgomery form and fully reduced):
  proofline_mul_mont_{384,256}_adx(r, a, b)  CIOS multiply (below)
  proofline_sqr_mont_384_adx(r, a)           squaring: off-diagonal products once, doubled, plus
                                             the diagonal, then a separate Montgomery reduction
  proofline_mul_fp2_384_adx(r, a, b)         Fp2 multiply, Karatsuba on double-width products
                                             with two reductions (see gen_fp2_mul)
  proofline_sqr_fp2_384_adx(r, a)            Fp2 square, two CIOS products on unreduced factors

Cost model that decided the shapes (Intel Golden Cove / Sapphire Rapids, measured): adc, sbb,
adcx, adox and cmov all issue on ports 0 and 6 only, so time is close to (carry-chain uops) / 2
cycles; mulx (ports 1 and 5) is not the bottleneck. Fewer carry operations, not fewer
multiplications, is what pays.

Algorithm: CIOS (Koc, Acar, Kaliski 1996). Per word b[i] of the multiplier:
  t += a * b[i]                       (mulx; low halves on the OF chain, high halves on the CF chain)
  m  = t[0] * (-p^-1 mod 2^64)
  t  = (t + m * p) / 2^64             (t[0] becomes exactly 0; the shift is a register renaming)
With p < 2^(64N-2) and a, b < p, t stays < 2p and fits in N+1 limbs, so no carry leaves limb N
(the same bound that lets the portable code drop the extra carry word). A final conditional
subtraction brings t below p.

Run: python3 scripts/gen_mont_asm.py > src/ff/mont_mul_x86_64.S
"""

FIELDS = {
    # name: (limbs, modulus little-endian limbs) -- BLS12-381 p and r.
    "384": (6, [0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624,
                0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a]),
    "256": (4, [0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805, 0x73eda753299d7d48]),
}


def neg_inv(m0):
    return (-pow(m0, -1, 1 << 64)) % (1 << 64)


# Results are written with 16-byte stores (two limbs through an xmm register). C++ callers copy
# field elements (48 or 32 bytes) with 16-byte SSE moves; a 16-byte load that reads two separate
# 8-byte stores cannot be store-forwarded and stalls for ~15 cycles, while 8-byte loads of a
# 16-byte store forward normally. Measured on a value-semantics chain x = x * y: 45.6 -> 42.0 ns.
STORE16 = True


def emit_store(e, n, t, out, ooff):
    if not STORE16:
        for j in range(n):
            e(f"  mov {mem(out, ooff + 8 * j)}, {t[j]}")
        return
    for k in range(n // 2):
        e(f"  movq xmm{k}, {t[2 * k]}")
        e(f"  pinsrq xmm{k}, {t[2 * k + 1]}, 1")
    for k in range(n // 2):
        e(f"  movdqu xmmword ptr [{out} + {ooff + 16 * k}], xmm{k}")


def emit_cios(e, n, name, a, aoff, b, boff, regs, zero):
    """CIOS Montgomery product of a[aoff..] and b[boff..] (b's words go through rdx; b must not be
    rdx). Returns the registers holding the result, < 2p (not yet conditionally subtracted). Valid
    for unreduced inputs a, b < 2p as well: every intermediate stays below 2^(64(n+1)) and the
    result below (4p^2 + p·2^(64n)) / 2^(64n) < 2p, because 4p < 2^(64n)."""
    for i in range(n):
        t = [regs[(i + k) % (n + 1)] for k in range(n + 1)]
        e(f"  # ---- i = {i}: t += a * b[{i}]")
        e(f"  mov rdx, {mem(b, boff + 8 * i)}")
        if i == 0:
            # t = a * b[0] directly: one carry chain, no prior t.
            e(f"  mulx {t[1]}, {t[0]}, {mem(a, aoff)}")
            for j in range(1, n):
                e(f"  mulx {t[j + 1]}, rax, {mem(a, aoff + 8 * j)}")
                e(f"  {'add' if j == 1 else 'adc'} {t[j]}, rax")
            e(f"  adc {t[n]}, 0")
        else:
            e("  xor eax, eax            # clear CF and OF")
            for j in range(n):
                e(f"  mulx rbx, rax, {mem(a, aoff + 8 * j)}")
                e(f"  adox {t[j]}, rax")
                if j + 1 < n:
                    e(f"  adcx {t[j + 1]}, rbx")
                else:
                    e(f"  adcx {t[n]}, rbx")
                    e(f"  adox {t[n]}, {zero}")
        e(f"  # m = t0 * inv; t = (t + m*p) >> 64")
        e(f"  mov rdx, {t[0]}")
        e(f"  imul rdx, qword ptr [rip + .L{name}_inv]")
        e("  xor eax, eax")
        for j in range(n):
            e(f"  mulx rbx, rax, qword ptr [rip + .L{name}_mod + {8 * j}]")
            e(f"  adox {t[j]}, rax")
            e(f"  adcx {t[j + 1]}, rbx")
        e(f"  adox {t[n]}, {zero}")
        e(f"  # {t[0]} is now 0 and becomes the next iteration's top limb")
    return [regs[(n + k) % (n + 1)] for k in range(n)]


def gen(name, n, mod):
    out = []
    e = out.append
    fn = f"proofline_mul_mont_{name}_adx"
    # t registers rotate: t[k] lives in regs[(i + k) % (n + 1)] during iteration i.
    regs = ["r8", "r9", "r10", "r11", "r12", "r13", "r14"][: n + 1]
    zero = "r15"
    e(f"  .globl {fn}")
    e(f"  .type {fn},@function")
    e("  .p2align 5")
    e(f"{fn}:  # rdi = r[{n}], rsi = a[{n}], rdx = b[{n}], all Montgomery form < modulus")
    e("  .cfi_startproc")
    scratch = ["rax", "rbx", "rdx", "rcx", "rsi", "rbp"][:n]
    used = set(regs) | {zero, "rbx"} | set(scratch)
    saved = [r for r in ["rbx", "rbp", "r12", "r13", "r14", "r15"] if r in used]
    for r in saved:
        e(f"  push {r}")
    e("  mov rcx, rdx            # rcx = b")
    e(f"  xor {zero}, {zero}")
    t = emit_cios(e, n, name, "rsi", 0, "rcx", 0, regs, zero)
    e("  # final conditional subtraction: r = t >= p ? t - p : t")
    for j in range(n):
        e(f"  mov {scratch[j]}, {t[j]}")
        op = "sub" if j == 0 else "sbb"
        e(f"  {op} {scratch[j]}, qword ptr [rip + .L{name}_mod + {8 * j}]")
    for j in range(n):
        e(f"  cmovnc {t[j]}, {scratch[j]}")
    emit_store(e, n, t, "rdi", 0)
    for r in reversed(saved):
        e(f"  pop {r}")
    e("  ret")
    e("  .cfi_endproc")
    e(f"  .size {fn}, .-{fn}")
    e("  .section .rodata")
    e("  .p2align 6")
    e(f".L{name}_mod:")
    for w in mod:
        e(f"  .quad 0x{w:016x}")
    e(f".L{name}_inv:")
    e(f"  .quad 0x{neg_inv(mod[0]):016x}")
    e("  .text")
    return "\n".join(out)



# ---- building blocks for the fused functions ------------------------------------------------------
# Registers: the product/reduction window lives in r8..r14 (n + 1 of them), r15 holds zero for the
# adox tails, rax/rbx take mulx's low/high halves, rdx is mulx's implicit operand.
WIN = ["r8", "r9", "r10", "r11", "r12", "r13", "r14"]
ZERO = "r15"
SAVED = ["rbx", "rbp", "r12", "r13", "r14", "r15"]


def mem(base, off):
    return f"qword ptr [{base} + {off}]" if off else f"qword ptr [{base}]"


def emit_mul_wide(e, n, a, aoff, b, boff, dst, doff):
    """dst[0 .. 2n) = a * b (schoolbook, one row per word of b; n+1 window registers).
    Row i adds a * b[i] at position i: the row's low limb is final and is stored, the next row's
    new top register is the one that held it (cleared by the xor that also clears CF and OF)."""
    w = WIN[: n + 1]
    e(f"  # {dst}[{doff}..] = {a}[{aoff}..] * {b}[{boff}..]  ({n}x{n} limbs)")
    e(f"  mov rdx, {mem(b, boff)}")
    e(f"  mulx {w[1]}, {w[0]}, {mem(a, aoff)}")
    for j in range(1, n):
        e(f"  mulx {w[j + 1]}, rax, {mem(a, aoff + 8 * j)}")
        e(f"  {'add' if j == 1 else 'adc'} {w[j]}, rax")
    e(f"  adc {w[n]}, 0")
    e(f"  mov {mem(dst, doff)}, {w[0]}")
    for i in range(1, n):
        t = [w[(i + k) % (n + 1)] for k in range(n + 1)]  # t[0..n-1] live, t[n] = new top
        e(f"  mov rdx, {mem(b, boff + 8 * i)}")
        e(f"  xor {t[n]}, {t[n]}")
        for j in range(n):
            e(f"  mulx rbx, rax, {mem(a, aoff + 8 * j)}")
            e(f"  adox {t[j]}, rax")
            e(f"  adcx {t[j + 1]}, rbx")
        e(f"  adox {t[n]}, {ZERO}")
        e(f"  mov {mem(dst, doff + 8 * i)}, {t[0]}")
    t = [w[(n + k) % (n + 1)] for k in range(n + 1)]
    for k in range(n):
        e(f"  mov {mem(dst, doff + 8 * (n + k))}, {t[k]}")


def emit_sqr_wide(e, n, a, aoff, dst, doff):
    """dst[0 .. 2n) = a^2: the off-diagonal products a[i]a[j] (i < j) once, then doubled and the
    squares a[i]^2 added in one pass (doubling on the CF chain, squares on the OF chain).
    Off-diagonal rows accumulate into dst through the window: row i adds a[i]*a[i+1..n) at
    position 2i+1."""
    w = WIN[: n + 1]
    e(f"  # {dst}[{doff}..] = {a}[{aoff}..]^2  ({n} limbs)")
    # Row 0: a0 * a[1..n) -> positions 1..n (n limbs), kept in registers w[1..n].
    e(f"  mov rdx, {mem(a, aoff)}")
    e(f"  mulx {w[2]}, {w[1]}, {mem(a, aoff + 8)}")
    for j in range(2, n):
        e(f"  mulx {w[j + 1]}, rax, {mem(a, aoff + 8 * j)}")
        e(f"  {'add' if j == 2 else 'adc'} {w[j]}, rax")
    e(f"  adc {w[n]}, 0")
    # live: positions 1..n in regs; pos[k] -> register
    pos = {k: w[k] for k in range(1, n + 1)}
    free = [w[0]]
    e(f"  mov {mem(dst, doff + 8)}, {pos.pop(1)}")
    free.append(w[1])
    for i in range(1, n - 1):
        # row i: a[i] * a[i+1..n) adds at positions 2i+1 .. i+n (plus the new top at i+n)
        e(f"  mov rdx, {mem(a, aoff + 8 * i)}")
        top = free.pop(0)
        e(f"  xor {top}, {top}")
        pos[i + n] = top
        for j in range(i + 1, n):
            p = i + j
            e(f"  mulx rbx, rax, {mem(a, aoff + 8 * j)}")
            e(f"  adox {pos[p]}, rax")
            e(f"  adcx {pos[p + 1]}, rbx")
        e(f"  adox {pos[i + n]}, {ZERO}")
        # positions 2i and 2i+1 are now final (2i+1 was just completed).
        for k in (2 * i, 2 * i + 1):
            if k in pos:
                e(f"  mov {mem(dst, doff + 8 * k)}, {pos[k]}")
                free.append(pos.pop(k))
    # remaining positions 2n-3 .. 2n-2 in registers (row n-2 ended at position 2n-2)
    for k in sorted(pos):
        e(f"  mov {mem(dst, doff + 8 * k)}, {pos[k]}")
    # dst[0] = 0 and dst[2n-1] = 0 before doubling
    # Doubling + diagonal: walk positions 0..2n-1 in pairs (2i, 2i+1).
    e(f"  xor eax, eax")
    prev = None
    for i in range(n):
        e(f"  mov rdx, {mem(a, aoff + 8 * i)}")
        e(f"  mulx rbx, rax, rdx")  # a_i^2 = rbx:rax
        lo, hi = "rcx", "rbp"
        if i == 0:
            e(f"  xor {lo}, {lo}")
        else:
            e(f"  mov {lo}, {mem(dst, doff + 16 * i)}")
        if i == n - 1:
            e(f"  mov {hi}, 0")
        else:
            e(f"  mov {hi}, {mem(dst, doff + 16 * i + 8)}")
        e(f"  adcx {lo}, {lo}")
        e(f"  adox {lo}, rax")
        e(f"  adcx {hi}, {hi}")
        e(f"  adox {hi}, rbx")
        e(f"  mov {mem(dst, doff + 16 * i)}, {lo}")
        e(f"  mov {mem(dst, doff + 16 * i + 8)}, {hi}")

def emit_redc(e, n, name, src, soff, mask=None, scratch=None):
    """Montgomery reduction of the 2n-limb T at src: returns the registers holding T·2^(-64n) mod p,
    not yet fully reduced (< 2p). The low half is reduced in the window (n steps of
    t = (t + m·p) / 2^64, m = t0·(−p^-1)), giving u = (T_lo + M·p) / 2^(64n) ≤ p; then the high half
    is added: u + T_hi < 2p when T < p·2^(64n). With `mask` (a register holding 0 or all ones), p·mask
    is added to the high half too: the caller's T was negative (T + p·2^(64n) is reduced instead)."""
    w = WIN[: n + 1]
    e(f"  # reduce {src}[{soff}..] (2n limbs)")
    for k in range(n):
        e(f"  mov {w[k]}, {mem(src, soff + 8 * k)}")
    for i in range(n):
        t = [w[(i + k) % (n + 1)] for k in range(n + 1)]  # t[n] is zero (the previous t[0])
        e(f"  mov rdx, {t[0]}")
        e(f"  imul rdx, qword ptr [rip + .L{name}_inv]")
        e(f"  xor {t[n]}, {t[n]}")
        for j in range(n):
            e(f"  mulx rbx, rax, qword ptr [rip + .L{name}_mod + {8 * j}]")
            e(f"  adox {t[j]}, rax")
            e(f"  adcx {t[j + 1]}, rbx")
        e(f"  adox {t[n]}, {ZERO}")
    t = [w[(n + k) % (n + 1)] for k in range(n)]
    for k in range(n):
        e(f"  {'add' if k == 0 else 'adc'} {t[k]}, {mem(src, soff + 8 * (n + k))}")
    if mask is not None:
        for k in range(n):
            e(f"  mov {scratch[k]}, qword ptr [rip + .L{name}_mod + {8 * k}]")
            e(f"  and {scratch[k]}, {mask}")
        for k in range(n):
            e(f"  {'add' if k == 0 else 'adc'} {t[k]}, {scratch[k]}")
    return t


def emit_final_sub(e, n, name, t, scratch, out, ooff):
    """out = t >= p ? t − p : t (t < 2p), branch-free."""
    for j in range(n):
        e(f"  mov {scratch[j]}, {t[j]}")
        e(f"  {'sub' if j == 0 else 'sbb'} {scratch[j]}, qword ptr [rip + .L{name}_mod + {8 * j}]")
    for j in range(n):
        e(f"  cmovnc {t[j]}, {scratch[j]}")
    emit_store(e, n, t, out, ooff)


def emit_prologue(e, fn, comment, frame):
    e(f"  .globl {fn}")
    e(f"  .type {fn},@function")
    e("  .p2align 5")
    e(f"{fn}:  # {comment}")
    e("  .cfi_startproc")
    for r in SAVED:
        e(f"  push {r}")
    if frame:
        e(f"  sub rsp, {frame}")
    e(f"  xor {ZERO}, {ZERO}")


def emit_epilogue(e, fn, frame):
    if frame:
        e(f"  add rsp, {frame}")
    for r in reversed(SAVED):
        e(f"  pop {r}")
    e("  ret")
    e("  .cfi_endproc")
    e(f"  .size {fn}, .-{fn}")


def gen_sqr(name, n):
    """Montgomery squaring: off-diagonal products once, doubled, plus the diagonal; then reduction."""
    out = []
    e = out.append
    fn = f"proofline_sqr_mont_{name}_adx"
    frame = 16 * n
    emit_prologue(e, fn, f"rdi = r[{n}], rsi = a[{n}] (Montgomery form < modulus); r may alias a", frame)
    emit_sqr_wide(e, n, "rsi", 0, "rsp", 0)
    t = emit_redc(e, n, name, "rsp", 0)
    emit_final_sub(e, n, name, t, ["rax", "rbx", "rdx", "rcx", "rsi", "rbp"][:n], "rdi", 0)
    emit_epilogue(e, fn, frame)
    return "\n".join(out)


def emit_add_into(e, n, dst, doff, a, aoff, b, boff, regs):
    """dst = a + b (n limbs, no reduction; the caller knows the sum fits)."""
    for k in range(n):
        e(f"  mov {regs[k]}, {mem(a, aoff + 8 * k)}")
        e(f"  {'add' if k == 0 else 'adc'} {regs[k]}, {mem(b, boff + 8 * k)}")
    for k in range(n):
        e(f"  mov {mem(dst, doff + 8 * k)}, {regs[k]}")


def gen_fp2_mul(name, n):
    """(a0 + a1 u)(b0 + b1 u), u^2 = −1, with lazy reduction: three 2n-limb products
    T0 = a0·b0, T1 = a1·b1, T2 = (a0 + a1)(b0 + b1) (sums unreduced, < 2p), then
    c1 = REDC(T2 − T0 − T1) (= a0·b1 + a1·b0 < 2p^2 < p·2^(64n)) and
    c0 = REDC(T0 − T1), adding p·2^(64n) when T0 < T1 (|T0 − T1| < p^2 < p·2^(64n)).
    Two reductions instead of three, one call instead of three."""
    out = []
    e = out.append
    fn = f"proofline_mul_fp2_{name}_adx"
    L = 8 * n
    T0, T1, T2, SA, SB = 0, 2 * L, 4 * L, 6 * L, 7 * L
    frame = 8 * L + 8
    emit_prologue(e, fn, f"rdi = r[2][{n}], rsi = a[2][{n}], rdx = b[2][{n}] (c0 then c1); r may alias a or b", frame)
    e("  mov rcx, rdx            # rcx = b")
    emit_add_into(e, n, "rsp", SA, "rsi", 0, "rsi", L, WIN)
    emit_add_into(e, n, "rsp", SB, "rcx", 0, "rcx", L, WIN)
    emit_mul_wide(e, n, "rsi", 0, "rcx", 0, "rsp", T0)
    emit_mul_wide(e, n, "rsi", L, "rcx", L, "rsp", T1)
    emit_mul_wide(e, n, "rsp", SA, "rsp", SB, "rsp", T2)
    e("  # T2 -= T0 + T1 (never negative); T0 -= T1 with its sign as a mask in rbp")
    for src_off in (T0, T1):
        for k in range(2 * n):
            e(f"  mov rax, {mem('rsp', T2 + 8 * k)}")
            e(f"  {'sub' if k == 0 else 'sbb'} rax, {mem('rsp', src_off + 8 * k)}")
            e(f"  mov {mem('rsp', T2 + 8 * k)}, rax")
    for k in range(2 * n):
        e(f"  mov rax, {mem('rsp', T0 + 8 * k)}")
        e(f"  {'sub' if k == 0 else 'sbb'} rax, {mem('rsp', T1 + 8 * k)}")
        e(f"  mov {mem('rsp', T0 + 8 * k)}, rax")
    e("  sbb rbp, rbp")
    scratch = ["rax", "rbx", "rdx", "rcx", "rsi", ZERO]
    t = emit_redc(e, n, name, "rsp", T2)
    emit_final_sub(e, n, name, t, scratch, "rdi", L)
    e(f"  xor {ZERO}, {ZERO}")
    t = emit_redc(e, n, name, "rsp", T0, mask="rbp", scratch=scratch)
    emit_final_sub(e, n, name, t, scratch, "rdi", 0)
    emit_epilogue(e, fn, frame)
    return "\n".join(out)


def gen_fp2_sqr(name, n):
    """(a0 + a1 u)^2 = (a0 + a1)(a0 − a1) + 2·a0·a1·u as two CIOS products in one call, on
    unreduced factors: c0 = MONT(a0 + a1, a0 + p − a1) and c1 = MONT(a0, a1 + a1), all factors < 2p
    (see emit_cios for the bound). Measured here, two interleaved CIOS products beat two wide
    products with separate reductions (the reductions' serial imul chain is exposed)."""
    out = []
    e = out.append
    fn = f"proofline_sqr_fp2_{name}_adx"
    L = 8 * n
    S, D, A2 = 0, L, 2 * L
    frame = 3 * L + 8
    emit_prologue(e, fn, f"rdi = r[2][{n}], rsi = a[2][{n}] (c0 then c1); r may alias a", frame)
    emit_add_into(e, n, "rsp", S, "rsi", 0, "rsi", L, WIN)
    emit_add_into(e, n, "rsp", A2, "rsi", L, "rsi", L, WIN)
    e("  # D = a0 + p − a1")
    for k in range(n):
        e(f"  mov {WIN[k]}, {mem('rsi', 8 * k)}")
        e(f"  {'add' if k == 0 else 'adc'} {WIN[k]}, qword ptr [rip + .L{name}_mod + {8 * k}]")
    for k in range(n):
        e(f"  {'sub' if k == 0 else 'sbb'} {WIN[k]}, {mem('rsi', L + 8 * k)}")
    for k in range(n):
        e(f"  mov {mem('rsp', D + 8 * k)}, {WIN[k]}")
    scratch = ["rax", "rbx", "rdx", "rcx", "rbp", "rsi"]
    t = emit_cios(e, n, name, "rsi", 0, "rsp", A2, WIN[: n + 1], ZERO)
    emit_final_sub(e, n, name, t, scratch, "rdi", L)
    t = emit_cios(e, n, name, "rsp", S, "rsp", D, WIN[: n + 1], ZERO)
    emit_final_sub(e, n, name, t, scratch, "rdi", 0)
    emit_epilogue(e, fn, frame)
    return "\n".join(out)


def main():
    global STORE16
    import sys
    STORE16 = "--store8" not in sys.argv
    print("# GENERATED by scripts/gen_mont_asm.py -- do not edit by hand.")
    print("# Montgomery multiplication for BLS12-381 Fp (384-bit) and Fr (256-bit), BMI2 + ADX.")
    print("  .intel_syntax noprefix")
    print("  .text")
    for name, (n, mod) in FIELDS.items():
        print(gen(name, n, mod))
        print()
    # Dedicated squaring pays for 6 limbs only (measured: 4-limb squaring via the multiply is as fast).
    print(gen_sqr("384", 6))
    print()
    print(gen_fp2_mul("384", 6))
    print()
    print(gen_fp2_sqr("384", 6))
    print()
    print('  .section .note.GNU-stack,"",@progbits')


if __name__ == "__main__":
    main()
