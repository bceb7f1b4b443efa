// Outside-oracle check of the proving engine: the proofs oracle_engine_dump gets from the engine
// (bench circuit; snarkjs zkey job) must be accepted by noble_verify.mjs and
// `snarkjs groth16 verify`, and tampered variants rejected — the checks of groth16_check.mjs, run
// over this dump. Usage: node engine_check.mjs <path to oracle_engine_dump> [seed]
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const r = spawnSync(process.execPath, [path.join(here, 'groth16_check.mjs'), ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(r.status === null ? 1 : r.status);
