// Dump for the engine's outside-oracle check (engine_check.mjs → groth16_check.mjs): runs the proving
// engine (CPU backend) on a bench job (2^8 rows, development parameters from the
// seed) and a snarkjs job (a toy-setup zkey of a 100-multiplication chain, converted by the engine
// to bellperson parameters), and prints each returned partition proof as snarkjs files:
// [{"name", "vk", "proof", "public"}, …]. The engine verified them itself; the oracles must agree.
// Usage: oracle_engine_dump [seed]
#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../engine/engine_test_util.hpp"
#include "proofline/engine/engine.hpp"
#include "proofline/groth16/snarkjs.hpp"

using namespace proofline;
using namespace proofline::engine;

int main(int argc, char** argv) {
  const std::uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1;
  spdlog::set_level(spdlog::level::warn);
  EngineConfig cfg;
  cfg.backends.push_back(std::make_shared<groth16::CpuBackend>());
  cfg.synthesis_workers = 2;
  cfg.log_partitions = false;
  Engine e(std::move(cfg));

  struct Case {
    std::string name, vk, proof, pub;
  };
  std::vector<Case> cases;
  auto add = [&](const std::string& name, const groth16::VerifyingKey& vk, const ProofResult& r) {
    if (r.state != JobState::Done) {
      std::fprintf(stderr, "engine job %s: %s: %s\n", name.c_str(), std::string(to_string(r.state)).c_str(),
                   r.error.c_str());
      std::exit(1);
    }
    for (std::size_t k = 0; k < r.proofs.size(); ++k) {
      cases.push_back({name + "_partition_" + std::to_string(k), groth16::snarkjs_vk_json(vk),
                       groth16::snarkjs_proof_json(r.proofs[k]), groth16::snarkjs_public_json(r.public_inputs[k])});
    }
  };

  const auto bench = e.submit(testing::bench_request("bench", 8, 1, seed));
  const auto files = testing::snarkjs_chain(100, 2 + seed % 1000, "oracle-chain");
  ProofRequest sj;
  sj.request_id = "snarkjs";
  sj.kind = "snarkjs";
  sj.args = {{"zkey", files.zkey}, {"wtns", files.wtns}};
  e.submit(sj);
  add("engine_bench_2^8", groth16::VerifyingKey::read_params_file_head(testing::bench_params(8)), e.await(bench.request_id).result);
  add("engine_snarkjs_chain100", files.vk, e.await("snarkjs").result);

  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  for (const Case& c : cases) {
    all.push_back({{"name", c.name},
                   {"vk", nlohmann::json::parse(c.vk)},
                   {"proof", nlohmann::json::parse(c.proof)},
                   {"public", nlohmann::json::parse(c.pub)}});
  }
  std::puts(all.dump(1).c_str());
  std::filesystem::remove_all(testing::test_dir());
  return 0;
}
