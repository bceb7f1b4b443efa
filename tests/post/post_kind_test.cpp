// The "window-post" / "winning-post" kinds (src/engine/post_kind.cpp) through the engine on the CPU:
// the files `proofline gen-vanilla` writes → a verified 2 KiB WindowPoSt proof whose public inputs
// are the verifier's; a flipped sibling byte fails only that job, naming the constraint and the
// vanilla check's sector and challenge; parameters of the other circuit are named.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../support/kind_test_util.hpp"
#include "proofline/circuits/post.hpp"
#include "proofline/engine/engine.hpp"
#include "proofline/engine/kind.hpp"
#include "proofline/filecoin/post.hpp"
#include "proofline/filecoin/post_json.hpp"
#include "proofline/groth16/backend.hpp"
#include "proofline/groth16/setup.hpp"

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
  const auto pvk = groth16::prepare_verifying_key(groth16::Parameters::read_file(params).vk);
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

}  // namespace
}  // namespace proofline::engine
