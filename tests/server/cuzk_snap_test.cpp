// SnapDeals over cuzk.v1 (src/server/cuzk_service.cpp, route SNAP_DEALS_UPDATE → "snap-update";
// semantics in include/proofline/server/cuzk.hpp): the fields Curio fills reach the kind (a
// well-formed 2 KiB request from `gen_snap_vanilla` gets as far as the parameter file, which is
// named), and every bad field is a FAILED proof naming it, before anything is queued. PreloadSRS of
// a snap-* circuit id names the upstream file. The proof itself (setup + prove at 2 KiB, minutes) is
// in tests/server/cuzk_api.sh snap (ctest server_cuzk_snap, label slow).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cuzk/v1/proving.grpc.pb.h"
#include "proofline/filecoin/snap.hpp"
#include "proofline/filecoin/snap_bincode.hpp"
#include "server_test_util.hpp"

namespace proofline::server::testing {
namespace {

namespace cz = ::cuzk::v1;
namespace fs = std::filesystem;

std::string bytes_string(const std::vector<std::uint8_t>& b) { return {b.begin(), b.end()}; }
std::string domain_string(const filecoin::Domain& d) { return {d.begin(), d.end()}; }

struct SnapInputs {
  filecoin::GeneratedSnap g;
  std::vector<std::string> vanilla;  ///< bincode PartitionProof per partition, as Curio sends them
};

SnapInputs inputs(std::uint64_t sector_bytes, std::uint64_t seed) {
  filecoin::GenSnapOptions o;
  o.sector_bytes = sector_bytes;
  o.seed = seed;
  SnapInputs in{filecoin::gen_snap_vanilla(o), {}};
  for (const auto& p : in.g.partition_proofs) in.vanilla.push_back(bytes_string(filecoin::encode_snap_partition_proof(p)));
  return in;
}

/// What Curio's ProveUpdateCuzk sends (cuzk-api §2.4): kind 2, NORMAL, sector_size, the registered
/// update proof, the raw commitments, one bincode PartitionProof per partition.
cz::ProveRequest snap_request(const std::string& id, const SnapInputs& in, std::uint64_t registered) {
  cz::ProveRequest p;
  cz::SubmitProofRequest& r = *p.mutable_submit();
  r.set_request_id(id);
  r.set_proof_kind(cz::SNAP_DEALS_UPDATE);
  r.set_priority(cz::NORMAL);
  r.set_sector_size(in.g.sector_bytes);
  r.set_registered_proof(registered);
  r.set_sector_number(7);
  r.set_miner_id(1000);
  r.set_comm_r_old(domain_string(in.g.public_inputs.comm_r_old));
  r.set_comm_d_new(domain_string(in.g.public_inputs.comm_d_new));
  r.set_comm_r_new(domain_string(in.g.public_inputs.comm_r_new));
  for (const auto& v : in.vanilla) r.add_vanilla_proofs(v);
  return p;
}

cz::AwaitProofResponse cuzk_prove(cz::ProvingEngine::Stub& s, const cz::ProveRequest& r) {
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + 60s);
  cz::ProveResponse out;
  const grpc::Status st = s.Prove(&ctx, r, &out);
  EXPECT_TRUE(st.ok()) << st.error_message();
  return out.result();
}

class CuzkSnap : public ::testing::Test {
 protected:
  void SetUp() override {
    cache_ = server_dir() / "cuzk-snap-cache";
    fs::create_directories(cache_);
    const char* old = getenv("FIL_PROOFS_PARAMETER_CACHE");
    if (old) old_cache_ = old;
    had_cache_ = old != nullptr;
    setenv("FIL_PROOFS_PARAMETER_CACHE", cache_.c_str(), 1);
  }
  void TearDown() override {
    if (had_cache_) {
      setenv("FIL_PROOFS_PARAMETER_CACHE", old_cache_.c_str(), 1);
    } else {
      unsetenv("FIL_PROOFS_PARAMETER_CACHE");
    }
    std::error_code ec;
    fs::remove_all(cache_, ec);
  }
  fs::path cache_;
  std::string old_cache_;
  bool had_cache_ = false;
};

TEST_F(CuzkSnap, AWellFormedRequestReachesTheKindAndNamesTheParameterFile) {
  Harness h;
  auto stub = cz::ProvingEngine::NewStub(make_channel(h.daemon->listening().at(0)));
  const SnapInputs in = inputs(2048, 3);
  const std::string file = filecoin::snap_parameter_file_name(filecoin::snap_params(2048), ".params");
  EXPECT_EQ(file.rfind("v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-", 0), 0u) << file;
  // PSProve sends sector_size 0: the size comes from registered_proof 0 (StackedDrg2KiBV1).
  cz::ProveRequest r = snap_request("snap-1000-7", in, 0);
  r.mutable_submit()->set_sector_size(0);
  const cz::AwaitProofResponse res = cuzk_prove(*stub, r);
  EXPECT_EQ(res.status(), cz::AwaitProofResponse::FAILED);
  EXPECT_EQ(res.job_id(), "snap-1000-7");
  EXPECT_NE(res.error_message().find("kind 'snap-update': parameter file '" + (cache_ / file).string() +
                                     "' not found (make it with `proofline setup --circuit snap"),
            std::string::npos)
      << res.error_message();
  // PreloadSRS by its cuzk circuit id: the same upstream name, NOT_FOUND (no longer "not routed").
  grpc::ClientContext ctx;
  cz::PreloadSrsRequest pre;
  pre.set_circuit_id("snap-2k");
  cz::PreloadSrsResponse pre_out;
  const grpc::Status st = stub->PreloadSRS(&ctx, pre, &pre_out);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_NE(st.error_message().find("circuit_id: 'snap-2k': parameter file '" + (cache_ / file).string() + "' not found"),
            std::string::npos)
      << st.error_message();
  // Nothing reached the engine.
  EXPECT_EQ(h.status().jobs_completed() + h.status().jobs_failed(), 0u);
}

TEST_F(CuzkSnap, BadFieldsAreNamedFailures) {
  Harness h;
  auto stub = cz::ProvingEngine::NewStub(make_channel(h.daemon->listening().at(0)));
  const SnapInputs in = inputs(2048, 3);
  const SnapInputs one_kib = inputs(1024, 4);  // a test size: no registered proof; its vanilla proofs are shorter
  struct Case {
    std::string what;
    cz::ProveRequest request;
    std::string want;
  };
  std::vector<Case> cases;
  auto with = [&](const std::string& what, auto edit, const std::string& want) {
    cz::ProveRequest r = snap_request("bad-" + std::to_string(cases.size()), in, 0);
    edit(*r.mutable_submit());
    cases.push_back({what, r, want});
  };
  with("registered_proof 5", [](cz::SubmitProofRequest& r) { r.set_registered_proof(5); },
       "SNAP_DEALS_UPDATE: registered_proof: ");
  with("sector_size of another size", [](cz::SubmitProofRequest& r) { r.set_sector_size(std::uint64_t{1} << 35); },
       "SNAP_DEALS_UPDATE: sector_size: 34359738368, but registered_proof 0 is of 2048-byte sectors");
  with("comm_r_new of 31 bytes", [](cz::SubmitProofRequest& r) { r.set_comm_r_new(r.comm_r_new().substr(1)); },
       "SNAP_DEALS_UPDATE: comm_r_new: 31 bytes, expected exactly 32 (the raw digest, not CID bytes)");
  with("comm_d_new missing", [](cz::SubmitProofRequest& r) { r.clear_comm_d_new(); },
       "SNAP_DEALS_UPDATE: comm_d_new: 0 bytes, expected exactly 32");
  with("comm_r_old >= r", [](cz::SubmitProofRequest& r) { r.set_comm_r_old(std::string(32, '\xff')); },
       "argument 'comm_r_old' = " + std::string(64, 'f') + ": 32 bytes little-endian >= r");
  with("no vanilla proofs", [](cz::SubmitProofRequest& r) { r.clear_vanilla_proofs(); },
       "SNAP_DEALS_UPDATE: vanilla_proofs: none, expected one bincode PartitionProof per partition (1)");
  with("two vanilla proofs for a sector of one partition",
       [&](cz::SubmitProofRequest& r) { r.add_vanilla_proofs(in.vanilla[0]); },
       "2 vanilla partition proofs, a 2KiB sector has 1 partitions");
  with("a vanilla proof of 1 byte", [](cz::SubmitProofRequest& r) { r.set_vanilla_proofs(0, "x"); },
       "vanilla_proofs[0]: bincode PartitionProof");
  with("a 1 KiB sector's vanilla proof for a 2 KiB request",
       [&](cz::SubmitProofRequest& r) { r.set_vanilla_proofs(0, one_kib.vanilla[0]); },
       "vanilla_proofs[0]: these vanilla proofs are for 1KiB sectors, the request is for 2KiB sectors");
  for (const Case& c : cases) {
    const cz::AwaitProofResponse res = cuzk_prove(*stub, c.request);
    EXPECT_EQ(res.status(), cz::AwaitProofResponse::FAILED) << c.what;
    EXPECT_NE(res.error_message().find(c.want), std::string::npos) << c.what << ": " << res.error_message();
  }
  EXPECT_EQ(h.status().jobs_completed() + h.status().jobs_failed(), 0u);
}

// cuzk request ids are kept as job ids (Curio's have spaces and brackets), at most 128 bytes of
// printable ASCII: a longer one, or one with a control character, is INVALID_ARGUMENT naming it.
TEST_F(CuzkSnap, RequestIdsAreBounded) {
  Harness h;
  auto stub = cz::ProvingEngine::NewStub(make_channel(h.daemon->listening().at(0)));
  const SnapInputs in = inputs(2048, 3);
  for (const auto& [id, want] : std::vector<std::pair<std::string, std::string>>{
           {std::string(129, 'a'), "request_id: 129 bytes, at most 128 allowed"},
           {std::string(1 << 20, 'a'), "request_id: 1048576 bytes, at most 128 allowed"},
           {"snap-1\n", "request_id: byte 6 (0x0a) is not printable ASCII"}}) {
    grpc::ClientContext ctx;
    cz::ProveResponse out;
    const grpc::Status st = stub->Prove(&ctx, snap_request(id, in, 0), &out);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << id.size();
    EXPECT_NE(st.error_message().find(want), std::string::npos) << st.error_message();
  }
  // Curio's form, 128 bytes with spaces and brackets: accepted as the job id (FAILED here only for the
  // missing parameter file).
  std::string curio = "wdpost-1000-0-[12 34 56 78 9 10 11 12]";
  curio += std::string(128 - curio.size(), '~');
  const cz::AwaitProofResponse res = cuzk_prove(*stub, snap_request(curio, in, 0));
  EXPECT_EQ(res.job_id(), curio);
  EXPECT_NE(res.error_message().find("parameter file"), std::string::npos) << res.error_message();
}

// A refused request (FAILED before the engine) is counted in GetStatus.total_proofs_failed, and
// AwaitProof answers the message it was refused with, at most CuzkService::kMaxFailureBytes (4096).
// (The echo itself — a 40 MB value repeated in the message grew a daemon by ~48 MB per request — is
// cut where the message is made, util excerpt(): tests/cli/newuser4_cli.sh's long registered_proof.)
TEST_F(CuzkSnap, RefusedRequestsAreCountedAndTheirMessagesBounded) {
  Harness h;
  auto stub = cz::ProvingEngine::NewStub(make_channel(h.daemon->listening().at(0)));
  const SnapInputs in = inputs(2048, 3);
  auto failed_total = [&] {
    grpc::ClientContext ctx;
    cz::GetStatusResponse st;
    EXPECT_TRUE(stub->GetStatus(&ctx, cz::GetStatusRequest{}, &st).ok());
    return st.total_proofs_failed();
  };
  const std::uint64_t before = failed_total();
  // A PoRep envelope whose Phase1Out is 1 MiB of characters outside base64.
  cz::SubmitProofRequest r;
  r.set_request_id("long-refusal");
  r.set_proof_kind(cz::POREP_SEAL_COMMIT);
  r.set_sector_size(2048);
  r.set_registered_proof(5);
  r.set_vanilla_proof("{\"SectorNum\":1,\"SectorSize\":2048,\"Phase1Out\":\"" + std::string(1 << 20, '*') + "\"}");
  cz::ProveRequest p;
  *p.mutable_submit() = r;
  const cz::AwaitProofResponse res = cuzk_prove(*stub, p);
  EXPECT_EQ(res.status(), cz::AwaitProofResponse::FAILED);
  // CuzkService::kMaxFailureBytes + the length note
  EXPECT_LE(res.error_message().size(), 4096u + 64) << res.error_message().substr(0, 200);
  // Two more refusals (a Snap request without its parameter file).
  cuzk_prove(*stub, snap_request("refused-1", in, 0));
  cuzk_prove(*stub, snap_request("refused-2", in, 0));
  EXPECT_EQ(failed_total(), before + 3);
  grpc::ClientContext ctx;
  cz::AwaitProofRequest a;
  a.set_job_id("long-refusal");
  cz::AwaitProofResponse again;
  ASSERT_TRUE(stub->AwaitProof(&ctx, a, &again).ok());
  EXPECT_EQ(again.status(), cz::AwaitProofResponse::FAILED);
  EXPECT_EQ(again.error_message(), res.error_message());
}

// PreloadSRS of a circuit id that is none: INVALID_ARGUMENT quoting it cut and printable (a
// 100,000-byte id came back whole and broke the client's metadata limit; a NUL cut the message).
TEST_F(CuzkSnap, UnknownCircuitIdsAreQuotedCut) {
  Harness h;
  auto stub = cz::ProvingEngine::NewStub(make_channel(h.daemon->listening().at(0)));
  for (const std::string& id : {std::string(100000, 'p'), std::string("porep-\0-2k", 11)}) {
    grpc::ClientContext ctx;
    cz::PreloadSrsRequest req;
    req.set_circuit_id(id);
    cz::PreloadSrsResponse out;
    const grpc::Status st = stub->PreloadSRS(&ctx, req, &out);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_LT(st.error_message().size(), 300u) << st.error_message().size();
    EXPECT_NE(st.error_message().find("is not a circuit id"), std::string::npos) << st.error_message();
  }
}

}  // namespace
}  // namespace proofline::server::testing
