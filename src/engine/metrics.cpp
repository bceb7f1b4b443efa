// The engine's Prometheus text (Engine::metrics_text; private header metrics.hpp): counters,
// per-partition and per-proof histograms, queues, jobs, memory, SRS, reclaimer and pool.
#include "metrics.hpp"

#include <sstream>

namespace proofline::engine::detail {

void Histogram::observe_ms(double ms) {
  const double s = ms / 1000.0;
  for (std::size_t i = 0; i < kBounds.size(); ++i) {
    if (s <= kBounds[i]) ++buckets[i];
  }
  ++count;
  sum += s;
}

void Histogram::write(std::ostream& o, const std::string& name, const std::string& labels) const {
  for (std::size_t i = 0; i < kBounds.size(); ++i) {
    o << name << "_bucket{" << labels << ",le=\"" << kBounds[i] << "\"} " << buckets[i] << "\n";
  }
  o << name << "_bucket{" << labels << ",le=\"+Inf\"} " << count << "\n";
  o << name << "_sum{" << labels << "} " << sum << "\n";
  o << name << "_count{" << labels << "} " << count << "\n";
}

namespace {
/// `v` as a Prometheus label value: \, " and newline escaped.
std::string label_value(const std::string& v) {
  std::string out;
  for (char ch : v) {
    if (ch == '\\' || ch == '"') out += '\\';
    if (ch == '\n') {
      out += "\\n";
      continue;
    }
    out += ch;
  }
  return out;
}
}  // namespace

std::string metrics_text(const MetricsSnapshot& m, const EngineStatus& st) {
  const Counters& c = m.counters;
  std::ostringstream o;
  auto head = [&](const char* name, const char* type, const char* help) {
    o << "# HELP " << name << " " << help << "\n# TYPE " << name << " " << type << "\n";
  };
  head("proofline_engine_jobs_submitted_total", "counter", "Jobs accepted by submit (duplicates excluded).");
  o << "proofline_engine_jobs_submitted_total " << c.submitted << "\n";
  head("proofline_engine_jobs_duplicate_total", "counter", "Submits whose request id was already known.");
  o << "proofline_engine_jobs_duplicate_total " << c.duplicates << "\n";
  head("proofline_engine_jobs_finished_total", "counter", "Jobs that reached a final state.");
  o << "proofline_engine_jobs_finished_total{state=\"done\"} " << c.done << "\n";
  o << "proofline_engine_jobs_finished_total{state=\"failed\"} " << c.failed << "\n";
  o << "proofline_engine_jobs_finished_total{state=\"cancelled\"} " << c.cancelled << "\n";
  head("proofline_engine_self_check_failures_total", "counter", "Jobs whose proofs failed the verification before return.");
  o << "proofline_engine_self_check_failures_total " << c.self_check_failures << "\n";
  head("proofline_engine_partitions_proved_total", "counter", "Partitions proved, per backend.");
  for (std::size_t b = 0; b < m.backend_names.size(); ++b) {
    o << "proofline_engine_partitions_proved_total{backend=\"" << b << "\",name=\"" << m.backend_names[b]
      << "\"} " << m.backend_proved[b] << "\n";
  }
  head("proofline_engine_partition_seconds", "histogram", "Per-partition timers (see engine.hpp).");
  for (std::size_t i = 0; i < c.partition.size(); ++i) {
    c.partition[i].write(o, "proofline_engine_partition_seconds", std::string("timer=\"") + kPartitionTimers[i] + "\"");
  }
  head("proofline_engine_proof_seconds", "histogram", "Per-proof timers (see engine.hpp).");
  for (std::size_t i = 0; i < c.proof.size(); ++i) {
    c.proof[i].write(o, "proofline_engine_proof_seconds", std::string("timer=\"") + kProofTimers[i] + "\"");
  }
  head("proofline_engine_queue_pending", "gauge", "Items waiting, per stage and priority.");
  for (const auto& q : st.queues) {
    o << "proofline_engine_queue_pending{stage=\"" << q.stage << "\",priority=\"" << to_string(q.priority) << "\"} "
      << q.pending << "\n";
  }
  head("proofline_engine_queue_running", "gauge", "Items being worked on, per stage and priority.");
  for (const auto& q : st.queues) {
    o << "proofline_engine_queue_running{stage=\"" << q.stage << "\",priority=\"" << to_string(q.priority) << "\"} "
      << q.running << "\n";
  }
  head("proofline_engine_jobs", "gauge", "Jobs retained, per state.");
  o << "proofline_engine_jobs{state=\"queued\"} " << st.jobs_queued << "\n";
  o << "proofline_engine_jobs{state=\"running\"} " << st.jobs_running << "\n";
  o << "proofline_engine_jobs{state=\"done\"} " << st.jobs_done << "\n";
  o << "proofline_engine_jobs{state=\"failed\"} " << st.jobs_failed << "\n";
  o << "proofline_engine_jobs{state=\"cancelled\"} " << st.jobs_cancelled << "\n";
  const auto& mem = st.memory;
  head("proofline_engine_memory_bytes", "gauge", "Partition-buffer memory budget and its charges.");
  o << "proofline_engine_memory_bytes{kind=\"budget\"} " << mem.budget_bytes << "\n";
  o << "proofline_engine_memory_bytes{kind=\"used\"} " << mem.used_bytes << "\n";
  o << "proofline_engine_memory_bytes{kind=\"reserved\"} " << mem.reserved_bytes << "\n";
  o << "proofline_engine_memory_bytes{kind=\"pooled\"} " << mem.pooled_bytes << "\n";
  o << "proofline_engine_memory_bytes{kind=\"reclaim_pending\"} " << mem.reclaim_pending_bytes << "\n";
  head("proofline_engine_srs_bytes", "gauge", "Resident SRS bytes and the SRS budget (0 = unlimited).");
  o << "proofline_engine_srs_bytes{kind=\"resident\"} " << mem.srs_bytes << "\n";
  o << "proofline_engine_srs_bytes{kind=\"budget\"} " << mem.srs_budget_bytes << "\n";
  head("proofline_engine_srs_device_bytes", "gauge",
       "Bytes the prover backends hold for each parameter set, by mode (resident: device memory; streamed: "
       "streamed to the device per proof).");
  for (const auto& e : st.srs) {
    if (e.device_mode.empty()) continue;
    o << "proofline_engine_srs_device_bytes{key=\"" << label_value(e.key) << "\",mode=\"" << e.device_mode << "\"} "
      << e.device_bytes << "\n";
  }
  head("proofline_engine_compiled_circuit_bytes", "gauge",
       "Bytes of each compiled circuit the process holds (issue 31), where: host memory, its file on disk, the "
       "devices.");
  for (const auto& c : st.compiled) {
    const std::string key = label_value(c.key);
    o << "proofline_engine_compiled_circuit_bytes{key=\"" << key << "\",where=\"host\"} " << c.host_bytes << "\n";
    o << "proofline_engine_compiled_circuit_bytes{key=\"" << key << "\",where=\"disk\"} " << c.disk_bytes << "\n";
    o << "proofline_engine_compiled_circuit_bytes{key=\"" << key << "\",where=\"device\"} " << c.device_bytes << "\n";
  }
  head("proofline_engine_srs_loads_total", "counter", "Parameter sets loaded.");
  o << "proofline_engine_srs_loads_total " << m.srs_loads << "\n";
  head("proofline_engine_srs_evictions_total", "counter", "Parameter sets evicted.");
  o << "proofline_engine_srs_evictions_total " << m.srs_evictions << "\n";
  head("proofline_engine_reclaimer_freed_bytes_total", "counter", "Bytes freed by the reclaimer (or inline).");
  o << "proofline_engine_reclaimer_freed_bytes_total " << mem.freed_bytes_total << "\n";
  head("proofline_engine_reclaimer_free_seconds_total", "counter", "Time spent freeing buffers.");
  o << "proofline_engine_reclaimer_free_seconds_total " << mem.free_ms_total / 1000.0 << "\n";
  head("proofline_engine_pool_acquires_total", "counter", "Partition buffers taken from the pool (hit) or new (miss).");
  o << "proofline_engine_pool_acquires_total{result=\"hit\"} " << m.pool_hits << "\n";
  o << "proofline_engine_pool_acquires_total{result=\"miss\"} " << m.pool_misses << "\n";
  return o.str();
}

}  // namespace proofline::engine::detail
