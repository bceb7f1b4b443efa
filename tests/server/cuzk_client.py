#!/usr/bin/python3
"""A client that is not ours (Python grpcio, Debian's python3-grpcio) calling the daemon's
cuzk.v1.ProvingEngine the way Curio does (issue 20; facts: shared/reference/cuzk-api.md).

Usage: cuzk_client.py <stub dir> <address> <c1 envelope> <proof out> <winning prefix>
         PoRep C2 of a 2 KiB Commit2In envelope as Curio sends it (writes the first proof to <proof out>),
         then the daemon's mechanics. Checks that only need a proof to be made, not a PoRep one, send
         the cheap 2 KiB WinningPoSt of the `proofline gen-vanilla winning-post` files PREFIX.request.json
         and PREFIX.vanilla.json (a 2 KiB PoRep proof takes a minute on two cores); writes
         PREFIX.same-id.proof (§8b's WinningPoSt, sent under a running PoRep's id) for `verify --post`.
       cuzk_client.py <stub dir> <address> winning <winning prefix> <proof out>
         One WinningPoSt Prove (the transport under test, e.g. TCP); writes <proof out>.
       cuzk_client.py <stub dir> <address> post <window prefix> <winning prefix>
         WindowPoSt / WinningPoSt of 2 KiB sectors from `proofline gen-vanilla` files (PREFIX.request.json,
         PREFIX.vanilla.json), as Curio sends them; writes PREFIX.proof for `proofline verify --post`.
       cuzk_client.py <stub dir> <address> snap <prefix>
         SnapDeals of a 2 KiB sector from `proofline gen-vanilla snap` files, as Curio sends them; writes
         PREFIX.proof for `proofline verify --snap`.
       cuzk_client.py <stub dir> <address> timed <c1 or envelope> <proof prefix> <sector bytes> [N=2]
         N Prove calls of one PoRep C1 (any size; bench/device/run.sh daemon32: the first proof after the
         daemon's start, then the next), one at a time; prints each call's client wall time and the
         daemon's total_ms; writes PREFIX.<i>.proof for `proofline verify --c1`.
Exits 1 if an expectation failed; prints one 'ok:' line per passed one.
"""
import base64
import json
import sys
import threading
import time

sys.path.insert(0, sys.argv[1])
import grpc  # noqa: E402
from cuzk.v1 import proving_pb2 as pb  # noqa: E402
from cuzk.v1 import proving_pb2_grpc as rpc  # noqa: E402

address = sys.argv[2]
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


R = pb.AwaitProofResponse


def wait_unused(circuit_id, seconds=120):
    """Waits until no job holds the parameter set preloaded as `circuit_id` (EvictSRS refuses a set in
    use; a cancelled job's running partition keeps its lease until it stops)."""
    for _ in range(seconds * 20):
        st = stub.GetStatus(pb.GetStatusRequest())
        if all(s.ref_count == 0 for s in st.loaded_srs if s.circuit_id == circuit_id):
            return
        time.sleep(0.05)


def evict_when_unused(circuit_id):
    """EvictSRS once no job holds the set; a worker that was preparing a job when it was cancelled may
    still take and drop a lease after wait_unused saw none, so try again for a while."""
    for _ in range(40):
        wait_unused(circuit_id)
        e = stub.EvictSRS(pb.EvictSrsRequest(circuit_id=circuit_id))
        if e.was_loaded:
            return e
        time.sleep(0.25)
    return e


def load(prefix):
    """A `proofline gen-vanilla` PoSt request (PREFIX.request.json) and its vanilla proofs (bytes)."""
    req = json.load(open(prefix + ".request.json"))
    return req, [base64.b64decode(v) for v in json.load(open(prefix + ".vanilla.json"))]


def post(request_id, kind, registered, req, vanilla, **kw):
    """A PoSt ProveRequest as Curio sends it (cuzk-api §2.4): priority 0 (the kind's default),
    registered_proof, randomness (top 2 bits of byte 31 cleared), miner_id, partition_index 0,
    vanilla_proofs = the raw bincode FallbackPoStSectorProof of each sector."""
    fields = dict(request_id=request_id, proof_kind=kind, sector_size=2048, registered_proof=registered,
                  vanilla_proofs=vanilla, miner_id=req["miner_id"], randomness=bytes.fromhex(req["randomness"]),
                  partition_index=0)
    fields.update(kw)
    return pb.ProveRequest(submit=pb.SubmitProofRequest(**fields))


def winning(prefix, request_id):
    """The 2 KiB WinningPoSt (registered proof 0, StackedDrgWinning2KiBV1) of PREFIX's files."""
    req, vanilla = load(prefix)
    return post(request_id, pb.WINNING_POST, 0, req, vanilla)


def in_daemon(st, kind):
    """Jobs of an engine kind ("porep-c2", "winning-post") queued or running in a GetStatus answer."""
    return sum(q.pending + q.in_progress for q in st.queues if q.proof_kind == kind)


def wait_status(cond, seconds=60):
    """Polls GetStatus until cond(status) holds: (True, that status), or (False, the last) after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        st = stub.GetStatus(pb.GetStatusRequest())
        if cond(st):
            return True, st
        if time.monotonic() > deadline:
            return False, st
        time.sleep(0.01)


def post_checks(window_prefix, winning_prefix):
    """WindowPoSt and WinningPoSt as Curio sends them (post() above)."""
    wreq, wvan = load(window_prefix)
    nreq, nvan = load(winning_prefix)
    rand = bytes.fromhex(wreq["randomness"])
    # 1. WindowPoSt, registered proof 10 (StackedDrgWindow2KiBV1_1: API 1.2.0), Curio's request id form.
    wid = "wdpost-%d-0-%s" % (wreq["miner_id"], list(rand[:8]))
    res = stub.Prove(post(wid, pb.WINDOW_POST_PARTITION, 10, wreq, wvan), timeout=600).result
    expect("WindowPoSt (2 KiB, %d sectors): COMPLETED" % len(wvan), res.status == R.COMPLETED, res)
    expect("  one 192-byte proof", len(res.proof) == 192, len(res.proof))
    expect("  job_id is the request_id", res.job_id == wid, res.job_id)
    open(window_prefix + ".proof", "wb").write(res.proof)
    # 2. WinningPoSt, registered proof 0 (StackedDrgWinning2KiBV1).
    nid = "winpost-%d-%s" % (nreq["miner_id"], bytes.fromhex(nreq["randomness"])[:8].hex())
    res = stub.Prove(post(nid, pb.WINNING_POST, 0, nreq, nvan), timeout=600).result
    expect("WinningPoSt (2 KiB): COMPLETED, 192 bytes", res.status == R.COMPLETED and len(res.proof) == 192, res)
    open(winning_prefix + ".proof", "wb").write(res.proof)
    # 3. The ChallengeSeed with its top 2 bits set: cleared by the daemon, the same public inputs.
    seed = bytearray(rand)
    seed[31] |= 0xC0
    res = stub.Prove(post("wdpost-seed", pb.WINDOW_POST_PARTITION, 10, wreq, wvan, randomness=bytes(seed)),
                     timeout=600).result
    expect("randomness with the top 2 bits set: COMPLETED (cleared as the verifier does)",
           res.status == R.COMPLETED, res)
    open(window_prefix + ".seed.proof", "wb").write(res.proof)
    # 4. Bad inputs: gRPC OK, FAILED, the field named.
    bad = [
        ("randomness of 31 bytes", post("b1", pb.WINDOW_POST_PARTITION, 10, wreq, wvan, randomness=rand[:31]),
         "randomness: 31 bytes, expected exactly 32"),
        ("a winning registered proof for WindowPoSt", post("b2", pb.WINDOW_POST_PARTITION, 0, wreq, wvan),
         "a winning PoSt proof (expected 5-14)"),
        ("registered_proof 15", post("b3", pb.WINDOW_POST_PARTITION, 15, wreq, wvan), "registered_proof: "),
        ("sector_size of another size", post("b4", pb.WINDOW_POST_PARTITION, 10, wreq, wvan, sector_size=1 << 35),
         "sector_size: 34359738368, but registered_proof 10 is of 2048-byte sectors"),
        ("no vanilla proofs", post("b5", pb.WINNING_POST, 0, nreq, []), "vanilla_proofs: none"),
        ("a WinningPoSt vanilla proof (66 challenges) as WindowPoSt's", post("b6", pb.WINDOW_POST_PARTITION, 10, wreq,
                                                                            nvan),
         "vanilla_proofs[0]: these vanilla proofs are for 2KiB sectors with 66 challenges (WinningPoSt's) each, "
         "the request is for 2KiB sectors with 10 challenges (WindowPoSt's)"),
        ("a flipped byte in a vanilla proof", post("b7", pb.WINDOW_POST_PARTITION, 10, wreq,
                                                   [wvan[0][:200] + bytes([wvan[0][200] ^ 1]) + wvan[0][201:]] + wvan[1:]),
         "unsatisfied: sector 0 challenge 0"),
        ("WinningPoSt partition_index 1", post("b8", pb.WINNING_POST, 0, nreq, nvan, partition_index=1),
         "WinningPoSt has one partition"),
    ]
    for what, request, want in bad:
        res = stub.Prove(request, timeout=120).result
        expect(what + ": FAILED, named", res.status == R.FAILED and want in res.error_message,
               (res.status, res.error_message))
    # 5. PreloadSRS / EvictSRS by cuzk circuit id: the upstream file names in the parameter cache.
    for cid in ("wpost-2k", "winning-2k"):
        p = stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id=cid), timeout=120)
        expect("PreloadSRS %s: already loaded (the proofs above loaded it)" % cid, p.already_loaded, p)
    st = stub.GetStatus(pb.GetStatusRequest())
    expect("  GetStatus.loaded_srs names wpost-2k and winning-2k",
           {"wpost-2k", "winning-2k"} <= {s.circuit_id for s in st.loaded_srs}, st.loaded_srs)
    e = evict_when_unused("wpost-2k")
    expect("EvictSRS wpost-2k: was_loaded, bytes freed", e.was_loaded and e.freed_bytes > 0, e)
    p = stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="wpost-2k"), timeout=120)
    expect("PreloadSRS wpost-2k after the eviction: loaded again", not p.already_loaded, p)
    try:
        stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="wpost-32g"), timeout=10)
        expect("PreloadSRS wpost-32g without its file refused", False)
    except grpc.RpcError as err:
        expect("PreloadSRS wpost-32g: NOT_FOUND naming the upstream file",
               err.code() == grpc.StatusCode.NOT_FOUND and
               "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-" in err.details(), err.details())


def snap_checks(prefix):
    """SnapDeals as Curio's ProveUpdateCuzk sends it (cuzk-api §2.4): kind 2, NORMAL, registered_proof
    (abi.RegisteredUpdateProof 0 = StackedDrg2KiBV1), comm_r_old / comm_r_new / comm_d_new as raw 32-byte
    digests, vanilla_proofs = the raw bincode PartitionProof of each partition (snap-vproof.json's
    elements); PSProve's form (sector_size 0) too. Writes PREFIX.proof for `proofline verify --snap`."""
    req = json.load(open(prefix + ".request.json"))
    van = [base64.b64decode(v) for v in json.load(open(prefix + ".vanilla.json"))]

    def snap(request_id, **kw):
        fields = dict(request_id=request_id, proof_kind=pb.SNAP_DEALS_UPDATE, priority=pb.NORMAL, sector_size=2048,
                      registered_proof=0, vanilla_proofs=van, sector_number=7, miner_id=1000,
                      comm_r_old=bytes.fromhex(req["comm_r_old"]), comm_r_new=bytes.fromhex(req["comm_r_new"]),
                      comm_d_new=bytes.fromhex(req["comm_d_new"]))
        fields.update(kw)
        return pb.ProveRequest(submit=pb.SubmitProofRequest(**fields))

    res = stub.Prove(snap("snap-1000-7"), timeout=900).result
    expect("SnapDeals (2 KiB, registered proof 0): COMPLETED", res.status == R.COMPLETED, res)
    expect("  one 192-byte proof per partition (1)", len(res.proof) == 192, len(res.proof))
    expect("  job_id is the request_id", res.job_id == "snap-1000-7", res.job_id)
    open(prefix + ".proof", "wb").write(res.proof)
    res = stub.Prove(snap("ps-snap-1000-7-1", sector_size=0), timeout=900).result
    expect("PSProve's form (sector_size 0): COMPLETED, 192 bytes", res.status == R.COMPLETED and len(res.proof) == 192,
           res)
    bad = [
        ("registered_proof 5", snap("s1", registered_proof=5), "SNAP_DEALS_UPDATE: registered_proof: "),
        ("comm_d_new as a 38-byte CID", snap("s2", comm_d_new=b"\x01\x81\xe2\x03\x92\x20" + bytes(32)),
         "comm_d_new: 38 bytes, expected exactly 32 (the raw digest, not CID bytes)"),
        ("sector_size of 32 GiB", snap("s3", sector_size=1 << 35),
         "sector_size: 34359738368, but registered_proof 0 is of 2048-byte sectors"),
        ("two vanilla proofs", snap("s4", vanilla_proofs=van + van), "2 vanilla partition proofs, a 2KiB sector has 1"),
        ("a flipped byte in the vanilla proof", snap("s5", vanilla_proofs=[van[0][:400] + bytes([van[0][400] ^ 1]) +
                                                                             van[0][401:]]), "unsatisfied"),
    ]
    for what, request, want in bad:
        res = stub.Prove(request, timeout=600).result
        expect(what + ": FAILED, named", res.status == R.FAILED and want in res.error_message,
               (res.status, res.error_message))
    p = stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="snap-2k"), timeout=120)
    expect("PreloadSRS snap-2k: already loaded (the proofs above loaded it)", p.already_loaded, p)


def timed_proofs(c1_path, prefix, sector_bytes, n):
    """N Prove calls of one PoRep C1, as Curio sends them (POREP_SEAL_COMMIT, NORMAL, the V1_1 registered
    proof of the size), one after the other: client wall time and the daemon's total_ms of each."""
    payload = open(c1_path, "rb").read()
    registered = {2048: 5, 8 << 20: 6, 512 << 20: 7, 32 << 30: 8, 64 << 30: 9}.get(sector_bytes, 0)
    for i in range(1, n + 1):
        req = pb.SubmitProofRequest(request_id="timed-%d" % i, proof_kind=pb.POREP_SEAL_COMMIT, priority=pb.NORMAL,
                                    sector_size=sector_bytes, registered_proof=registered, vanilla_proof=payload)
        t0 = time.monotonic()
        res = stub.Prove(pb.ProveRequest(submit=req), timeout=3600).result
        wall = time.monotonic() - t0
        status = R.Status.Name(res.status)
        print("prove %d: %s, client wall %.3f s, daemon total_ms %d, %d proof bytes%s" %
              (i, status, wall, res.total_ms, len(res.proof), (": " + res.error_message[:300]) if res.error_message else ""),
              flush=True)
        expect("Prove %d of %s: COMPLETED" % (i, c1_path), res.status == R.COMPLETED)
        if res.status == R.COMPLETED:
            open("%s.%d.proof" % (prefix, i), "wb").write(res.proof)


if len(sys.argv) > 3 and sys.argv[3] == "timed":
    timed_proofs(sys.argv[4], sys.argv[5], int(sys.argv[6]), int(sys.argv[7]) if len(sys.argv) > 7 else 2)
    sys.exit(1 if fails else 0)
if len(sys.argv) > 3 and sys.argv[3] == "post":
    post_checks(sys.argv[4], sys.argv[5])
    sys.exit(1 if fails else 0)
if len(sys.argv) > 3 and sys.argv[3] == "snap":
    snap_checks(sys.argv[4])
    sys.exit(1 if fails else 0)
if len(sys.argv) > 3 and sys.argv[3] == "winning":
    res = stub.Prove(winning(sys.argv[4], "winpost-transport"), timeout=600).result
    expect("Prove of a 2 KiB WinningPoSt: COMPLETED", res.status == R.COMPLETED, res)
    expect("  a 192-byte proof", len(res.proof) == 192, len(res.proof))
    expect("  job_id is the request_id", res.job_id == "winpost-transport", res.job_id)
    expect("  total_ms > 0", res.total_ms > 0, res.total_ms)
    open(sys.argv[5], "wb").write(res.proof)
    sys.exit(1 if fails else 0)

envelope_path, proof_out, winning_prefix = sys.argv[3:6]
envelope = open(envelope_path, "rb").read()


def porep(request_id, payload=envelope, **kw):
    kw.setdefault("priority", pb.NORMAL)
    return pb.SubmitProofRequest(request_id=request_id, proof_kind=pb.POREP_SEAL_COMMIT, sector_size=2048,
                                 registered_proof=5, vanilla_proof=payload, **kw)


# 1. Prove as Curio sends it: request id "porep-<miner>-<sector>", the Commit2In envelope.
res = stub.Prove(pb.ProveRequest(submit=porep("porep-0-5", sector_number=5)), timeout=600).result
expect("Prove of a 2 KiB envelope: COMPLETED", res.status == R.COMPLETED, res)
expect("  a 192-byte proof", len(res.proof) == 192, len(res.proof))
expect("  job_id is the request_id", res.job_id == "porep-0-5", res.job_id)
expect("  total_ms > 0", res.total_ms > 0, res.total_ms)
open(proof_out, "wb").write(res.proof)

# 2. The same request_id again after completion: a retry proves again (not a rejection). The service's
#    id handling is the same for every kind: a WinningPoSt here (a PoRep proof costs a minute).
res = stub.Prove(winning(winning_prefix, "winpost-retry"), timeout=600).result
expect("a WinningPoSt: COMPLETED", res.status == R.COMPLETED, res)
st0 = stub.GetStatus(pb.GetStatusRequest())
res2 = stub.Prove(winning(winning_prefix, "winpost-retry"), timeout=600).result
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

# 3b. A byte that is not UTF-8 in the request (issue 33, finding 3): the reply still decodes (its
#     error_message is a proto3 string, which strict clients such as this one refuse to decode
#     unless it is UTF-8: such bytes are written as \xNN), FAILED, the byte named; AwaitProof of
#     the id the same.
bad8 = envelope[:i] + b"\xff" + envelope[i + 1:]
try:
    res = stub.Prove(pb.ProveRequest(submit=porep("bad-utf8", payload=bad8)), timeout=60).result
    expect("an envelope with a 0xff byte: FAILED", res.status == R.FAILED, res)
    expect("  the byte written as \\xff in the message", "\\xff" in res.error_message, res.error_message)
    a = stub.AwaitProof(pb.AwaitProofRequest(job_id="bad-utf8"), timeout=10)
    expect("  AwaitProof of its id: FAILED, \\xff in the message", a.status == R.FAILED and "\\xff" in a.error_message,
           a.error_message)
except grpc.RpcError as e:
    expect("an envelope with a 0xff byte: a reply this client can decode", False, e)

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

# 6. A bad SnapDeals request (registered_proof 0, no commitments): FAILED naming the field; a bad PoSt
#    request (a vanilla proof that is not one): FAILED naming it. Ids with spaces and brackets are kept.
res = stub.Prove(pb.ProveRequest(submit=pb.SubmitProofRequest(
    request_id="snap-1000-[12 34]", proof_kind=pb.SNAP_DEALS_UPDATE, vanilla_proofs=[b"x"])), timeout=30).result
expect("SnapDeals without comm_r_old: FAILED, named", res.status == R.FAILED and
       "SNAP_DEALS_UPDATE: comm_r_old: 0 bytes, expected exactly 32" in res.error_message, res)
res = stub.Prove(pb.ProveRequest(submit=pb.SubmitProofRequest(
    request_id="wdpost-1000-0-[12 34 56 78 9 10 11 12]", proof_kind=pb.WINDOW_POST_PARTITION, registered_proof=10,
    vanilla_proofs=[b"x"], randomness=bytes(32))), timeout=30).result
expect("WindowPoSt with a vanilla proof of 1 byte: FAILED, the element named",
       res.status == R.FAILED and "vanilla_proofs[0]: bincode FallbackPoStSectorProof: sector_id at byte 0" in
       res.error_message and res.error_message.count("bad length") == 1, res)
expect("  an id with spaces and brackets is kept as the job_id", res.job_id == "wdpost-1000-0-[12 34 56 78 9 10 11 12]",
       res.job_id)

# 7, 8, 8b. The service's job mechanics, on cheap WinningPoSts made to wait: a PoRep ("porep-0-8") is
#     sent first, and once GetStatus shows the backend's one worker proving it (tens of seconds on two
#     cores), every call below queues behind it — each one observed in GetStatus before the next is
#     sent, and all of them in the daemon together with the PoRep at the end (observed, not assumed
#     from timing).
#  7. SubmitProof + GetStatus while it waits + AwaitProof with a short timeout (TIMEOUT) + AwaitProof.
#  8. Two Prove calls with one request_id (the same request): the second joins the first (one job).
#  8b. The same request_id for another request: not joined — a job of its own, never the first one's
#     proof. Two cases: another priority (another fingerprint, same kind and inputs), and another
#     kind (a new user got a PoRep proof back for a WinningPoSt sent under a running PoRep's id).
before = stub.GetStatus(pb.GetStatusRequest()).total_proofs_completed
out = {}


def call_req(name, request):
    out[name] = stub.Prove(request, timeout=600).result


def winning_pri(request_id, pri):
    r = winning(winning_prefix, request_id)
    r.submit.priority = pri
    return r


threads = []


def send(name, request):
    threads.append(threading.Thread(target=call_req, args=(name, request)))
    threads[-1].start()


def queued_winning(n, what):
    seen, st = wait_status(lambda st: in_daemon(st, "winning-post") >= n)
    expect("  then %s in the daemon (%d WinningPoSt job(s) in GetStatus)" % (what, n), seen, list(st.queues))


send("porep", pb.ProveRequest(submit=porep("porep-0-8")))
seen, st = wait_status(lambda st: in_daemon(st, "porep-c2") >= 1 and any(g.current_proof_kind == "busy" for g in st.gpus),
                       seconds=300)
expect("GetStatus shows the PoRep porep-0-8 being proved before the other calls", seen, (list(st.queues), list(st.gpus)))
sub = stub.SubmitProof(winning(winning_prefix, "winpost-7").submit)
expect("7. SubmitProof: job_id = request_id", sub.job_id == "winpost-7", sub)
queued_winning(1, "the submitted winpost-7")
t = stub.AwaitProof(pb.AwaitProofRequest(job_id="winpost-7", timeout_ms=1))
expect("7. AwaitProof timeout_ms=1 while it waits: TIMEOUT", t.status == R.TIMEOUT, t)
send("join0", winning(winning_prefix, "winpost-join"))
queued_winning(2, "8. the first Prove of winpost-join")
send("join1", winning(winning_prefix, "winpost-join"))
send("normal", winning_pri("winpost-8b", pb.NORMAL))
queued_winning(3, "8b. winpost-8b (NORMAL)")
send("high", winning_pri("winpost-8b", pb.HIGH))
send("kind", winning(winning_prefix, "porep-0-8"))
together, st = wait_status(lambda st: in_daemon(st, "porep-c2") >= 1 and in_daemon(st, "winning-post") >= 5)
expect("  all in the daemon at once with the PoRep: 5 WinningPoSt jobs (the second winpost-join joined)", together,
       list(st.queues))
done = stub.AwaitProof(pb.AwaitProofRequest(job_id="winpost-7", timeout_ms=0), timeout=600)
expect("7. AwaitProof timeout_ms=0: COMPLETED, 192 bytes", done.status == R.COMPLETED and len(done.proof) == 192, done)
for th in threads:
    th.join()
after = stub.GetStatus(pb.GetStatusRequest()).total_proofs_completed
names = ("porep", "join0", "join1", "normal", "high", "kind")
expect("  every call COMPLETED", all(n in out and out[n].status == R.COMPLETED for n in names), out)
expect("8. two Proves of one id and request: joined, the same proof",
       "join0" in out and "join1" in out and out["join0"].proof == out["join1"].proof)
expect("8b. one id, another priority: not joined, two proofs",
       "normal" in out and "high" in out and out["normal"].proof != out["high"].proof)
expect("8b. one id, another kind (a WinningPoSt under a running PoRep's id): not joined, two proofs",
       "porep" in out and "kind" in out and out["porep"].proof != out["kind"].proof)
expect("  six jobs (completed count +6: the PoRep, winpost-7, one winpost-join, three 8b)", after == before + 6,
       after - before)
open(winning_prefix + ".same-id.proof", "wb").write(out["kind"].proof if "kind" in out else b"")
st = stub.GetStatus(pb.GetStatusRequest())
expect("GetStatus after: no porep-c2 or winning-post queue",
       not [x for x in st.queues if x.proof_kind in ("porep-c2", "winning-post") and x.pending + x.in_progress], st.queues)
expect("GetStatus: gpus lists the backend", len(st.gpus) >= 1 and st.gpus[0].name != "", st.gpus)

# 9. Cancel, unknown ids, metrics.
try:
    stub.AwaitProof(pb.AwaitProofRequest(job_id="never-submitted"), timeout=10)
    expect("AwaitProof of an unknown id refused", False)
except grpc.RpcError as e:
    expect("AwaitProof of an unknown id: NOT_FOUND", e.code() == grpc.StatusCode.NOT_FOUND, e.code())
expect("CancelProof of a finished job: was_running false",
       not stub.CancelProof(pb.CancelProofRequest(job_id="winpost-7")).was_running)
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
    stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="snap-32g"), timeout=10)
    expect("PreloadSRS snap-32g without its file refused", False)
except grpc.RpcError as e:
    expect("PreloadSRS snap-32g: NOT_FOUND naming the upstream file",
           e.code() == grpc.StatusCode.NOT_FOUND and
           "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-" in e.details(), e.details())
p = stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="porep-2k"), timeout=120)
expect("PreloadSRS porep-2k: already loaded (proofs above loaded it)", p.already_loaded, p)
st = stub.GetStatus(pb.GetStatusRequest())
expect("  GetStatus.loaded_srs names porep-2k, HOT",
       any(s.circuit_id == "porep-2k" and s.tier == pb.SRSStatus.HOT and s.size_bytes > 0 for s in st.loaded_srs),
       st.loaded_srs)
# EvictSRS refuses a set in use: wait until the cancelled job above has let go of it.
e = evict_when_unused("porep-2k")
expect("EvictSRS porep-2k: was_loaded, bytes freed", e.was_loaded and e.freed_bytes > 0, e)
p = stub.PreloadSRS(pb.PreloadSrsRequest(circuit_id="porep-2k"), timeout=120)
expect("PreloadSRS porep-2k after the eviction: loaded again", not p.already_loaded, p)

sys.exit(1 if fails else 0)
