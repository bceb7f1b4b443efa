// Cross-check of proofline's tower and pairing against @noble/curves (BLS12-381).
// Usage: node pairing_check.mjs <path to oracle_pairing_dump>   (seeds 1..3 are checked)
// Node modules: $PROOFLINE_ORACLE_DIR (default <repo>/.oracle), installed by scripts/install-deps.sh.
// Prints the first mismatch and exits 1; exits 0 with a summary when everything agrees.
//
// Final-exponent convention: noble 2.4.0's Fp12.finalExponentiate (hence bls12_381.pairing) uses
// the Fuentes-Castañeda–Knapp–Rodríguez-Henríquez chain for 3·(p^4 − p^2 + 1)/r, i.e. it computes
// f^(3·(p^12 − 1)/r), the cube of the standard value. proofline computes the standard
// f^((p^12 − 1)/r). So every pairing value v from proofline is checked as noble(...) == v^3
// (cubing is a bijection on GT since gcd(3, r) = 1), and in addition one final exponentiation per
// seed and e(G1, G2) are checked against noble's own f^((p^12 − 1)/r) with the literal exponent.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const exe = process.argv[2];
if (!exe) {
  console.error('usage: node pairing_check.mjs <oracle_pairing_dump executable>');
  process.exit(2);
}
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = process.env.PROOFLINE_ORACLE_DIR || path.join(repo, '.oracle');
let bls12_381;
try {
  ({ bls12_381 } = await import(pathToFileURL(path.join(dir, 'node_modules/@noble/curves/bls12-381.js')).href));
} catch (e) {
  console.error(`cannot load @noble/curves from ${dir}/node_modules (run scripts/install-deps.sh): ${e.message}`);
  process.exit(1);
}
const { Fp, Fp2, Fp6, Fp12 } = bls12_381.fields;
const G1 = bls12_381.G1.Point;
const G2 = bls12_381.G2.Point;
const P = Fp.ORDER;
const R = bls12_381.fields.Fr.ORDER;
const BLS_X = 0xd201000000010000n; // |x|, x negative
const FINAL_EXP = (P ** 12n - 1n) / R;
if ((P ** 12n - 1n) % R !== 0n) throw new Error('r does not divide p^12 - 1');

// ---- conversions between dump arrays (tower order, hex) and noble values ----
const big = (h) => BigInt(h);
const toFp2 = (a, i = 0) => Fp2.create({ c0: Fp.create(big(a[i])), c1: Fp.create(big(a[i + 1])) });
const toFp6 = (a, i = 0) => Fp6.create({ c0: toFp2(a, i), c1: toFp2(a, i + 2), c2: toFp2(a, i + 4) });
const toFp12 = (a) => Fp12.create({ c0: toFp6(a, 0), c1: toFp6(a, 6) });
const flat2 = (x) => [x.c0, x.c1];
const flat6 = (x) => [...flat2(x.c0), ...flat2(x.c1), ...flat2(x.c2)];
const flat12 = (x) => [...flat6(x.c0), ...flat6(x.c1)];
const names12 = [];
for (const a of ['c0', 'c1']) for (const b of ['c0', 'c1', 'c2']) for (const c of ['c0', 'c1']) names12.push(`${a}.${b}.${c}`);
const names6 = names12.slice(6).map((n) => n.slice(3));

let checks = 0;
function fail(what, name, got, want) {
  console.error(`MISMATCH ${what}: coefficient ${name}: proofline 0x${got.toString(16)}, noble 0x${want.toString(16)}`);
  process.exit(1);
}
function same(what, ours, theirs, flat, names) {
  const a = flat(ours), b = flat(theirs);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) fail(what, names[i], a[i], b[i]);
  checks++;
}
const same12 = (what, ours, theirs) => same(what, ours, theirs, flat12, names12);
const same6 = (what, ours, theirs) => same(what, ours, theirs, flat6, names6);
const cube = (x) => Fp12.mul(Fp12.sqr(x), x);

// The shape of noble's values must be the one the dump order assumes.
{
  const e = bls12_381.pairing(G1.BASE, G2.BASE);
  if (!(e.c0 && e.c1 && e.c0.c2 && typeof e.c1.c2.c1 === 'bigint')) throw new Error('unexpected noble Fp12 shape');
}

for (const seed of [1, 2, 3]) {
  const run = spawnSync(exe, [String(seed)], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (run.status !== 0) {
    console.error(`${exe} ${seed} failed (status ${run.status}): ${run.stderr}`);
    process.exit(1);
  }
  const d = JSON.parse(run.stdout);
  const tag = (s) => `seed ${seed}: ${s}`;

  // Pairings e(aG1, bG2): noble's value is the cube of the standard one.
  d.pairings.forEach((t, i) => {
    const Pa = G1.BASE.multiply(big(t.a));
    const Qb = G2.BASE.multiply(big(t.b));
    const ours = toFp12(t.value);
    same12(tag(`pairing[${i}] (a=${t.a}, b=${t.b}): noble e = (proofline e)^3`), cube(ours), bls12_381.pairing(Pa, Qb));
    if (i === 0 && seed === 1) {
      // e(G1, G2) with the literal standard exponent applied to noble's own Miller loop.
      const f = bls12_381.pairing(Pa, Qb, false);
      same12(tag('e(G1, G2) = noble millerLoop^((p^12-1)/r)'), ours, Fp12.pow(f, FINAL_EXP));
    }
  });

  // Multi-Miller loop + one final exponentiation = product of pairings.
  {
    const pairs = d.multi.pairs.map((t) => ({ g1: G1.BASE.multiply(big(t.a)), g2: G2.BASE.multiply(big(t.b)) }));
    same12(tag('multi_miller_loop + final_exponentiation'), cube(toFp12(d.multi.value)), bls12_381.pairingBatch(pairs));
  }

  // Final exponentiation of random elements.
  d.final_exp.forEach((t, i) => {
    const x = toFp12(t.x);
    const ours = toFp12(t.value);
    same12(tag(`final_exp[${i}]: noble finalExponentiate = ours^3`), cube(ours), Fp12.finalExponentiate(x));
    if (i === 0) same12(tag(`final_exp[${i}] = x^((p^12-1)/r)`), ours, Fp12.pow(x, FINAL_EXP));
  });

  // Fp12 arithmetic.
  d.fp12.forEach((t, i) => {
    const x = toFp12(t.x), y = toFp12(t.y);
    same12(tag(`fp12[${i}] mul`), toFp12(t.mul), Fp12.mul(x, y));
    same12(tag(`fp12[${i}] square`), toFp12(t.square), Fp12.sqr(x));
    same12(tag(`fp12[${i}] inverse`), toFp12(t.inverse), Fp12.inv(x));
    same12(tag(`fp12[${i}] conjugate`), toFp12(t.conjugate), Fp12.conjugate(x));
    t.frobenius.forEach((v, k) => same12(tag(`fp12[${i}] frobenius ${k + 1}`), toFp12(v), Fp12.frobeniusMap(x, k + 1)));
    const [d0, d1, d4] = t.line.map((a) => toFp2(a));
    const line = Fp12.create({ c0: Fp6.create({ c0: d0, c1: d1, c2: Fp2.ZERO }), c1: Fp6.create({ c0: Fp2.ZERO, c1: d4, c2: Fp2.ZERO }) });
    same12(tag(`fp12[${i}] mul_by_014`), toFp12(t.mul_by_014), Fp12.mul(x, line));
  });

  // Cyclotomic subgroup: Granger–Scott squaring and the power by x.
  d.cyclotomic.forEach((t, i) => {
    const x = toFp12(t.x);
    same12(tag(`cyclotomic[${i}] square`), toFp12(t.square), Fp12.sqr(x));
    same12(tag(`cyclotomic[${i}] cyclotomic_square`), toFp12(t.cyclotomic_square), Fp12._cyclotomicSquare(x));
    same12(tag(`cyclotomic[${i}] pow_x`), toFp12(t.pow_x), Fp12.inv(Fp12.pow(x, BLS_X)));
  });

  // Fp6 arithmetic.
  d.fp6.forEach((t, i) => {
    const x = toFp6(t.x), y = toFp6(t.y);
    same6(tag(`fp6[${i}] mul`), toFp6(t.mul), Fp6.mul(x, y));
    same6(tag(`fp6[${i}] square`), toFp6(t.square), Fp6.sqr(x));
    same6(tag(`fp6[${i}] inverse`), toFp6(t.inverse), Fp6.inv(x));
    same6(tag(`fp6[${i}] mul_by_nonresidue`), toFp6(t.mul_by_nonresidue), Fp6.mulByNonresidue(x));
    t.frobenius.forEach((v, k) => same6(tag(`fp6[${i}] frobenius ${k + 1}`), toFp6(v), Fp6.frobeniusMap(x, k + 1)));
  });
}
console.log(`pairing oracle: ${checks} values agree with @noble/curves`);
