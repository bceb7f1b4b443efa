// proofline/util/fault.hpp — fault injection for tests: make one job's synthesis or proving fail in
// the middle of a partition, to check that the failure stays in that job (issue 21).
//
// Owns: `fault::arm` / `fault::disarm_all` (tests), `fault::fire` (the injection points),
// `fault::Injected` (what a fired point throws) and `fault::JobScope` (which job the calling thread
// works for; the engine opens one around each synthesis and each backend call).
//
// Injection points (name: where it fires; what happens):
//   "synthesis"  r1cs::ConstraintSystem's cancellation poll (every 64 K allocs + constraints of a
//                prover-mode synthesis): throws Injected mid-synthesis.
//   "prove"      groth16::check_prove_cancel (between the stages of a partition, CPU and CUDA
//                backends): throws Injected.
//   "cuda"       the CUDA backend, before its H MSM: launches a kernel that traps, so the device
//                context is left in a sticky error state, as a real kernel fault would leave it; the
//                backend must report a CudaError for that job and recover the device for the next.
// An armed point fires only on a thread whose JobScope names `job` (or on any thread when job is
// ""), `count` times, then disarms itself.
//
// Arming from outside a test (e.g. a daemon under a test script): the environment variable
// PROOFLINE_FAULTS="<point>[@<request id>][*<count>],…", read once at the first fire(). Nothing is
// armed unless a test or that variable arms it; an unarmed fire() is one relaxed atomic load.
#pragma once

#include <atomic>
#include <stdexcept>
#include <string>
#include <string_view>

namespace proofline::fault {

/// Thrown by an armed injection point: "injected fault at <point>".
struct Injected : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Arms `point` for `count` firings on threads working for job `job` ("" = any thread).
void arm(std::string_view point, std::string_view job = "", int count = 1);
/// Disarms every point (also those armed by PROOFLINE_FAULTS).
void disarm_all();
/// How many times `point` fired since the process started (for tests).
int fired(std::string_view point);

namespace detail {
extern std::atomic<int> g_armed;  ///< number of armed entries (0: fire() returns at once)
bool fire_slow(std::string_view point);
}  // namespace detail

/// True (and one firing used up) iff `point` is armed for the calling thread's job.
inline bool fire(std::string_view point) {
  if (detail::g_armed.load(std::memory_order_relaxed) == 0) [[likely]] return false;
  return detail::fire_slow(point);
}
/// fire(point), throwing Injected("injected fault at <point> (<where>)") when it fires.
inline void maybe_throw(std::string_view point, std::string_view where) {
  if (fire(point)) throw Injected("injected fault at " + std::string(point) + " (" + std::string(where) + ")");
}

/// While alive, the calling thread works for the job `request_id` (scopes nest).
class [[nodiscard]] JobScope {
 public:
  explicit JobScope(const std::string& request_id) noexcept;
  ~JobScope();
  JobScope(const JobScope&) = delete;
  JobScope& operator=(const JobScope&) = delete;
  /// The job of the innermost scope open on the calling thread (nullptr if none): for code that
  /// hands a job's work to helper threads, which open a JobScope with it.
  static const std::string* current() noexcept;

 private:
  const std::string* prev_;
};

}  // namespace proofline::fault
