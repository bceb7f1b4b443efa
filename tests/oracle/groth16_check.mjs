// Outside-oracle check of proofline's Groth16 proofs: every proof proofline makes (for the cases of
// groth16_dump, exported as snarkjs JSON) must be ACCEPTED by both
//   - noble_verify.mjs (an independent verifier on @noble/curves), and
//   - `snarkjs groth16 verify` (snarkjs 0.7.6 CLI, curve bls12381),
// and REJECTED by both after tampering: one public input + 1 (or, for a circuit without public
// inputs, pi_a negated).
// Usage: node groth16_check.mjs <path to oracle_groth16_dump> [seed]
// Node modules: $PROOFLINE_ORACLE_DIR (default <repo>/.oracle), installed by scripts/install-deps.sh.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const exe = process.argv[2];
const seed = process.argv[3] || String(1 + Math.floor(Math.random() * 1e6));
if (!exe) {
  console.error('usage: node groth16_check.mjs <oracle_groth16_dump executable> [seed]');
  process.exit(2);
}
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = process.env.PROOFLINE_ORACLE_DIR || path.join(repo, '.oracle');
const snarkjs = path.join(dir, 'node_modules/snarkjs/build/cli.cjs');
const nobleCandidates = [path.join(dir, 'noble_verify.mjs'), path.join(repo, 'tests', 'oracle', 'npm', 'noble_verify.mjs'),
  path.join(repo, '..', 'shared', 'tools', 'noble_verify.mjs')];
const noble = nobleCandidates.find((p) => fs.existsSync(p));
if (!fs.existsSync(snarkjs) || !noble) {
  console.error(`missing oracle tools (snarkjs at ${snarkjs}, noble_verify.mjs in ${nobleCandidates.join(' or ')}); run scripts/install-deps.sh`);
  process.exit(1);
}

const dump = spawnSync(exe, [seed], { encoding: 'utf8', maxBuffer: 1 << 28 });
if (dump.status !== 0) {
  console.error(`dump failed (status ${dump.status}): ${dump.stderr}`);
  process.exit(1);
}
const cases = JSON.parse(dump.stdout);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'proofline-groth16-oracle-'));
const P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaabn;
const R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;

function verifyWith(tool, vk, pub, proof) {
  const files = ['vk.json', 'public.json', 'proof.json'].map((f) => path.join(tmp, f));
  fs.writeFileSync(files[0], JSON.stringify(vk));
  fs.writeFileSync(files[1], JSON.stringify(pub));
  fs.writeFileSync(files[2], JSON.stringify(proof));
  const args = tool === 'noble' ? [noble, ...files] : [snarkjs, 'groth16', 'verify', ...files];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
  const out = (r.stdout || '') + (r.stderr || '');
  // snarkjs prints "OK!" and exits 0 when valid, "Invalid proof" and exits non-zero otherwise.
  const ok = tool === 'noble' ? r.status === 0 : r.status === 0 && out.includes('OK');
  return { ok, out: out.trim(), status: r.status };
}

let failures = 0;
let checks = 0;
for (const c of cases) {
  for (const tool of ['noble', 'snarkjs']) {
    const good = verifyWith(tool, c.vk, c.public, c.proof);
    checks++;
    if (!good.ok) {
      failures++;
      console.error(`FAIL ${c.name}: ${tool} rejects proofline's proof (status ${good.status}): ${good.out}`);
    }
    let pub = c.public, proof = c.proof, how;
    if (pub.length > 0) {
      pub = [...pub];
      pub[0] = ((BigInt(pub[0]) + 1n) % R).toString();
      how = 'public[0] + 1';
    } else {
      proof = JSON.parse(JSON.stringify(proof));
      proof.pi_a[1] = (P - BigInt(proof.pi_a[1])).toString();
      how = 'pi_a negated';
    }
    const bad = verifyWith(tool, c.vk, pub, proof);
    checks++;
    if (bad.ok) {
      failures++;
      console.error(`FAIL ${c.name}: ${tool} accepts a tampered proof (${how})`);
    }
  }
}
fs.rmSync(tmp, { recursive: true, force: true });
if (failures > 0) {
  console.error(`${failures} of ${checks} oracle checks failed (seed ${seed})`);
  process.exit(1);
}
console.log(`groth16 oracle: ${cases.length} proofline proofs accepted by noble_verify and snarkjs groth16 verify, ` +
  `tampered variants rejected by both (${checks} checks, seed ${seed})`);
