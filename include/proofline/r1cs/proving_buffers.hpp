// proofline/r1cs/proving_buffers.hpp — what prover mode produces (ProvingAssignment's buffers).
//
// Owns: `ProvingBuffers` (a, b, c, the two assignments and the three density bitmaps; movable out,
// recyclable). Shapes and meaning: see proving_assignment.hpp, which fills them. Split out of that
// header so that constraint_system.hpp can give gadgets the prover fast path (direct access to the
// buffers being filled, see ConstraintSystem::prover_buffers()) without a cyclic include.
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "proofline/ff/fr.hpp"
#include "proofline/r1cs/density.hpp"
#include "proofline/r1cs/packed_witness.hpp"

namespace proofline::r1cs {

/// Called by UninitAllocator just before it frees storage it allocated (never fixed storage), with
/// the storage's address and size in bytes. One process-wide hook, null by default; the GPU backend
/// installs one that unregisters page-locked ranges (gpu/backend.hpp "Host buffers") so that no
/// registration outlives its memory. The hook must not throw and must not allocate through
/// UninitAllocator.
using ReleaseHook = void (*)(const void* p, std::size_t bytes) noexcept;
void set_release_hook(ReleaseHook hook) noexcept;
ReleaseHook release_hook() noexcept;

/// std::allocator whose default construction writes nothing: `resize(n)` of a vector using it leaves
/// the new elements' bytes unwritten (T must be trivially copyable and destructible, as Fr is), so
/// the prover fast path (ConstraintSystem::prover_extend()) writes each element of a, b, c and the
/// aux assignment once instead of zeroing it first (a third of synthesis time on SHA-256 words).
/// Whoever grows such a vector by resize(n) writes every new element; resize(n, value) and every
/// other member behave as with std::allocator.
///
/// Fixed storage (parallel synthesis, ProvingAssignment::synthesize_parts): an allocator made with
/// UninitAllocator(storage, n) hands out `storage` itself for any request of at most n elements
/// (std::length_error above) and frees nothing, so a vector using it fills part of a buffer owned
/// by another vector in place. A copy-constructed vector gets a plain allocator (never a second
/// user of the same storage); move assignment and swap carry the allocator along with the data.
template <class T>
struct UninitAllocator : std::allocator<T> {
  using std::allocator<T>::allocator;
  using propagate_on_container_move_assignment = std::true_type;
  using propagate_on_container_swap = std::true_type;
  using is_always_equal = std::false_type;
  template <class U>
  struct rebind {
    using other = UninitAllocator<U>;
  };
  UninitAllocator() noexcept = default;
  /// Fixed storage: `storage[0, n)`, owned elsewhere and outliving every vector using it.
  UninitAllocator(T* storage, std::size_t n) noexcept : fixed_(storage), fixed_n_(n) {}

  T* allocate(std::size_t n) {
    if (fixed_ == nullptr) return std::allocator<T>::allocate(n);
    if (n > fixed_n_) {
      throw std::length_error("UninitAllocator: " + std::to_string(n) + " elements requested of fixed storage for " +
                              std::to_string(fixed_n_));
    }
    return fixed_;
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (fixed_ != nullptr) return;
    if (const ReleaseHook hook = release_hook()) hook(p, n * sizeof(T));
    std::allocator<T>::deallocate(p, n);
  }
  UninitAllocator select_on_container_copy_construction() const noexcept { return UninitAllocator(); }

  template <class U>
  void construct(U*) noexcept {}
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  friend bool operator==(const UninitAllocator& x, const UninitAllocator& y) noexcept { return x.fixed_ == y.fixed_; }

 private:
  T* fixed_ = nullptr;
  std::size_t fixed_n_ = 0;
};

/// The prover's growable Fr buffers (a vector of Fr; see UninitAllocator for resize(n)).
using FrVector = std::vector<ff::Fr, UninitAllocator<ff::Fr>>;
static_assert(std::is_trivially_copyable_v<ff::Fr> && std::is_trivially_destructible_v<ff::Fr>);

class CompiledCircuit;

/// One partition as the prover backends take it (groth16/backend.hpp), in one of two forms:
///  - evaluated (prover mode, ProvingAssignment): a, b, c hold ⟨A_i, z⟩, ⟨B_i, z⟩, ⟨C_i, z⟩ of every
///    row, `compiled` is null;
///  - compiled (issue 31): `compiled` names the circuit's compiled matrices
///    (compiled_circuit.hpp), a, b, c are empty, and the backend evaluates them from the assignments
///    (on the device where it has one: a, b, c then never exist on the host).
/// The assignments and density bitmaps are there in both forms. The aux assignment is held in one
/// of two ways: plain (`aux_assignment`, `packed_aux` empty), or packed as witness-only synthesis
/// makes it (`packed_aux`, packed_witness.hpp; `aux_assignment` empty) — the backends expand it where
/// they need the plain values: the CPU backend on the host, the GPU backend on the device, so that
/// only the packed bytes cross PCIe (32 GiB PoRep partition: ≈ 0.1 GB instead of 4.17 GB).
struct ProvingBuffers {
  FrVector a, b, c;
  FrVector input_assignment;
  FrVector aux_assignment;
  PackedWitness packed_aux;
  DensityTracker a_aux_density;
  DensityTracker b_input_density;
  DensityTracker b_aux_density;
  std::shared_ptr<const CompiledCircuit> compiled;

  /// Constraint rows: a.size() in the evaluated form, the compiled circuit's constraints in the
  /// compiled form (compiled_circuit.cpp).
  std::size_t rows() const noexcept;
  /// Aux values, in whichever way they are held (packed_aux.size() when it holds any, else
  /// aux_assignment.size()).
  std::size_t aux_len() const noexcept { return packed_aux.empty() ? aux_assignment.size() : packed_aux.size(); }
  /// Empties every buffer, keeping capacity, and drops `compiled`.
  void clear() noexcept;
};

}  // namespace proofline::r1cs
