// proofline gen-c1 | seal | check-c1 (see filecoin_cmds.hpp).
#include "filecoin_cmds.hpp"

#include "common.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>

#include "proofline/filecoin/c1.hpp"
#include "proofline/filecoin/seal.hpp"
#include "proofline/filecoin/sector.hpp"
#include "proofline/filecoin/vanilla.hpp"
#include "proofline/util/error.hpp"

namespace proofline::cli {

namespace {

using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;
namespace fc = filecoin;

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

std::string hex(const fc::Domain& d) {
  static const char* k = "0123456789abcdef";
  std::string s;
  for (auto b : d) {
    s.push_back(k[b >> 4]);
    s.push_back(k[b & 15]);
  }
  return s;
}

fc::RegisteredSealProof pick_proof(const FilecoinCli& f) {
  if (!f.proof.empty()) {
    const auto p = fc::registered_seal_proof_from_string(f.proof);
    if (!f.sector_size.empty() && fc::parse_sector_size(f.sector_size) != fc::sector_size(p)) {
      throw UsageError("--proof " + f.proof + " does not have --sector-size " + f.sector_size);
    }
    return p;
  }
  if (f.sector_size.empty()) throw UsageError("give --sector-size (e.g. 2KiB, 32GiB) or --proof");
  return fc::default_seal_proof(fc::parse_sector_size(f.sector_size));
}

void print_summary(const fc::SealCommitPhase1Output& c1, const std::string& out, Json& j, bool json) {
  const fc::PorepConfig cfg = fc::porep_config(c1.registered_proof);
  j["registered_proof"] = std::string(fc::to_string(c1.registered_proof));
  j["out"] = out;
  j["partitions"] = c1.vanilla_proofs.size();
  j["challenges_per_partition"] = cfg.challenges_per_partition;
  j["comm_d"] = hex(c1.comm_d);
  j["comm_r"] = hex(c1.comm_r);
  j["replica_id"] = hex(c1.replica_id);
  if (!json) {
    std::cout << "proof       " << fc::to_string(c1.registered_proof) << " (" << c1.vanilla_proofs.size()
              << " partitions x " << cfg.challenges_per_partition << " challenges)\n"
              << "comm_d      " << hex(c1.comm_d) << "\n"
              << "comm_r      " << hex(c1.comm_r) << "\n"
              << "replica_id  " << hex(c1.replica_id) << "\n"
              << "c1          " << out << "\n";
  }
}

int gen_c1_cmd(const FilecoinCli& f) {
  const auto p = pick_proof(f);
  check_output_paths({}, {{"--out", f.out}});
  PendingOutput out(f.out);  // an unwritable --out is refused before the work
  Json j{{"command", "gen-c1"}};
  auto t0 = Clock::now();
  const auto c1 = fc::gen_c1({p, f.seed});
  const double gen_ms = ms_since(t0);
  t0 = Clock::now();
  out.write(fc::to_json(c1));
  out.commit();
  const double write_ms = ms_since(t0);
  print_summary(c1, f.out, j, f.json);
  j["gen_ms"] = gen_ms;
  j["write_ms"] = write_ms;
  if (f.json) {
    std::cout << j.dump(2) << "\n";
  } else {
    std::printf("generate    %10.1f ms\nwrite       %10.1f ms\n", gen_ms, write_ms);
  }
  return 0;
}

int seal_cmd(const FilecoinCli& f) {
  const auto p = pick_proof(f);
  check_output_paths({}, {{"--out", f.out}});
  PendingOutput out(f.out);
  const fc::PorepConfig cfg = fc::porep_config(p);
  if (cfg.shape->sector_bytes > fc::kMaxSealBytes) {
    throw UsageError(std::string(cfg.shape->name) + " is too large to seal in memory (at most 1GiB); use gen-c1");
  }
  std::mt19937_64 rng(f.seed);
  std::vector<fc::Domain> data(cfg.shape->nodes);
  if (!f.zero) {
    for (auto& d : data) {
      for (std::size_t i = 0; i < 32; i += 8) {
        const std::uint64_t w = rng();
        for (std::size_t b = 0; b < 8; ++b) d[i + b] = static_cast<std::uint8_t>(w >> (8 * b));
      }
      d[31] &= 0x3f;  // Fr32 padding: every node < 2^254
    }
  }
  fc::SealRequest req;
  req.proof = p;
  req.sector_id = f.sector_id;
  for (auto* d : {&req.prover_id, &req.ticket, &req.seed}) {
    for (auto& b : *d) b = static_cast<std::uint8_t>(rng());
  }
  if (!f.json) std::cerr << "sealing " << cfg.shape->name << " (" << cfg.shape->nodes << " nodes, " << cfg.shape->layers
                         << " layers)...\n";
  auto t0 = Clock::now();
  const fc::SealResult r = fc::seal_sector(req, data);
  const double seal_ms = ms_since(t0);
  t0 = Clock::now();
  out.write(fc::to_json(r.c1));
  out.commit();
  const double write_ms = ms_since(t0);
  Json j{{"command", "seal"}};
  print_summary(r.c1, f.out, j, f.json);
  j["prover_id"] = hex(req.prover_id);  // with sector_id: what replica_id was derived from
  j["sector_id"] = req.sector_id;
  const auto& t = r.timings;
  j["timings_ms"] = Json{{"tree_d", t.tree_d_ms}, {"parents", t.parents_ms}, {"labels", t.labels_ms},
                         {"tree_c", t.tree_c_ms}, {"tree_r", t.tree_r_ms},   {"proofs", t.proofs_ms},
                         {"total", seal_ms},      {"write", write_ms}};
  if (f.json) {
    std::cout << j.dump(2) << "\n";
  } else {
    std::printf("tree D      %10.1f ms\nparents     %10.1f ms\nlabels      %10.1f ms\ntree C      %10.1f ms\n"
                "tree R      %10.1f ms\nproofs      %10.1f ms\nseal total  %10.1f ms\nwrite       %10.1f ms\n",
                t.tree_d_ms, t.parents_ms, t.labels_ms, t.tree_c_ms, t.tree_r_ms, t.proofs_ms, seal_ms, write_ms);
  }
  return 0;
}

int check_c1_cmd(const FilecoinCli& f) {
  auto t0 = Clock::now();
  const auto c1 = fc::read_c1_file(f.c1);
  const double read_ms = ms_since(t0);
  t0 = Clock::now();
  const fc::VanillaCheck v = fc::verify_vanilla(c1);
  const double verify_ms = ms_since(t0);
  Json j{{"command", "check-c1"}, {"c1", f.c1}, {"registered_proof", std::string(fc::to_string(c1.registered_proof))},
         {"valid", v.ok},         {"read_ms", read_ms}, {"verify_ms", verify_ms}};
  if (!v.ok) {
    j["error"] = v.what;
    if (!v.global) {
      j["partition"] = v.partition;
      j["challenge"] = v.challenge;
      j["node"] = v.node;
    }
  }
  if (f.json) {
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << (v.ok ? "valid" : "INVALID: " + v.what) << "\n";
    std::printf("read        %10.1f ms\nverify      %10.1f ms\n", read_ms, verify_ms);
  }
  return v.ok ? 0 : 1;
}

}  // namespace

void add_filecoin_commands(CLI::App& app, FilecoinCli& f) {
  auto common = [&](CLI::App* s) {
    s->add_flag("--json", f.json, "print one JSON object on stdout instead of text");
    add_threads_option(*s, f.threads);
  };
  f.gen_c1 = app.add_subcommand("gen-c1", "write a valid C1 (commit phase 1 output) for a random sector of any size, "
                                          "without sealing it");
  f.gen_c1->add_option("--sector-size", f.sector_size, "2KiB, 8MiB, 512MiB, 32GiB, 64GiB (or a test size)");
  f.gen_c1->add_option("--proof", f.proof, "registered seal proof (default: the size's V1_1), interactive only");
  add_integer_option(*f.gen_c1, "--seed", f.seed, "randomness seed (the output is a function of proof and seed)", 0,
                     kMaxU64);
  f.gen_c1->add_option("--out", f.out, "output C1 JSON file")->required();
  common(f.gen_c1);

  f.seal = app.add_subcommand("seal", "seal a small sector (SDR: labels, trees D/C/R) and write its C1");
  f.seal->add_option("--sector-size", f.sector_size, "2KiB, 8MiB, … (at most 1 GiB)");
  f.seal->add_option("--proof", f.proof, "registered seal proof (default: the size's V1_1); synthetic and NI too");
  f.seal->add_flag("--zero", f.zero, "seal an all-zero sector (comm_d = the zero-sector root)");
  add_integer_option(*f.seal, "--seed", f.seed, "seed of the random data, prover id, ticket and interactive seed", 0,
                     kMaxU64);
  add_integer_option(*f.seal, "--sector-id", f.sector_id, "sector number (enters replica_id)", 0, kMaxU64);
  f.seal->add_option("--out", f.out, "output C1 JSON file")->required();
  common(f.seal);

  f.check_c1 = app.add_subcommand("check-c1", "parse a C1 JSON file and verify its vanilla proofs natively");
  f.check_c1->add_option("--c1", f.c1, "C1 JSON file")->required()->check(CLI::ExistingFile);
  common(f.check_c1);
}

int run_filecoin_commands(FilecoinCli& f) {
  const char* cmd = f.gen_c1 && f.gen_c1->parsed() ? "gen-c1"
                    : f.seal && f.seal->parsed()   ? "seal"
                    : f.check_c1 && f.check_c1->parsed() ? "check-c1"
                                                         : nullptr;
  if (!cmd) return -1;
  const auto limit = limit_threads(f.threads);
  return run_guarded(cmd, [&] {
    if (f.check_c1->parsed()) return check_c1_cmd(f);
    // gen-c1 and seal take every name and size from the command line: an unsupported one
    // (BadArgument) is a usage error there, not bad input.
    return flags_are_arguments([&] { return f.gen_c1->parsed() ? gen_c1_cmd(f) : seal_cmd(f); });
  }, f.json);
}

}  // namespace proofline::cli
