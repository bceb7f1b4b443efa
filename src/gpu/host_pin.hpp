// src/gpu/host_pin.hpp — page-locked registration of the prover's host buffers (private to src/gpu;
// gpu/backend.hpp "Host buffers" says what it is for and its policy).
//
// A process-wide registry of host ranges registered with cudaHostRegister (portable: usable from
// every device). The partition buffers of the engine's pool (r1cs::FrVector storage: a, b, c, the
// assignments) are reused partition after partition; once registered, the device copies them by
// DMA straight from them, with no staging copy on the host's cores. Every registration is undone
// before its memory is freed: the backend installs release() as r1cs's release hook
// (r1cs::set_release_hook), which UninitAllocator calls before it frees storage.
#pragma once

#include <cstddef>

namespace proofline::gpu::host_pin {

/// True when [p, p + bytes) lies inside a registered range. Otherwise registers [p, p + bytes) if
/// the policy allows — bytes >= min_bytes and this range start was offered before (the second use
/// of a buffer: a buffer used once is never locked) — on a
/// background thread when `background` (this call returns false, the caller stages this copy and
/// the next use finds the range registered; page-locking 16 GB takes ~1 s of a core, which then
/// stays off the copy's critical path), else here (true if it worked). A failed registration (the
/// range overlaps one registered differently, or the driver refuses) is not retried for that start
/// until it is released; the caller then copies through its staging chunks. Thread-safe.
bool ensure(const void* p, std::size_t bytes, std::size_t min_bytes, bool background) noexcept;

/// Registers [p, p + bytes) now, on this thread, whatever its uses so far (the engine's warmer, before
/// work arrives); true when it lies inside a registered range afterwards (already, or now). A range
/// overlapping one being registered in the background, or refused by the driver, gives false.
bool lock_now(const void* p, std::size_t bytes) noexcept;

/// Unregisters every registered range that intersects [p, p + bytes) and forgets the starts seen
/// inside it, after waiting for a background registration of that memory to finish. Installed as r1cs's release hook; also safe to call directly. Thread-safe, noexcept.
void release(const void* p, std::size_t bytes) noexcept;

/// Waits until no background registration is in flight (tests).
void settle() noexcept;

/// Bytes registered now (for tests and status).
std::size_t registered_bytes() noexcept;

/// Installs release() as r1cs's release hook (idempotent).
void install_release_hook() noexcept;

}  // namespace proofline::gpu::host_pin
