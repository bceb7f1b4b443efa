// The "snap-update" kind (src/engine/snap_kind.cpp) through the engine on the CPU: refusals named
// before any proving (vanilla proofs of the wrong partition count, parameters of another circuit);
// and (ctest snap_kind, label slow: a 1 KiB setup and proof take minutes) the files `proofline
// gen-vanilla snap` writes → a verified proof whose public inputs are the verifier's, a flipped
// sibling byte failing the job with the partition, part, constraint path and the vanilla check named.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <vector>

#include "../support/kind_test_util.hpp"
#include "snap_dev_params.hpp"
#include "proofline/circuits/post.hpp"
#include "proofline/circuits/snap.hpp"
#include "proofline/engine/engine.hpp"
#include "proofline/engine/kind.hpp"
#include "proofline/filecoin/post.hpp"
#include "proofline/filecoin/snap.hpp"
#include "proofline/filecoin/snap_json.hpp"
#include "proofline/groth16/backend.hpp"
#include "proofline/groth16/setup.hpp"
#include "proofline/util/hex.hpp"

namespace proofline::engine {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

fs::path scratch() { return testing::scratch_dir("snap-kind"); }
std::string write(const std::string& name, const std::string& text) {
  return testing::write_scratch("snap-kind", name, text);
}

template <class Circuit>
std::string params_of(const std::string& name, const Circuit& blank) {
  const std::string path = (scratch() / name).string();
  if (!fs::exists(path)) {
    groth16::SeededRandom rng(7);
    groth16::SetupOptions quiet;
    quiet.warn = false;
    groth16::generate_parameters(blank, rng, quiet).write_file(path);
  }
  return path;
}

EngineConfig config() { return testing::cpu_engine_config(0, std::uint64_t{3} << 30); }

struct Files {
  filecoin::GeneratedSnap g;
  std::string request, vanilla;
};

Files files(std::uint64_t bytes) {
  filecoin::GenSnapOptions o;
  o.sector_bytes = bytes;
  o.seed = 31;
  Files f{filecoin::gen_snap_vanilla(o), "", ""};
  f.request = write("request.json", filecoin::to_json(filecoin::SnapRequest{bytes, f.g.public_inputs}));
  f.vanilla = write("vanilla.json", filecoin::snap_vanilla_proofs_to_json(f.g.partition_proofs));
  return f;
}

TEST(SnapKind, RefusalsAreNamed) {
  const Files f = files(1024);
  Engine e(config());
  ProofRequest r;
  r.kind = "snap-update";
  // Parameters of another circuit (a 2 KiB WindowPoSt partition): named before any point is read.
  const auto fp = filecoin::fallback_params(filecoin::post_config(filecoin::PoStType::Window, 2048, filecoin::ApiVersion::V1_2_0));
  const auto shape = circuits::post::shape_for(fp);
  const std::string post_params =
      params_of("post.params", circuits::post::FallbackPoStCircuit(shape, circuits::post::blank_sectors(shape)));
  r.args = {{"request", f.request}, {"vanilla", f.vanilla}, {"params", post_params}};
  AwaitResult a = e.prove(r, 300s);
  EXPECT_EQ(a.result.state, JobState::Failed);
  EXPECT_NE(a.result.error.find("is not for empty_sector_update::PublicParams{ sector_nodes: 32 } (SnapDeals 1KiB)"),
            std::string::npos)
      << a.result.error;
  // Two partition proofs for a sector of one partition.
  std::vector<filecoin::SnapPartitionProof> two = {f.g.partition_proofs[0], f.g.partition_proofs[0]};
  r.args["vanilla"] = write("two.json", filecoin::snap_vanilla_proofs_to_json(two));
  a = e.prove(r, 300s);
  EXPECT_EQ(a.result.state, JobState::Failed);
  EXPECT_NE(a.result.error.find("2 vanilla partition proofs, a 1KiB sector has 1 partitions"), std::string::npos)
      << a.result.error;
  // A PoSt request is not a Snap request.
  r.args["vanilla"] = f.vanilla;
  r.args["request"] = write("post.json", R"({"post_type": "window", "sector_size": 2048})");
  a = e.prove(r, 300s);
  EXPECT_EQ(a.result.state, JobState::Failed);
  EXPECT_NE(a.result.error.find("Snap request: comm_r_old: missing"), std::string::npos) << a.result.error;
}

// The cuzk.v1 form (registered_proof + the three commitments instead of the request JSON): the
// request it makes is the one of the request JSON (same job, so the parameter file named is the
// 2 KiB circuit's upstream one), and each bad form is named before any proving.
TEST(SnapKind, CuzkFormRefusalsAreNamed) {
  const Files f = files(2048);
  Engine e(config());
  ProofRequest r;
  r.kind = "snap-update";
  r.args = {{"registered_proof", "0"},
            {"comm_r_old", to_hex(f.g.public_inputs.comm_r_old)},
            {"comm_d_new", to_hex(f.g.public_inputs.comm_d_new)},
            {"comm_r_new", to_hex(f.g.public_inputs.comm_r_new)},
            {"param_cache", scratch().string()}};
  const std::string vanilla_text = filecoin::snap_vanilla_proofs_to_json(f.g.partition_proofs);
  r.payload.assign(vanilla_text.begin(), vanilla_text.end());
  const std::string file =
      (scratch() / filecoin::snap_parameter_file_name(filecoin::snap_params(2048), ".params")).string();
  AwaitResult a = e.prove(r, 60s);
  EXPECT_EQ(a.result.state, JobState::Failed);
  EXPECT_NE(a.result.error.find("parameter file '" + file + "' not found"), std::string::npos) << a.result.error;
  for (const auto& [args, want] : std::vector<std::pair<std::map<std::string, std::string>, std::string>>{
           {{{"request", f.request}}, "either 'request' or 'registered_proof', not both"},
           {{{"registered_proof", "5"}}, "argument 'registered_proof'"},
           {{{"comm_r_new", ""}}, "kind 'snap-update' needs the argument 'comm_r_new'"},
           {{{"comm_d_new", std::string(64, 'f')}},
            "argument 'comm_d_new' = " + std::string(64, 'f') + ": 32 bytes little-endian >= r"},
           {{{"registered_proof", "1"}}, "these vanilla proofs are for 2KiB sectors, the request is for 8MiB sectors"},
       }) {
    ProofRequest bad = r;
    for (const auto& [k, v] : args) bad.args[k] = v;
    a = e.prove(bad, 60s);
    EXPECT_EQ(a.result.state, JobState::Failed);
    EXPECT_NE(a.result.error.find(want), std::string::npos) << a.result.error;
  }
  ProofRequest none = r;
  none.args.erase("registered_proof");
  for (const char* k : {"comm_r_old", "comm_d_new", "comm_r_new"}) none.args.erase(k);
  a = e.prove(none, 60s);
  EXPECT_EQ(a.result.state, JobState::Failed);
  EXPECT_NE(a.result.error.find("needs the argument 'request' (a request JSON path), or 'registered_proof' with "
                                "'comm_r_old', 'comm_d_new' and 'comm_r_new'"),
            std::string::npos)
      << a.result.error;
}

/// A .params file of `counts`' shape whose query sections are holes (a sparse file: what a header
/// shell reads is the vk and the counts, never a query point): vk of generators, h of 2^20 − 1 points,
/// l of counts.aux, a of counts.inputs, b_g1 = b_g2 empty.
std::string sparse_params(const std::string& name, const circuits::snap::SnapCounts& counts) {
  groth16::VerifyingKey vk;
  vk.alpha_g1 = vk.beta_g1 = vk.delta_g1 = ec::G1Affine::generator();
  vk.beta_g2 = vk.gamma_g2 = vk.delta_g2 = ec::G2Affine::generator();
  vk.ic.assign(counts.inputs, ec::G1Affine::generator());
  std::vector<std::uint8_t> bytes = vk.to_bytes();
  const std::string path = (scratch() / name).string();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  auto count = [&](std::uint32_t n, std::uint64_t point_bytes) {
    const char be[4] = {char(n >> 24), char(n >> 16), char(n >> 8), char(n)};
    out.write(be, 4);
    out.seekp(static_cast<std::streamoff>(n * point_bytes), std::ios::cur);
  };
  count((1u << 20) - 1, groth16::kG1Uncompressed);                        // h
  count(static_cast<std::uint32_t>(counts.aux), groth16::kG1Uncompressed);     // l
  count(static_cast<std::uint32_t>(counts.inputs), groth16::kG1Uncompressed);  // a
  count(0, groth16::kG1Uncompressed);                                     // b_g1
  count(0, groth16::kG2Uncompressed);                                     // b_g2 (ends the file)
  out.close();
  return path;
}

// One parameter loader: the Snap kind loads its .params through groth16::load_parameters. With the
// host queries left in the file (an engine of GPU backends only) a request's load_srs gives a header
// shell of the 1 KiB circuit's shape (its counts checked, no query point read: the file's queries are
// holes) with Srs::bytes = the vk's bytes; with Keep (a CPU backend) the parameter-only job (preload)
// reads a whole host copy, and with LeaveInFile a shell of the same file.
TEST(SnapKind, LoadSrsLeavesTheQueriesInTheFileWhenTheBackendsAskIt) {
  const Files f = files(1024);
  const auto counts = circuits::snap::count_snap(filecoin::snap_params(1024));
  const std::string sparse = sparse_params("sparse-1KiB.params", counts);
  const auto registry = KindRegistry::builtin();  // kept alive: find() returns a pointer into it
  const ProofKind* kind = registry->find("snap-update");
  ASSERT_NE(kind, nullptr);
  const auto no_progress = [](double) {};
  ProofRequest r;
  r.kind = "snap-update";
  r.args = {{"request", f.request}, {"vanilla", f.vanilla}, {"params", sparse}};
  const auto job = kind->prepare(r);
  {
    testing::HostQueriesScope leave(groth16::HostQueries::LeaveInFile);
    const auto shell = job->load_srs(no_progress);
    EXPECT_FALSE(shell->params.has_host_queries());
    EXPECT_EQ(shell->params.num_inputs(), counts.inputs);
    EXPECT_EQ(shell->params.num_aux(), counts.aux);
    EXPECT_EQ(shell->params.domain_size(), std::size_t{1} << 20);
    EXPECT_TRUE(shell->params.l.empty());
    EXPECT_EQ(shell->bytes, sizeof(ec::G1Affine) * counts.inputs);
    job->check(*shell);
  }

  // A small real file (a 2 KiB WindowPoSt partition's) through the parameter-only job.
  const auto fp = filecoin::fallback_params(filecoin::post_config(filecoin::PoStType::Window, 2048, filecoin::ApiVersion::V1_2_0));
  const auto shape = circuits::post::shape_for(fp);
  const std::string real =
      params_of("post.params", circuits::post::FallbackPoStCircuit(shape, circuits::post::blank_sectors(shape)));
  const groth16::Parameters whole = groth16::Parameters::read_file(real);
  ProofRequest preload;
  preload.kind = "snap-update";
  preload.args = {{"params", real}};
  const auto only = kind->prepare_srs(preload);
  std::shared_ptr<const Srs> shell, copy;
  {
    testing::HostQueriesScope leave(groth16::HostQueries::LeaveInFile);
    shell = only->load_srs(no_progress);
  }
  {
    testing::HostQueriesScope keep(groth16::HostQueries::Keep);
    copy = only->load_srs(no_progress);
  }
  EXPECT_FALSE(shell->params.has_host_queries());
  EXPECT_EQ(shell->params.num_aux(), whole.l.size());
  EXPECT_EQ(shell->bytes, sizeof(ec::G1Affine) * whole.vk.ic.size());
  EXPECT_TRUE(copy->params.has_host_queries());
  EXPECT_EQ(copy->params.l, whole.l);
  EXPECT_EQ(copy->params.b_g2, whole.b_g2);
  EXPECT_EQ(copy->bytes, parameters_bytes(whole));
}

TEST(SnapKindSlow, DISABLED_ProofVerifiesAndTamperingIsNamed) {
  const Files f = files(1024);
  const filecoin::SnapParams& p = filecoin::snap_params(1024);
  const std::string params = testing::snap_1kib_dev_params_file();  // shared with SnapProveSlow
  Engine e(config());
  ProofRequest r;
  r.kind = "snap-update";
  r.args = {{"request", f.request}, {"vanilla", f.vanilla}, {"params", params}};
  AwaitResult a = e.prove(r, 900s);
  ASSERT_EQ(a.result.state, JobState::Done) << a.result.error;
  ASSERT_EQ(a.result.proofs.size(), 1u);
  const std::vector<ff::Fr> inputs = circuits::snap::snap_public_inputs(p, f.g.public_inputs, 0);
  EXPECT_EQ(a.result.public_inputs.at(0), inputs);
  const auto pvk = groth16::prepare_verifying_key(groth16::VerifyingKey::read_params_file_head(params));
  EXPECT_TRUE(groth16::verify_proof(pvk, a.result.proofs[0], inputs));
  filecoin::SnapPublicInputs other = f.g.public_inputs;
  other.comm_r_new[1] ^= 1;
  EXPECT_FALSE(groth16::verify_proof(pvk, a.result.proofs[0], circuits::snap::snap_public_inputs(p, other, 0)));

  // compiled=1 (issue 31): witness-only synthesis, the constraints evaluated by the backend from the
  // compiled circuit (recorded once, written beside the parameters): for fixed r, s the same proof
  // bytes as prover mode.
  const auto [fixed, compiled] = testing::prove_both_forms(
      e, r, {groth16::Randomizers{ff::Fr::from_u64(424242), ff::Fr::from_u64(171717)}}, 900s);
  ASSERT_EQ(compiled.result.state, JobState::Done);
  ASSERT_EQ(fixed.result.state, JobState::Done);
  EXPECT_EQ(compiled.result.proof_bytes, fixed.result.proof_bytes);
  EXPECT_GT(compiled.result.partitions.at(0).backend_timings.evaluate, 0.0);
  EXPECT_TRUE(std::filesystem::is_regular_file(params + ".compiled"));

  // Challenge 3's tree D sibling at level 1 flipped: named alike in both forms (the compiled form
  // checks its constraints once the proof fails the self-check).
  std::vector<filecoin::SnapPartitionProof> bad = f.g.partition_proofs;
  bad[0].challenge_proofs[3].proof_d_new.base[1].hashes[0][0] ^= 1;
  r.args["vanilla"] = write("bad.json", filecoin::snap_vanilla_proofs_to_json(bad));
  for (const char* form : {"0", "1"}) {
    SCOPED_TRACE(std::string("compiled=") + form);
    r.args["compiled"] = form;
    a = e.prove(r, 900s);
    EXPECT_EQ(a.result.state, JobState::Failed);
    EXPECT_NE(a.result.error.find("partition 0, constraint "), std::string::npos) << a.result.error;
    EXPECT_NE(a.result.error.find("unsatisfied: challenge 3: tree D new inclusion up to the apex leaf (por "
                                  "to_apex_leaf (c_index=3)/calculated root == provided root); vanilla check: "
                                  "partition 0 challenge 3"),
              std::string::npos)
        << a.result.error;
  }
  std::error_code ec;
  fs::remove_all(scratch(), ec);
}

}  // namespace
}  // namespace proofline::engine
