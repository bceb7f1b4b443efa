// proofline/r1cs/function_ref.hpp — non-owning callables for lazy names and values.
//
// Owns: `FunctionRef<R(Args...)>` (two words: object pointer + call thunk; never allocates, never
// copies the callable) and `Name` (a string that is either given directly or produced on demand by
// a callable). Both refer to objects owned by the caller, so they are meant for parameters only:
// a lambda passed in a call lives until the end of that full expression, which is as long as the
// constraint system looks at it. Never store a FunctionRef or Name beyond the call that received it.
//
// Why: the constraint-system interface is virtual (one object serves every mode), so its methods
// cannot be templates over the callables; std::function would allocate for capturing lambdas.
// A FunctionRef costs two pointer stores to build and one indirect call to invoke, and modes that
// do not need a value or a name (prover mode ignores names; setup and shape modes ignore values)
// simply never invoke it. This is bellpepper's "annotation and value closures are lazy" in C++.
#pragma once

#include <concepts>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace proofline::r1cs {

template <class Sig>
class FunctionRef;

template <class R, class... Args>
class FunctionRef<R(Args...)> {
 public:
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, FunctionRef> && std::is_invocable_r_v<R, F&, Args...>)
  FunctionRef(F&& f) noexcept  // NOLINT: implicit on purpose (lambdas at call sites)
      : obj_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* obj, Args... args) -> R {
          return std::invoke(*static_cast<std::remove_reference_t<F>*>(obj), std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return call_(obj_, std::forward<Args>(args)...); }

 private:
  void* obj_;
  R (*call_)(void*, Args...);
};

/// A name (of a variable, constraint or namespace): a string view, or a callable returning
/// something convertible to std::string that is called only when a mode materializes the name
/// (test mode). In prover mode building a Name costs three word stores and nothing else.
///   cs.alloc("bit", ...);                                       // literal: no work at all
///   cs.enforce([&] { return "bit " + std::to_string(i); }, ...);  // formatted only in test mode
class Name {
 public:
  Name(const char* s) noexcept : text_(s) {}             // NOLINT: implicit on purpose
  Name(std::string_view s) noexcept : text_(s) {}        // NOLINT
  Name(const std::string& s) noexcept : text_(s) {}      // NOLINT
  template <class F>
    requires(std::is_invocable_v<const F&> && std::is_constructible_v<std::string, std::invoke_result_t<const F&>> &&
             !std::is_convertible_v<const F&, std::string_view>)
  Name(const F& f) noexcept  // NOLINT
      : obj_(static_cast<const void*>(std::addressof(f))),
        make_([](const void* obj) -> std::string { return std::string((*static_cast<const F*>(obj))()); }) {}

  /// The name as a string (calls the callable, if any).
  std::string str() const { return make_ != nullptr ? make_(obj_) : std::string(text_); }
  /// True if the name is given as text (no callable).
  bool is_text() const noexcept { return make_ == nullptr; }

 private:
  std::string_view text_{};
  const void* obj_ = nullptr;
  std::string (*make_)(const void*) = nullptr;
};

}  // namespace proofline::r1cs
