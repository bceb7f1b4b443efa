// The compiled form of every kind's circuits (include/proofline/engine/kind.hpp "The compiled form";
// issue 31): the compiled circuit of a parameter file, made once per process and cached on disk
// beside the parameters, and witness-only synthesis into a partition's buffers.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "proofline/engine/kind.hpp"
#include "proofline/r1cs/circuit_recorder.hpp"
#include "proofline/r1cs/compiled_circuit.hpp"
#include "proofline/r1cs/compiled_file.hpp"
#include "proofline/r1cs/witness_assignment.hpp"
#include "proofline/util/error.hpp"
#include "log.hpp"

namespace proofline::engine {

namespace fs = std::filesystem;

ArgSpec compiled_arg(const std::string& default_value) {
  return ArgSpec("compiled", ArgType::Bool,
                 "synthesize the witness only and let the backend evaluate the constraints from the compiled "
                 "circuit (on the GPU where there is one: a, b, c never on the host); the compiled circuit is read "
                 "from <params>.compiled, or recorded once and written there")
      .defaults_to(default_value);
}

namespace {

/// One compiled circuit per SRS key: its own lock, so that recording one circuit (seconds at 32 GiB)
/// holds up no caller of another. `cc` under `mu`; what status reads of it (`held`) under the
/// registry's lock, set once the circuit is there, so that status never waits for a recording.
struct CompiledEntry {
  std::mutex mu;
  std::shared_ptr<const r1cs::CompiledCircuit> cc;
  bool none = false;  ///< under mu: compiled_circuit_made's maker had no compiled form for it
  std::shared_ptr<const r1cs::CompiledCircuit> held;  ///< under Registry::mu
  CompiledCircuitStatus status;                       ///< under Registry::mu (device_bytes left 0)
};

struct Registry {
  std::mutex mu;
  std::map<std::string, std::shared_ptr<CompiledEntry>> entries;
  std::atomic<std::uint64_t> host_bytes{0};
};

Registry& registry() {
  static Registry r;
  return r;
}

std::shared_ptr<CompiledEntry> compiled_entry(const std::string& key) {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mu);
  auto& e = r.entries[key];
  if (!e) e = std::make_shared<CompiledEntry>();
  return e;
}

/// Publishes entry's circuit for status and accounting (once per entry).
void publish(CompiledEntry& e, const std::string& key, const std::string& file, bool read_from_file,
             std::uint64_t disk_bytes) {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mu);
  if (e.held) return;
  // released while it was being recorded (its SRS evicted meanwhile): the caller has it, nobody lists it
  const auto it = r.entries.find(key);
  if (it == r.entries.end() || it->second.get() != &e) return;
  e.held = e.cc;
  e.status.key = key;
  e.status.file = disk_bytes > 0 ? file : std::string();
  e.status.constraints = e.cc->shape().constraints;
  e.status.coefficients = e.cc->coefficients().size();
  e.status.host_bytes = e.cc->bytes();
  e.status.disk_bytes = disk_bytes;
  e.status.mapped = read_from_file;
  r.host_bytes += e.status.host_bytes;
}

/// The counts of a compiled circuit against those of the parameters and of the caller's circuit.
void check_compiled_counts(const std::string& file, const r1cs::CompiledCircuit& cc, const groth16::Parameters& p,
                           const std::optional<r1cs::CircuitShape>& expected) {
  const auto refuse = [&](const std::string& what, std::size_t ins, std::size_t aux) {
    throw ProoflineError(Error::BadArgument,
                         "compiled circuit '" + file + "': " + std::to_string(cc.shape().inputs) + " inputs and " +
                             std::to_string(cc.shape().aux) + " aux variables, expected " + std::to_string(ins) +
                             " and " + std::to_string(aux) + " (" + what +
                             "): a compiled circuit of another circuit; remove it to have it made again");
  };
  if (p.num_inputs() != 0 && (cc.shape().inputs != p.num_inputs() || cc.shape().aux != p.num_aux())) {
    refuse("the parameters' circuit", p.num_inputs(), p.num_aux());
  }
  if (expected && (cc.shape().inputs != expected->inputs || cc.shape().aux != expected->aux)) {
    refuse("the request's circuit", expected->inputs, expected->aux);
  }
}

}  // namespace

std::shared_ptr<const r1cs::CompiledCircuit> compiled_circuit(const std::string& kind, const std::string& key,
                                                              const std::string& params, const groth16::Parameters& p,
                                                              const r1cs::CircuitInterface& circuit,
                                                              const std::optional<r1cs::CircuitShape>& expected) {
  const auto entry = compiled_entry(key);
  const std::lock_guard<std::mutex> lock(entry->mu);
  if (entry->cc) {
    check_compiled_counts("(in memory) " + params + ".compiled", *entry->cc, p, expected);
    return entry->cc;
  }
  const std::string file = params + ".compiled";
  std::error_code ec, ec2;
  // A compiled file older than the parameter file is from before the parameters were made again
  // (another circuit version, perhaps of the same counts): recorded again and replaced.
  const bool there = fs::is_regular_file(file, ec);
  const bool stale = there && fs::last_write_time(file, ec) < fs::last_write_time(params, ec2);
  if (stale) log()->warn("{}: '{}' is older than '{}': recording the compiled circuit again", kind, file, params);
  std::shared_ptr<const r1cs::CompiledCircuit> cc;
  std::uint64_t disk_bytes = 0;
  bool read_from_file = false;
  // The log lines carry what issue 31 records of a compiled circuit: how long recording (or reading)
  // took, its size in memory (= its arrays on a device, DeviceCompiledCircuit) and on disk, and how
  // many distinct coefficients its table holds.
  using Clock = std::chrono::steady_clock;
  const auto secs = [](Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  const auto t0 = Clock::now();
  if (there && !stale) {
    r1cs::CompiledReadOptions o;
    o.expected = expected;  // a file of another shape: Error::BadArgument naming the file and the field
    cc = std::make_shared<const r1cs::CompiledCircuit>(r1cs::read_compiled_circuit(file, o));
    check_compiled_counts(file, *cc, p, expected);
    disk_bytes = fs::file_size(file, ec);
    if (ec) disk_bytes = 0;
    read_from_file = true;
    log()->info("{}: compiled circuit read from '{}' in {:.2f} s ({} constraints, {} distinct coefficients, {:.2f} GB "
                "in memory and on a device)",
                kind, file, secs(t0), cc->shape().constraints, cc->coefficients().size(), double(cc->bytes()) / 1e9);
  } else {
    r1cs::CircuitRecorder rec;
    r1cs::synthesize(circuit, rec);
    cc = std::make_shared<const r1cs::CompiledCircuit>(std::move(rec).compile());
    check_compiled_counts("(recorded) " + file, *cc, p, expected);
    const double record_s = secs(t0);
    const auto t1 = Clock::now();
    try {
      const std::uint64_t bytes = r1cs::write_compiled_circuit(file, *cc);
      disk_bytes = bytes;
      log()->info("{}: compiled circuit recorded in {:.2f} s ({} constraints, {} distinct coefficients, {:.2f} GB in "
                  "memory and on a device), written to '{}' in {:.2f} s ({:.2f} GB on disk)",
                  kind, record_s, cc->shape().constraints, cc->coefficients().size(), double(cc->bytes()) / 1e9, file,
                  secs(t1), double(bytes) / 1e9);
    } catch (const std::exception& e) {
      log()->warn("{}: compiled circuit recorded in {:.2f} s, kept in memory only (not written: {})", kind, record_s,
                  e.what());
    }
  }
  entry->cc = cc;
  publish(*entry, key, file, read_from_file, disk_bytes);
  return cc;
}

std::shared_ptr<const r1cs::CompiledCircuit> compiled_circuit_made(
    const std::string& kind, const std::string& key, const std::function<std::optional<r1cs::CompiledCircuit>()>& make) {
  const auto entry = compiled_entry(key);
  const std::lock_guard<std::mutex> lock(entry->mu);
  if (entry->cc || entry->none) return entry->cc;
  const auto t0 = std::chrono::steady_clock::now();
  std::optional<r1cs::CompiledCircuit> made = make();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!made) {
    entry->none = true;
    log()->info("{}: no compiled form for '{}' (more distinct coefficients than a compiled circuit holds): prover "
                "mode",
                kind, key);
    return nullptr;
  }
  entry->cc = std::make_shared<const r1cs::CompiledCircuit>(std::move(*made));
  log()->info("{}: compiled circuit made in {:.2f} s ({} constraints, {} distinct coefficients, {:.2f} GB in memory)",
              kind, s, entry->cc->shape().constraints, entry->cc->coefficients().size(),
              double(entry->cc->bytes()) / 1e9);
  publish(*entry, key, "", false, 0);
  return entry->cc;
}

std::shared_ptr<const r1cs::CompiledCircuit> held_compiled_circuit(const std::string& key) {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mu);
  const auto it = r.entries.find(key);
  return it == r.entries.end() ? nullptr : it->second->held;
}

std::vector<std::pair<CompiledCircuitStatus, std::shared_ptr<const r1cs::CompiledCircuit>>> compiled_circuits_held() {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mu);
  std::vector<std::pair<CompiledCircuitStatus, std::shared_ptr<const r1cs::CompiledCircuit>>> out;
  for (const auto& [key, e] : r.entries) {
    if (e->held) out.emplace_back(e->status, e->held);
  }
  return out;
}

std::uint64_t compiled_host_bytes() { return registry().host_bytes.load(); }

std::shared_ptr<const r1cs::CompiledCircuit> release_compiled_circuit(const std::string& key) {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mu);
  const auto it = r.entries.find(key);
  if (it == r.entries.end()) return nullptr;
  std::shared_ptr<const r1cs::CompiledCircuit> held = std::move(it->second->held);
  if (held) {
    r.host_bytes -= it->second->status.host_bytes;
    log()->info("compiled circuit of '{}' let go with its SRS ({:.2f} GB in memory)", key,
                double(it->second->status.host_bytes) / 1e9);
  }
  r.entries.erase(it);
  return held;
}

void synthesize_witness(const r1cs::CircuitInterface& circuit, std::shared_ptr<const r1cs::CompiledCircuit> cc,
                        const groth16::Parameters& p, r1cs::ProvingBuffers& buf) {
  r1cs::WitnessBuffers recycled;
  recycled.aux_assignment = std::move(buf.packed_aux);  // its capacity, for this partition's witness
  buf.clear();
  r1cs::WitnessAssignment cs(std::move(recycled));
  cs.reserve(p.num_inputs(), p.num_aux());
  r1cs::synthesize(circuit, cs);
  // (parameters without counts — a test's empty set — leave it to the backend's shape check)
  if (p.num_inputs() != 0 && (cs.num_inputs() != p.num_inputs() || cs.num_aux() != p.num_aux())) {
    throw ProoflineError(Error::BadLength, "witness-only synthesis: " + std::to_string(cs.num_inputs()) +
                                              " inputs and " + std::to_string(cs.num_aux()) +
                                              " aux variables, expected " + std::to_string(p.num_inputs()) + " and " +
                                              std::to_string(p.num_aux()) + " (the parameters')");
  }
  r1cs::WitnessBuffers wb = cs.release();
  buf.input_assignment.assign(wb.input_assignment.begin(), wb.input_assignment.end());
  buf.packed_aux = std::move(wb.aux_assignment);
  buf.a_aux_density = cc->a_aux_density();
  buf.b_input_density = cc->b_input_density();
  buf.b_aux_density = cc->b_aux_density();
  buf.compiled = std::move(cc);
}

}  // namespace proofline::engine
