// node ec_check.mjs <ec_dump executable> [seed ...]
//
// Runs proofline's ec_dump for each seed (default: 1 and 2, or $PROOFLINE_ORACLE_SEEDS, comma
// separated), recomputes every value with @noble/curves (bls12_381.G1/G2: multiply, add, toHex,
// fromHex, isTorsionFree, field sqrt) and exits 1 printing the first mismatch.
//
// Decode verdicts: the expected error is derived here from the ZCash rules
// (formats-and-circuits.md §1.1), checked in proofline's documented order, with noble's field
// and curve arithmetic for "on the curve" / "in the subgroup"; in addition noble's own decoder
// (Point.fromHex, which checks the subgroup) must accept exactly the inputs proofline's checked
// decoder accepts, and decode them to the same point.
// node_modules come from $PROOFLINE_ORACLE_DIR (default <repo>/.oracle).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = process.env.PROOFLINE_ORACLE_DIR || path.join(here, '..', '..', '.oracle');
const lib = path.join(dir, 'node_modules/@noble/curves/bls12-381.js');
if (!fs.existsSync(lib)) {
  console.error(`ec_check: ${lib} not found; run scripts/install-deps.sh (or ../shared/tools/oracle-setup.sh ${dir})`);
  process.exit(1);
}
const { bls12_381 } = await import(pathToFileURL(lib).href);

const dump = process.argv[2];
if (!dump) {
  console.error('usage: node ec_check.mjs <ec_dump executable> [seed ...]');
  process.exit(2);
}
let seeds = process.argv.slice(3);
if (seeds.length === 0) seeds = (process.env.PROOFLINE_ORACLE_SEEDS || '1,2').split(',');

const { Fp, Fp2 } = bls12_381.fields;
const P = Fp.ORDER;
const curves = {
  g1: { Point: bls12_381.G1.Point, F: Fp, W: 48, b: Fp.create(4n) },
  g2: { Point: bls12_381.G2.Point, F: Fp2, W: 96, b: Fp2.fromBigTuple([4n, 4n]) },
};

let checks = 0;
function fail(seed, curve, section, i, msg, entry) {
  console.error(`ec_check MISMATCH (seed ${seed}, ${curve}.${section}[${i}]): ${msg}`);
  console.error(JSON.stringify(entry, null, 2));
  process.exit(1);
}
function expectEq(got, want, ctx, what) {
  checks++;
  if (got !== want) ctx.fail(`${what}: proofline ${got}, noble ${want}`);
}

const hexToBytes = (h) => Uint8Array.from(h.match(/../g) ?? [], (x) => parseInt(x, 16));
const big = (h) => (h.length ? BigInt('0x' + h) : 0n);

// Field element from the ZCash byte order (G1: one 48-byte integer; G2: c1 ‖ c0), or null if ≥ p.
function fieldFromBytes(c, bytes) {
  const chunks = [];
  for (let o = 0; o < bytes.length; o += 48) chunks.push(BigInt('0x' + Buffer.from(bytes.subarray(o, o + 48)).toString('hex')));
  if (chunks.some((v) => v >= P)) return null;
  return c.W === 48 ? Fp.create(chunks[0]) : Fp2.fromBigTuple([chunks[1], chunks[0]]);
}
// ZCash sign of y: lexicographically largest (G2: by c1, or c0 when c1 = 0).
function yLargest(c, y) {
  const half = (P - 1n) / 2n;
  if (c.W === 48) return y > half;
  return y.c1 !== 0n ? y.c1 > half : y.c0 > half;
}

// Uncompressed ZCash hex of an affine (x, y) (works off the subgroup, where noble's toHex refuses).
const fieldHex = (c, v) =>
  c.W === 48 ? v.toString(16).padStart(96, '0') : v.c1.toString(16).padStart(96, '0') + v.c0.toString(16).padStart(96, '0');
const uncompressedHex = (c, x, y) => fieldHex(c, x) + fieldHex(c, y);

// Expected verdict of proofline's decoder, from the rules, in the documented order; with
// `onPoint` the decoded (x, y) is passed on (null for the identity).
function expectedVerdict(c, bytes, checked, onPoint = () => {}) {
  const W = c.W, F = c.F;
  if (bytes.length !== W && bytes.length !== 2 * W) return 'BadLength';
  const compressed = bytes.length === W;
  const C = (bytes[0] & 0x80) !== 0, I = (bytes[0] & 0x40) !== 0, S = (bytes[0] & 0x20) !== 0;
  if (compressed !== C) return 'CompressionMismatch';
  if (!compressed && S) return 'SignFlagUncompressed';
  if (I) {
    const restZero = (bytes[0] & 0x1f) === 0 && bytes.subarray(1).every((v) => v === 0);
    if ((compressed && S) || !restZero) return 'InfinityNotZero';
    onPoint(null);
    return 'Ok';
  }
  const raw = Uint8Array.from(bytes);
  raw[0] &= 0x1f;
  const x = fieldFromBytes(c, raw.subarray(0, W));
  const yRaw = compressed ? undefined : fieldFromBytes(c, raw.subarray(W));
  if (x === null || yRaw === null) return 'NotCanonical';
  const rhs = F.add(F.mul(F.sqr(x), x), c.b);
  let y;
  if (compressed) {
    try {
      y = F.sqrt(rhs);
    } catch {
      return 'NotOnCurve';
    }
    if (y === undefined || !F.eql(F.sqr(y), rhs)) return 'NotOnCurve';
    if (yLargest(c, y) !== S) y = F.neg(y);
  } else {
    y = yRaw;
    if (!F.eql(F.sqr(y), rhs)) return 'NotOnCurve';
  }
  if (checked && !c.Point.fromAffine({ x, y }).isTorsionFree()) return 'NotInSubgroup';
  onPoint({ x, y });
  return 'Ok';
}

function checkCurve(seed, name, data) {
  const c = curves[name];
  const Pt = c.Point;
  const N = bls12_381.fields.Fr.ORDER;
  const mulG = (k) => (k === 0n ? Pt.ZERO : Pt.BASE.multiply(k));
  // noble encodes the identity only in its canonical projective form (0, 1, 0).
  const enc = (q, compressed) => (q.is0() ? Pt.ZERO : q).toHex(compressed);
  const section = (sec, fn) =>
    data[sec].forEach((e, i) => fn(e, { fail: (msg) => fail(seed, name, sec, i, msg, e) }));

  section('mul', (e, ctx) => {
    const k = big(e.k);
    if (k >= N) ctx.fail('k >= r');
    const q = mulG(k);
    expectEq(e.comp, enc(q, true), ctx, 'compressed [k]G');
    expectEq(e.uncomp, enc(q, false), ctx, 'uncompressed [k]G');
  });
  section('pmul', (e, ctx) => {
    const p = Pt.fromHex(e.p);
    const k = big(e.k);
    expectEq(e.comp, enc(k === 0n ? Pt.ZERO : p.multiply(k), true), ctx, '[k]P');
  });
  section('add', (e, ctx) => {
    const a = Pt.fromHex(e.a), b = Pt.fromHex(e.b);
    expectEq(e.sum, enc(a.add(b), true), ctx, 'a + b');
  });
  section('nonsub', (e, ctx) => {
    const x = fieldFromBytes(c, hexToBytes(e.x)), y = fieldFromBytes(c, hexToBytes(e.y));
    const p = Pt.fromAffine({ x, y });
    checks++;
    if (!c.F.eql(c.F.sqr(y), c.F.add(c.F.mul(c.F.sqr(x), x), c.b))) ctx.fail('point not on the curve');
    checks++;
    if (p.isTorsionFree()) ctx.fail('point is in the subgroup (expected outside)');
    const q = p.multiplyUnsafe(big(e.k)).toAffine();
    const kx = fieldFromBytes(c, hexToBytes(e.kx)), ky = fieldFromBytes(c, hexToBytes(e.ky));
    checks++;
    if (!c.F.eql(q.x, kx) || !c.F.eql(q.y, ky)) ctx.fail('[k]P (plain path) differs');
  });
  section('decode', (e, ctx) => {
    const bytes = hexToBytes(e.hex);
    expectEq(e.checked, expectedVerdict(c, bytes, true), ctx, 'checked verdict');
    let point;
    expectEq(e.unchecked, expectedVerdict(c, bytes, false, (q) => (point = q)), ctx, 'unchecked verdict');
    if (point !== undefined) {
      const want = point === null ? Pt.ZERO.toHex(false) : uncompressedHex(c, point.x, point.y);
      expectEq(e.decoded, want, ctx, 'decoded point (unchecked decode)');
    }
    // noble's own decoder (subgroup-checked) accepts exactly what proofline's checked decode does.
    let noble = null;
    try {
      noble = Pt.fromHex(e.hex);
    } catch {
      noble = null;
    }
    expectEq(e.checked === 'Ok', noble !== null, ctx, 'accepted by the checked decoder');
    if (noble !== null) expectEq(e.decoded, enc(noble, false), ctx, 'decoded point');
  });
  return data.decode.filter((e) => e.checked !== 'Ok').length;
}

for (const seed of seeds) {
  const out = execFileSync(dump, [String(seed)], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const data = JSON.parse(out);
  let rejected = 0;
  for (const name of ['g1', 'g2']) rejected += checkCurve(seed, name, data[name]);
  console.log(`ec_check seed ${seed}: ok (${rejected} malformed inputs rejected as expected)`);
}
console.log(`ec_check: ${checks} values agree with @noble/curves`);
