#!/usr/bin/python3
"""A client that is not ours (Python grpcio, Debian's python3-grpcio) calling the daemon's
cuzk.v1.ProvingEngine the way Curio does (issue 20; facts: shared/reference/cuzk-api.md).

Usage: cuzk_client.py <stub dir> <address> <c1 envelope> <proof out> [quick]  (quick: only the first Prove)
Exits 1 on the first failed expectation; prints one 'ok:' line per passed one.
"""
import sys
import threading
import time

sys.path.insert(0, sys.argv[1])
import grpc  # noqa: E402
from cuzk.v1 import proving_pb2 as pb  # noqa: E402
from cuzk.v1 import proving_pb2_grpc as rpc  # noqa: E402

address, envelope_path, proof_out = sys.argv[2:5]
envelope = open(envelope_path, "rb").read()
MiB = 1 << 20
# Curio's channel: plaintext h2c, 256 MiB messages both ways (reference §2.1).
channel = grpc.insecure_channel(address, options=[("grpc.max_send_message_length", 256 * MiB),
                                                  ("grpc.max_receive_message_length", 256 * MiB)])
stub = rpc.ProvingEngineStub(channel)
fails = 0


def expect(what, cond, detail=""):
    global fails
    if cond:
        print("ok: " + what)
    else:
        fails += 1
        print("FAIL: " + what + (": " + str(detail) if detail else ""))


def porep(request_id, payload=envelope, **kw):
    return pb.SubmitProofRequest(request_id=request_id, proof_kind=pb.POREP_SEAL_COMMIT, sector_size=2048,
                                 registered_proof=5, priority=pb.NORMAL, vanilla_proof=payload, **kw)


R = pb.AwaitProofResponse
# 1. Prove as Curio sends it: request id "porep-<miner>-<sector>", the Commit2In envelope.
res = stub.Prove(pb.ProveRequest(submit=porep("porep-0-5", sector_number=5)), timeout=600).result
expect("Prove of a 2 KiB envelope: COMPLETED", res.status == R.COMPLETED, res)
expect("  a 192-byte proof", len(res.proof) == 192, len(res.proof))
expect("  job_id is the request_id", res.job_id == "porep-0-5", res.job_id)
expect("  total_ms > 0", res.total_ms > 0, res.total_ms)
open(proof_out, "wb").write(res.proof)
if len(sys.argv) > 5 and sys.argv[5] == "quick":
    sys.exit(1 if fails else 0)

# 2. The same request_id again after completion: a retry proves again (not a rejection).
st0 = stub.GetStatus(pb.GetStatusRequest())
res2 = stub.Prove(pb.ProveRequest(submit=porep("porep-0-5", sector_number=5)), timeout=600).result
st1 = stub.GetStatus(pb.GetStatusRequest())
expect("the same request_id again: COMPLETED", res2.status == R.COMPLETED, res2)
expect("  proved again (completed count +1)",
       st1.total_proofs_completed == st0.total_proofs_completed + 1,
       (st0.total_proofs_completed, st1.total_proofs_completed))
expect("  a fresh proof (new randomizers: other bytes)", res2.proof != res.proof)

# 3. A malformed envelope: gRPC OK, status FAILED, a message naming what is wrong.
i = envelope.index(b'"Phase1Out":"') + len(b'"Phase1Out":"')
bad = envelope[:i] + b"*" + envelope[i + 1:]  # the first base64 character replaced
res = stub.Prove(pb.ProveRequest(submit=porep("bad-envelope", payload=bad)), timeout=60).result
expect("a malformed envelope: FAILED", res.status == R.FAILED, res)
expect("  the message names Phase1Out", "Phase1Out: not base64 at character 0" in res.error_message,
       res.error_message)

# 4. miner_id / sector_number that are not the C1's: FAILED before proving, replica_id named.
res = stub.Prove(pb.ProveRequest(submit=porep("wrong-ids", miner_id=1000, sector_number=9)), timeout=60).result
expect("miner_id 1000 / sector 9 for another sector's C1: FAILED", res.status == R.FAILED, res)
expect("  replica_id named", "replica_id is not the one of prover_id e807" in res.error_message, res.error_message)

# 5. proof_kind 0 and 9: INVALID_ARGUMENT (a gRPC error, as cuzk).
for k in (0, 9):
    try:
        stub.Prove(pb.ProveRequest(submit=pb.SubmitProofRequest(request_id="k%d" % k, proof_kind=k)), timeout=30)
        expect("proof_kind %d refused" % k, False, "answered OK")
    except grpc.RpcError as e:
        expect("proof_kind %d: INVALID_ARGUMENT" % k, e.code() == grpc.StatusCode.INVALID_ARGUMENT, e.code())

# 6. A kind not built yet: FAILED with a message (Curio retries elsewhere).
res = stub.Prove(pb.ProveRequest(submit=pb.SubmitProofRequest(
    request_id="wdpost-1000-0-[12 34 56 78 9 10 11 12]", proof_kind=pb.WINDOW_POST_PARTITION,
    vanilla_proofs=[b"x"], randomness=bytes(32))), timeout=30).result
expect("WindowPoSt before it exists: FAILED, named",
       res.status == R.FAILED and "not built" in res.error_message, res)
expect("  an id with spaces and brackets is kept as the job_id", res.job_id == "wdpost-1000-0-[12 34 56 78 9 10 11 12]",
       res.job_id)

# 7. SubmitProof + GetStatus while it runs + AwaitProof with a short timeout (TIMEOUT) + AwaitProof.
sub = stub.SubmitProof(porep("porep-0-6"))
expect("SubmitProof: job_id = request_id", sub.job_id == "porep-0-6", sub)
seen = None
for _ in range(200):
    st = stub.GetStatus(pb.GetStatusRequest())
    q = [x for x in st.queues if x.proof_kind == "porep-c2"]
    if q and q[0].pending + q[0].in_progress >= 1:
        seen = q[0]
        break
    time.sleep(0.01)
expect("GetStatus during the job: a porep-c2 queue entry with the job", seen is not None, list(st.queues))
t = stub.AwaitProof(pb.AwaitProofRequest(job_id="porep-0-6", timeout_ms=1))
expect("AwaitProof timeout_ms=1 while it runs: TIMEOUT", t.status == R.TIMEOUT, t)
done = stub.AwaitProof(pb.AwaitProofRequest(job_id="porep-0-6", timeout_ms=0), timeout=600)
expect("AwaitProof timeout_ms=0: COMPLETED, 192 bytes", done.status == R.COMPLETED and len(done.proof) == 192, done)
st = stub.GetStatus(pb.GetStatusRequest())
expect("GetStatus after: no porep-c2 queue", not [x for x in st.queues if x.proof_kind == "porep-c2"], st.queues)
expect("GetStatus: gpus lists the backend", len(st.gpus) >= 1 and st.gpus[0].name != "", st.gpus)

# 8. Two Prove calls with one request_id at once: the second joins the first (one job).
before = stub.GetStatus(pb.GetStatusRequest()).total_proofs_completed
out = {}


def call(i):
    out[i] = stub.Prove(pb.ProveRequest(submit=porep("porep-0-7")), timeout=600).result


threads = [threading.Thread(target=call, args=(i,)) for i in range(2)]
for th in threads:
    th.start()
for th in threads:
    th.join()
after = stub.GetStatus(pb.GetStatusRequest()).total_proofs_completed
expect("two concurrent Proves of one id: both COMPLETED", all(out[i].status == R.COMPLETED for i in out), out)
expect("  joined: the same proof, one job", out[0].proof == out[1].proof and after == before + 1,
       (after - before))

# 9. Cancel, unknown ids, metrics.
try:
    stub.AwaitProof(pb.AwaitProofRequest(job_id="never-submitted"), timeout=10)
    expect("AwaitProof of an unknown id refused", False)
except grpc.RpcError as e:
    expect("AwaitProof of an unknown id: NOT_FOUND", e.code() == grpc.StatusCode.NOT_FOUND, e.code())
expect("CancelProof of a finished job: was_running false",
       not stub.CancelProof(pb.CancelProofRequest(job_id="porep-0-6")).was_running)
sub = stub.SubmitProof(porep("porep-0-8"))
c = stub.CancelProof(pb.CancelProofRequest(job_id="porep-0-8"))
expect("CancelProof of a queued/running job: was_running true", c.was_running, c)
r = stub.AwaitProof(pb.AwaitProofRequest(job_id="porep-0-8"), timeout=60)
expect("  then AwaitProof: CANCELLED", r.status == R.CANCELLED, r)
m = stub.GetMetrics(pb.GetMetricsRequest())
expect("GetMetrics: Prometheus text of the engine", "proofline_engine" in m.prometheus_text, m.prometheus_text[:200])

# 10. PreloadSRS / EvictSRS by cuzk circuit id.
try:
    stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="porep-9z"), timeout=10)
    expect("PreloadSRS of a bad id refused", False)
except grpc.RpcError as e:
    expect("PreloadSRS porep-9z: INVALID_ARGUMENT", e.code() == grpc.StatusCode.INVALID_ARGUMENT, e.code())
try:
    stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="wpost-32g"), timeout=10)
    expect("PreloadSRS wpost-32g refused", False)
except grpc.RpcError as e:
    expect("PreloadSRS wpost-32g: FAILED_PRECONDITION (kind not built)",
           e.code() == grpc.StatusCode.FAILED_PRECONDITION, e.code())
p = stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="porep-2k"), timeout=120)
expect("PreloadSRS porep-2k: already loaded (proofs above loaded it)", p.already_loaded, p)
st = stub.GetStatus(pb.GetStatusRequest())
expect("  GetStatus.loaded_srs names porep-2k, HOT",
       any(s.circuit_id == "porep-2k" and s.tier == pb.SRSStatus.HOT and s.size_bytes > 0 for s in st.loaded_srs),
       st.loaded_srs)
# EvictSRS refuses a set in use: wait until the cancelled job above has let go of it.
for _ in range(600):
    st = stub.GetStatus(pb.GetStatusRequest())
    if all(s.ref_count == 0 for s in st.loaded_srs if s.circuit_id == "porep-2k"):
        break
    time.sleep(0.05)
e = stub.EvictSRS(pb.EvictSrsRequest(circuit_id="porep-2k"))
expect("EvictSRS porep-2k: was_loaded, bytes freed", e.was_loaded and e.freed_bytes > 0, e)
p = stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="porep-2k"), timeout=120)
expect("PreloadSRS porep-2k after the eviction: loaded again", not p.already_loaded, p)

sys.exit(1 if fails else 0)
