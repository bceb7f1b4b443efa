// The "window-post" / "winning-post" kinds (src/engine/post_kind.cpp) through the engine on the CPU:
// the files `proofline gen-vanilla` writes → a verified 2 KiB WindowPoSt proof whose public inputs
// are the verifier's; a flipped sibling byte fails only that job, naming the constraint and the
// vanilla check's sector and challenge; parameters of the other circuit are named. The cuzk.v1 form
// (registered_proof, randomness, miner_id, partition; sectors from the vanilla proofs) gives the
// proof of the request-file form; parameters preload without a request; a WinningPoSt without a
// priority is CRITICAL and takes the prover next, ahead of queued bench partitions.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <span>
#include <tuple>

#include "../support/kind_test_util.hpp"
#include "proofline/circuits/post.hpp"
#include "proofline/engine/engine.hpp"
#include "proofline/engine/kind.hpp"
#include "proofline/filecoin/post.hpp"
#include "proofline/filecoin/post_json.hpp"
#include "proofline/groth16/backend.hpp"
#include "proofline/groth16/setup.hpp"
#include "proofline/util/hex.hpp"

#include "../engine/engine_test_util.hpp"

namespace proofline::engine {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using filecoin::ApiVersion;
using filecoin::PoStType;

fs::path scratch() { return testing::scratch_dir("post-kind"); }
std::string write(const std::string& name, const std::string& text) {
  return testing::write_scratch("post-kind", name, text);
}

/// Dev parameters of a PoSt circuit, made once per process.
std::string params_for(PoStType t) {
  const auto p = filecoin::fallback_params(filecoin::post_config(t, 2048, ApiVersion::V1_2_0));
  const std::string path = (scratch() / filecoin::fallback_parameter_file_name(p, ".params")).string();
  if (!fs::exists(path)) {
    const auto shape = circuits::post::shape_for(p);
    groth16::SeededRandom rng(7);
    groth16::SetupOptions quiet;
    quiet.warn = false;
    groth16::generate_parameters(circuits::post::FallbackPoStCircuit(shape, circuits::post::blank_sectors(shape)), rng,
                                 quiet)
        .write_file(path);
  }
  return path;
}

EngineConfig config() { return testing::cpu_engine_config(1, std::uint64_t{1} << 30); }

TEST(PoStKind, WindowProofVerifiesAndTamperingIsNamed) {
  filecoin::GenPoStOptions o;
  o.config = filecoin::post_config(PoStType::Window, 2048, ApiVersion::V1_1_0);
  o.sectors = 3;
  filecoin::GeneratedPoSt g = filecoin::gen_post_vanilla(o);
  filecoin::PoStRequest req{g.config, o.miner_id, 1, g.public_inputs};
  const std::string request = write("request.json", filecoin::to_json(req));
  const std::string vanilla = write("vanilla.json", filecoin::vanilla_proofs_to_json(g.vanilla_proofs));
  const std::string params = params_for(PoStType::Window);

  Engine e(config());
  ProofRequest r;
  r.kind = "window-post";
  r.args = {{"request", request}, {"vanilla", vanilla}, {"params", params}};
  AwaitResult a = e.prove(r, 300s);
  ASSERT_EQ(a.result.state, JobState::Done) << a.result.error;
  ASSERT_EQ(a.result.proofs.size(), 1u);
  const auto fp = filecoin::fallback_params(g.config);
  EXPECT_EQ(a.result.public_inputs.at(0), circuits::post::post_public_inputs(fp, g.public_inputs, 1));
  const auto pvk = groth16::prepare_verifying_key(groth16::VerifyingKey::read_params_file_head(params));
  EXPECT_TRUE(groth16::verify_proof(pvk, a.result.proofs[0], circuits::post::post_public_inputs(fp, g.public_inputs, 1)));
  EXPECT_FALSE(groth16::verify_proof(pvk, a.result.proofs[0], circuits::post::post_public_inputs(fp, g.public_inputs, 0)));

  // Partition 0 (argument) with sector 1's challenge 4 sibling flipped.
  g.vanilla_proofs[1].sectors[0].inclusion_proofs[4].base[0].hashes[0][0] ^= 1;
  r.args["vanilla"] = write("bad.json", filecoin::vanilla_proofs_to_json(g.vanilla_proofs));
  r.args["partition"] = "0";
  a = e.prove(r, 300s);
  EXPECT_EQ(a.result.state, JobState::Failed);
  EXPECT_NE(a.result.error.find("unsatisfied: sector 1 challenge 4: challenged leaf inclusion in tree R"),
            std::string::npos)
      << a.result.error;
  EXPECT_NE(a.result.error.find("vanilla check: sector 1 (id "), std::string::npos) << a.result.error;

  // The winning circuit's parameters for a window request.
  r.args = {{"request", request}, {"vanilla", vanilla}, {"params", params_for(PoStType::Winning)}};
  a = e.prove(r, 300s);
  EXPECT_EQ(a.result.state, JobState::Failed);
  EXPECT_NE(a.result.error.find("is not for FallbackPoSt::PublicParams{sector_size: 2048, challenge_count: 10, "
                                "sector_count: 2}"),
            std::string::npos)
      << a.result.error;

  // A window request is not a winning-post job.
  r.kind = "winning-post";
  a = e.prove(r, 300s);
  EXPECT_EQ(a.result.state, JobState::Failed);
  EXPECT_NE(a.result.error.find("is a window PoSt request"), std::string::npos) << a.result.error;
  std::error_code ec;
  fs::remove_all(scratch(), ec);
}


// compiled=1 (issue 31): witness-only synthesis, the constraints evaluated by the backend from the
// circuit's compiled form (recorded by the first partition, written beside the parameters). For fixed
// r, s, the same proof bytes as prover mode — WindowPoSt and WinningPoSt at 2 KiB — and a tampered
// vanilla proof is named as in prover mode: the constraint, sector and challenge (the compiled form
// checks its constraints after the proof fails the self-check).
TEST(PoStKind, CompiledFormProvesTheSameBytes) {
  Engine e(config());
  for (const PoStType t : {PoStType::Window, PoStType::Winning}) {
    const bool window = t == PoStType::Window;
    SCOPED_TRACE(window ? "window" : "winning");
    filecoin::GenPoStOptions o;
    o.config = filecoin::post_config(t, 2048, ApiVersion::V1_2_0);
    o.sectors = window ? 2 : 1;
    filecoin::GeneratedPoSt g = filecoin::gen_post_vanilla(o);
    filecoin::PoStRequest req{g.config, o.miner_id, 0, g.public_inputs};
    const std::string tag = window ? "window" : "winning";
    const std::string request = write(tag + "-request.json", filecoin::to_json(req));
    const std::string vanilla = write(tag + "-vanilla.json", filecoin::vanilla_proofs_to_json(g.vanilla_proofs));
    const std::string params = params_for(t);

    ProofRequest r;
    r.kind = window ? "window-post" : "winning-post";
    r.args = {{"request", request}, {"vanilla", vanilla}, {"params", params}};
    const auto [want, got] = testing::prove_both_forms(
        e, r, {groth16::Randomizers{ff::Fr::from_u64(1234567), ff::Fr::from_u64(7654321)}}, 300s);
    ASSERT_EQ(want.result.state, JobState::Done);
    ASSERT_EQ(got.result.state, JobState::Done);
    ASSERT_EQ(got.result.proofs.size(), 1u);
    EXPECT_EQ(got.result.proofs[0].to_bytes(), want.result.proofs.at(0).to_bytes());
    // the backend evaluated the constraints in the compiled form, not in prover mode
    EXPECT_GT(got.result.partitions.at(0).backend_timings.evaluate, 0.0);
    EXPECT_EQ(want.result.partitions.at(0).backend_timings.evaluate, 0.0);
    EXPECT_TRUE(fs::is_regular_file(params + ".compiled"));

    // Sector 0's challenge 0 sibling flipped: failed, named as prover mode names it.
    g.vanilla_proofs[0].sectors[0].inclusion_proofs[0].base[0].hashes[0][0] ^= 1;
    r.args["vanilla"] = write(tag + "-bad.json", filecoin::vanilla_proofs_to_json(g.vanilla_proofs));
    r.args["compiled"] = "1";
    const AwaitResult bad = e.prove(r, 300s);
    EXPECT_EQ(bad.result.state, JobState::Failed);
    EXPECT_NE(bad.result.error.find("unsatisfied: sector 0 challenge 0: challenged leaf inclusion in tree R"),
              std::string::npos)
        << bad.result.error;
    EXPECT_NE(bad.result.error.find("vanilla check: sector 0 (id "), std::string::npos) << bad.result.error;
  }
  std::error_code ec;
  fs::remove_all(scratch(), ec);  // the cases after this one expect no parameter file there
}

// A 'partition' argument beyond the partitions the request's sectors make is an argument error
// (Failure::BadArgument, naming the partitions: a client whose arguments are flags calls it a usage
// error), refused before any parameter file is looked for.
TEST(PoStKind, PartitionBeyondTheRequestIsAnArgumentError) {
  filecoin::GenPoStOptions o;
  o.config = filecoin::post_config(PoStType::Window, 2048, ApiVersion::V1_2_0);
  o.sectors = 3;
  o.seed = 4;
  const filecoin::GeneratedPoSt g = filecoin::gen_post_vanilla(o);
  const std::string request = write("p.request.json", filecoin::to_json(filecoin::PoStRequest{g.config, o.miner_id, 0, g.public_inputs}));
  const std::string vanilla = write("p.vanilla.json", filecoin::vanilla_proofs_to_json(g.vanilla_proofs));
  Engine e(config());
  ProofRequest r;
  r.kind = "window-post";
  r.args = {{"request", request}, {"vanilla", vanilla}, {"partition", "2"}, {"param_cache", scratch().string()}};
  AwaitResult a = e.prove(r, 60s);
  EXPECT_EQ(a.result.state, JobState::Failed);
  EXPECT_EQ(a.result.failure, Failure::BadArgument);
  EXPECT_NE(a.result.error.find("argument 'partition' = 2: the request's 3 sectors at 2 per partition make partitions 0..1"),
            std::string::npos)
      << a.result.error;
  // Partition 1 exists: the job gets as far as the (missing) parameter file, bad input.
  r.args["partition"] = "1";
  a = e.prove(r, 60s);
  EXPECT_EQ(a.result.failure, Failure::BadInput);
  EXPECT_NE(a.result.error.find("parameter file"), std::string::npos) << a.result.error;
}

std::vector<std::uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

/// A request in the cuzk.v1 form: registered proof number, randomness, miner id, partition; the
/// vanilla proofs (JSON array of base64) as the payload.
ProofRequest cuzk_form(const std::string& kind, int registered, const filecoin::GeneratedPoSt& g, std::uint64_t miner,
                       std::size_t partition, std::span<const filecoin::FallbackPoStSectorProof> proofs) {
  ProofRequest r;
  r.kind = kind;
  r.args = {{"registered_proof", std::to_string(registered)},
            {"randomness", to_hex(g.public_inputs.randomness)},
            {"miner_id", std::to_string(miner)},
            {"partition", std::to_string(partition)}};
  r.payload = bytes_of(filecoin::vanilla_proofs_to_json(proofs));
  return r;
}

// The cuzk.v1 form of partition 1 of a 3-sector WindowPoSt of API 1.0.0 (registered proof 5, whose
// challenge indices count the sectors of partition 0): only sector 2's vanilla proof is sent, and
// the proof verifies against the inputs a verifier derives for partition 1 of all three sectors.
// Preloading by params path or registered proof gives the key the request uses.
TEST(PoStKind, CuzkFormAndPreload) {
  filecoin::GenPoStOptions o;
  o.config = filecoin::post_config(filecoin::RegisteredPoStProof::StackedDrgWindow2KiBV1);
  o.sectors = 3;
  o.miner_id = 1234;
  o.seed = 5;
  const filecoin::GeneratedPoSt g = filecoin::gen_post_vanilla(o);
  const std::string params = params_for(PoStType::Window);

  Engine e(config());
  // With registered_proof, parameters of another circuit are named when they load (first: an SRS
  // already resident is not loaded again; each request checks it against its circuit then).
  try {
    e.preload_srs("winning-post", {{"params", params}, {"registered_proof", "0"}});
    ADD_FAILURE() << "window parameters preloaded as winning ones";
  } catch (const std::exception& ex) {
    EXPECT_NE(std::string(ex.what()).find("is not for FallbackPoSt::PublicParams{sector_size: 2048, challenge_count: "
                                          "1, sector_count: 66}"),
              std::string::npos)
        << ex.what();
  }

  // engine.preload "window-post:<params>": no request needed.
  const SrsStatus pre = e.preload_srs("window-post", {{"params", params}});
  EXPECT_EQ(pre.state, "loaded");
  EXPECT_EQ(pre.key, fs::weakly_canonical(params).string() + file_version(params));
  // By registered proof: the upstream file name in param_cache, the same key.
  EXPECT_EQ(e.preload_srs("window-post", {{"registered_proof", "10"}, {"param_cache", scratch().string()}}).key,
            pre.key);
  for (const auto& [kind, args, want] : std::vector<std::tuple<std::string, std::map<std::string, std::string>, std::string>>{
           {"window-post", {}, "needs the argument 'params' (the .params file) or 'registered_proof'"},
           {"winning-post", {{"registered_proof", "3"}, {"param_cache", scratch().string()}},
            "parameter file '" + (scratch() / filecoin::fallback_parameter_file_name(
                                                  filecoin::fallback_params(filecoin::post_config(
                                                      filecoin::RegisteredPoStProof::StackedDrgWinning32GiBV1)),
                                                  ".params"))
                                     .string() +
                "' not found"},
           {"winning-post", {{"registered_proof", "10"}}, "'registered_proof' = 10 is StackedDrgWindow2KiBV1_1, a window"},
       }) {
    try {
      e.preload_srs(kind, args);
      ADD_FAILURE() << kind << ": preload accepted";
    } catch (const std::exception& ex) {
      EXPECT_NE(std::string(ex.what()).find(want), std::string::npos) << ex.what();
    }
  }
  ProofRequest r = cuzk_form("window-post", 5, g, o.miner_id, 1, std::span(g.vanilla_proofs).subspan(2));
  r.args["params"] = params;
  AwaitResult a = e.prove(r, 300s);
  ASSERT_EQ(a.result.state, JobState::Done) << a.result.error;
  EXPECT_EQ(a.result.srs_key, pre.key);
  EXPECT_EQ(a.result.timings.srs_load, 0.0);  // resident since the preload
  EXPECT_EQ(a.result.priority, Priority::High);  // window-post's default
  const auto fp = filecoin::fallback_params(g.config);
  const auto want = circuits::post::post_public_inputs(fp, g.public_inputs, 1);
  EXPECT_EQ(a.result.public_inputs.at(0), want);
  const auto pvk = groth16::prepare_verifying_key(groth16::VerifyingKey::read_params_file_head(params));
  EXPECT_TRUE(groth16::verify_proof(pvk, a.result.proofs.at(0), want));

  // Sent as partition 0, the same sector's challenges are those of position 0: another circuit
  // input, refused before proving (API 1.0.0 counts positions across partitions).
  r.args["partition"] = "0";
  a = e.prove(r, 300s);
  EXPECT_EQ(a.result.state, JobState::Failed);
  EXPECT_NE(a.result.error.find("differ from those a verifier derives"), std::string::npos) << a.result.error;

  // Bad forms, named.
  for (const auto& [args, want] : std::vector<std::pair<std::map<std::string, std::string>, std::string>>{
           {{{"registered_proof", "3"}}, "StackedDrgWinning32GiBV1, a winning PoSt proof (expected 5-14)"},
           {{{"randomness", std::string(64, 'f')}}, "argument 'randomness' = ffff"},
           {{{"request", "x.json"}}, "either 'request' or 'registered_proof', not both"},
       }) {
    ProofRequest bad = cuzk_form("window-post", 5, g, o.miner_id, 0, std::span(g.vanilla_proofs).subspan(0, 2));
    for (const auto& [k, v] : args) bad.args[k] = v;
    a = e.prove(bad, 60s);
    EXPECT_EQ(a.result.state, JobState::Failed);
    EXPECT_NE(a.result.error.find(want), std::string::npos) << a.result.error;
  }
  std::error_code ec;
  fs::remove_all(scratch(), ec);
}

// Issue 33: the same bytes — a vanilla proof whose own comm_r is flipped, every path and root valid —
// are refused in both request forms. With a request file the job is refused when it is made (bad
// input, before the parameters load), naming the partition, the sector, the vanilla proof and both
// comm_r values; in the cuzk.v1 form, whose sectors take the proofs' comm_r, the
// circuit's comm_r = Poseidon2(comm_c, comm_r_last) fails.
TEST(PoStKind, VanillaProofOfAnotherCommRIsRefused) {
  filecoin::GenPoStOptions o;
  o.config = filecoin::post_config(PoStType::Window, 2048, ApiVersion::V1_2_0);
  o.sectors = 2;
  o.seed = 9;
  filecoin::GeneratedPoSt g = filecoin::gen_post_vanilla(o);
  const filecoin::Domain request_comm_r = g.vanilla_proofs[0].comm_r;
  g.vanilla_proofs[0].comm_r[3] ^= 1;
  const std::string request = write("c.request.json", filecoin::to_json(filecoin::PoStRequest{g.config, o.miner_id, 0, g.public_inputs}));
  const std::string vanilla = write("c.vanilla.json", filecoin::vanilla_proofs_to_json(g.vanilla_proofs));
  Engine e(config());
  ProofRequest r;
  r.kind = "window-post";
  r.args = {{"request", request}, {"vanilla", vanilla}, {"params", params_for(PoStType::Window)}};
  AwaitResult a = e.prove(r, 60s);
  EXPECT_EQ(a.result.state, JobState::Failed);
  EXPECT_EQ(a.result.failure, Failure::BadInput);
  EXPECT_EQ(a.result.timings.srs_load, 0.0);
  EXPECT_NE(a.result.error.find("partition 0 sector 0 (id " + std::to_string(g.public_inputs.sectors[0].sector_id) +
                                "): vanilla_proofs[0] carries comm_r " + to_hex(g.vanilla_proofs[0].comm_r) +
                                ", the request has comm_r " + to_hex(request_comm_r)),
            std::string::npos)
      << a.result.error;

  ProofRequest c = cuzk_form("window-post", 10, g, o.miner_id, 0, g.vanilla_proofs);
  c.args["params"] = r.args["params"];
  a = e.prove(c, 300s);
  EXPECT_EQ(a.result.state, JobState::Failed);
  EXPECT_NE(a.result.error.find("unsatisfied: sector 0: comm_r"), std::string::npos) << a.result.error;
  std::error_code ec;
  fs::remove_all(scratch(), ec);
}

// A WinningPoSt that sets no priority is CRITICAL and gets the prover right after the partition
// that holds it, ahead of the bench partitions (NORMAL, no priority set either) queued before it:
// the engine's timeline of prove spans, with the prover held by a gate (no timing assumptions).
TEST(PoStKind, WinningPoStTakesTheNextProverSlot) {
  filecoin::GenPoStOptions o;
  o.config = filecoin::post_config(filecoin::RegisteredPoStProof::StackedDrgWinning2KiBV1);
  o.seed = 9;
  const filecoin::GeneratedPoSt g = filecoin::gen_post_vanilla(o);
  ProofRequest win = cuzk_form("winning-post", 0, g, o.miner_id, 0, g.vanilla_proofs);
  win.request_id = "win";
  win.args["params"] = params_for(PoStType::Winning);
  ASSERT_FALSE(win.priority.has_value());

  auto be = std::make_shared<testing::TestBackend>(/*gate_closed=*/true);
  EngineConfig cfg = config();
  cfg.backends = {be};
  Engine e(std::move(cfg));
  // However the case ends, the prover opens before the engine goes (its shutdown waits for its jobs).
  struct OpenAtEnd {
    testing::TestBackend& be;
    ~OpenAtEnd() { be.open(); }
  } open_at_end{*be};
  e.preload_srs("winning-post", {{"params", win.args["params"]}});  // its prepare does not wait for a load
  ProofRequest bench = testing::bench_request("stream", 6, 4, 100);
  bench.priority.reset();  // the kind's default: NORMAL
  e.submit(bench);
  ASSERT_TRUE(be->wait_entered(1));  // partition 0 holds the prover
  auto prove_pending = [&](Priority p) {
    for (const QueueStatus& q : e.status().queues) {
      if (q.stage == "prove" && q.priority == p) return q.pending;
    }
    return std::size_t{0};
  };
  // Partition 1 waits for the prover (latency-first scheduling synthesizes no more of a class than
  // keeps the prover fed: one partition per prover worker while nothing was measured).
  ASSERT_TRUE(testing::eventually([&] { return prove_pending(Priority::Normal) == 1; }));
  e.submit(win);
  ASSERT_TRUE(testing::eventually([&] { return prove_pending(Priority::Critical) == 1; }));
  EXPECT_EQ(e.peek("win").result.priority, Priority::Critical);
  EXPECT_EQ(e.peek("stream").result.priority, Priority::Normal);
  // An explicit priority wins over the kind's default.
  ProofRequest low = win;
  low.request_id = "win-low";
  low.priority = Priority::Low;
  e.submit(low);
  EXPECT_EQ(e.peek("win-low").result.priority, Priority::Low);
  e.cancel("win-low");
  be->open();
  const AwaitResult w = e.await("win", 300s);
  ASSERT_EQ(w.result.state, JobState::Done) << w.result.error;
  EXPECT_EQ(w.result.priority, Priority::Critical);
  ASSERT_EQ(e.await("stream", 300s).result.state, JobState::Done);

  std::vector<StageSpan> prove;
  for (const StageSpan& s : e.timeline()) {
    if (s.stage == "prove" && s.request_id != "win-low") prove.push_back(s);
  }
  std::sort(prove.begin(), prove.end(), [](const StageSpan& a, const StageSpan& b) { return a.start_s < b.start_s; });
  std::vector<std::string> order;
  for (const StageSpan& s : prove) order.push_back(s.request_id + "/" + std::to_string(s.partition));
  EXPECT_EQ(order, (std::vector<std::string>{"stream/0", "win/0", "stream/1", "stream/2", "stream/3"}));
  // Its public inputs are the verifier's, from randomness, sector id and comm_r.
  const auto fp = filecoin::fallback_params(g.config);
  EXPECT_EQ(w.result.public_inputs.at(0), circuits::post::post_public_inputs(fp, g.public_inputs, 0));
  std::error_code ec;
  fs::remove_all(scratch(), ec);
}


// One parameter loader: the PoSt kinds load their .params through groth16::load_parameters. With the
// host queries left in the file (an engine of GPU backends only) load_srs gives a header shell, no
// query on the host and Srs::bytes = the vk's bytes; with Keep (a CPU backend) a whole host copy.
// The request job and the parameter-only job (preload) alike.
TEST(PoStKind, LoadSrsLeavesTheQueriesInTheFileWhenTheBackendsAskIt) {
  filecoin::GenPoStOptions o;
  o.config = filecoin::post_config(PoStType::Window, 2048, ApiVersion::V1_2_0);
  o.sectors = 2;
  filecoin::GeneratedPoSt g = filecoin::gen_post_vanilla(o);
  const std::string params = params_for(PoStType::Window);
  ProofRequest r;
  r.kind = "window-post";
  r.args = {{"request", write("shell-request.json", filecoin::to_json(filecoin::PoStRequest{g.config, o.miner_id, 0,
                                                                                             g.public_inputs}))},
            {"vanilla", write("shell-vanilla.json", filecoin::vanilla_proofs_to_json(g.vanilla_proofs))},
            {"params", params}};
  const auto registry = KindRegistry::builtin();  // kept alive: find() returns a pointer into it
  const ProofKind* kind = registry->find("window-post");
  ASSERT_NE(kind, nullptr);
  const groth16::Parameters whole = groth16::Parameters::read_file(params);
  const auto no_progress = [](double) {};
  ProofRequest preload;
  preload.kind = "window-post";
  preload.args = {{"params", params}};
  for (const auto& job : {kind->prepare(r), kind->prepare_srs(preload)}) {
    std::shared_ptr<const Srs> shell, copy;
    {
      testing::HostQueriesScope leave(groth16::HostQueries::LeaveInFile);
      shell = job->load_srs(no_progress);
    }
    {
      testing::HostQueriesScope keep(groth16::HostQueries::Keep);
      copy = job->load_srs(no_progress);
    }
    EXPECT_FALSE(shell->params.has_host_queries());
    EXPECT_TRUE(shell->params.h.empty() && shell->params.l.empty() && shell->params.a.empty() &&
                shell->params.b_g1.empty() && shell->params.b_g2.empty());
    EXPECT_EQ(shell->params.h_len(), whole.h.size());
    EXPECT_EQ(shell->params.num_aux(), whole.l.size());
    EXPECT_EQ(shell->params.num_inputs(), whole.vk.ic.size());
    EXPECT_EQ(shell->params.vk, whole.vk);
    EXPECT_EQ(shell->bytes, sizeof(ec::G1Affine) * whole.vk.ic.size());
    job->check(*shell);  // the counts check answers from the file

    EXPECT_TRUE(copy->params.has_host_queries());
    EXPECT_EQ(copy->params.h, whole.h);
    EXPECT_EQ(copy->params.b_g2, whole.b_g2);
    EXPECT_EQ(copy->bytes, parameters_bytes(whole));
    EXPECT_GT(copy->bytes, shell->bytes + sizeof(ec::G1Affine) * whole.h.size());
  }
}

}  // namespace
}  // namespace proofline::engine
