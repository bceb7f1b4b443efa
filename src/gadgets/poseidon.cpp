// The Poseidon circuit (neptune's legacy circuit::poseidon_hash) with its prover fast path, and the
// gadget's PoseidonConstants (the hash layer's constants plus the recorded circuit shape).
#include "proofline/gadgets/poseidon.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "proofline/r1cs/error.hpp"
#include "proofline/r1cs/proving_assignment.hpp"
#include "prover_fast.hpp"

namespace proofline::gadgets {

using r1cs::SynthesisError;
using r1cs::SynthesisErrorCode;

namespace {
std::shared_ptr<const PoseidonCircuitShape> record_shape(const PoseidonConstants& c);

PoseidonConstants with_shape(const hash::PoseidonConstants& h) {
  PoseidonConstants c;
  static_cast<hash::PoseidonConstants&>(c) = h;
  c.circuit_shape = record_shape(c);
  return c;
}

// The gadget's constants for one of the hash layer's cached constants (its address is stable),
// built once and cached (thread-safe).
const PoseidonConstants& cached_with_shape(const hash::PoseidonConstants& h) {
  static std::mutex mu;
  static std::map<const hash::PoseidonConstants*, std::unique_ptr<PoseidonConstants>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[&h];
  if (!slot) slot = std::make_unique<PoseidonConstants>(with_shape(h));
  return *slot;
}
}  // namespace

// ---- constants -------------------------------------------------------------------------------

PoseidonConstants PoseidonConstants::make(std::size_t arity, const Fr& domain_tag) {
  return with_shape(hash::PoseidonConstants::make(arity, domain_tag));
}

const PoseidonConstants& PoseidonConstants::merkle(std::size_t arity) {
  return cached_with_shape(hash::PoseidonConstants::merkle(arity));
}

const PoseidonConstants& PoseidonConstants::custom(std::size_t arity, std::uint64_t id) {
  return cached_with_shape(hash::PoseidonConstants::custom(arity, id));
}

// ---- circuit -----------------------------------------------------------------------------------

namespace {

using fast::kOne;

// A state element: an allocated number, or a value with the LC computing it (neptune's Elt).
struct Elt {
  bool allocated = false;
  AllocatedNum num;  // when allocated
  Fr value;          // when not
  LinearCombination lc;

  const Fr& val() const { return allocated ? num.value() : value; }
  void set_allocated(const AllocatedNum& n) {
    allocated = true;
    num = n;
    lc.clear();
  }
  void set_constant(const Fr& v) {
    allocated = false;
    value = v;
    lc.clear();
    lc.add(kOne, v);
  }
  /// dst += s · this   (value, and terms unless `values_only`: the prover fast path)
  void scaled_into(Fr& dst_value, LinearCombination& dst_lc, const Fr& s, bool values_only) const {
    if (allocated) {
      dst_value += num.value() * s;
      if (!values_only) dst_lc.add(num.variable(), s);
    } else {
      dst_value += value * s;
      if (!values_only) dst_lc.add(lc, s);
    }
  }
};

class Circuit {
 public:
  Circuit(ConstraintSystem& cs, const PoseidonConstants& c, bool fast)
      : cs_(cs), c_(c), t_(c.width), fast_(fast), values_only_(fast || cs.witness_only()), cur_(t_), next_(t_) {}

  AllocatedNum hash(std::span<const AllocatedNum> preimage) {
    cur_[0].set_constant(c_.domain_tag);
    for (std::size_t i = 0; i < preimage.size(); ++i) cur_[i + 1].set_allocated(preimage[i]);
    {
      auto ns = cs_.namespace_("first round");
      full_round(true, false);
    }
    for (std::size_t i = 1; i < c_.half_full_rounds; ++i) {
      auto ns = cs_.namespace_([&] { return "initial full round " + std::to_string(i); });
      full_round(false, false);
    }
    for (std::size_t i = 0; i < c_.partial_rounds; ++i) {
      auto ns = cs_.namespace_([&] { return "partial round " + std::to_string(i); });
      partial_round();
    }
    for (std::size_t i = 0; i + 1 < c_.half_full_rounds; ++i) {
      auto ns = cs_.namespace_([&] { return "final full round " + std::to_string(i); });
      full_round(false, false);
    }
    {
      auto ns = cs_.namespace_("terminal full round");
      full_round(false, true);
    }
    auto ns = cs_.namespace_("hash result");
    return ensure_allocated(cur_[1]);
  }

 private:
  // Allocates a Num element: v with (lc) · ONE = v (neptune's ensure_allocated with enforce).
  AllocatedNum ensure_allocated(const Elt& e) {
    if (e.allocated) return e.num;
    if (fast_) {  // A = lc (value e.value), B = ONE, C = v
      const AllocatedNum v(cs_.prover_alloc(e.value), e.value);
      cs_.prover_enforce(e.value, cs_.prover_value(kOne), e.value);
      return v;
    }
    AllocatedNum v;
    {
      auto ns = cs_.namespace_("allocate for Elt::Num");
      v = AllocatedNum::alloc(cs_, e.value);
    }
    cs_.enforce("enforce num allocation preserves lc", e.lc, kOne, v.variable());
    return v;
  }

  AllocatedNum alloc_named(const char* ns_name, const Fr& value) {
    auto ns = cs_.namespace_(ns_name);
    return AllocatedNum::alloc(cs_, value);
  }

  // x⁵ + post (post optional); 4 constraints (3 if x is already allocated).
  AllocatedNum quintic_s_box(const Elt& e, const Fr* post) {
    AllocatedNum l;
    {
      auto ns = cs_.namespace_("S-box input");
      l = ensure_allocated(e);
    }
    AllocatedNum l2, l4;
    {
      auto ns = cs_.namespace_("l^2");
      l2 = l.square(cs_);
    }
    {
      auto ns = cs_.namespace_("l^4");
      l4 = l2.square(cs_);
    }
    auto ns = cs_.namespace_("(l4 * l) + rk)");
    return mul_sum(l4, l, nullptr, post);
  }

  // (x + pre)⁵ + post for an allocated x: 3 constraints.
  AllocatedNum quintic_s_box_pre_add(const Elt& e, const Fr& pre, const Fr& post) {
    AllocatedNum l;
    {
      auto ns = cs_.namespace_("S-box input");
      l = ensure_allocated(e);
    }
    AllocatedNum l2;
    {
      auto ns = cs_.namespace_("(l+rk)^2");
      const Fr lp = l.value() + pre;
      const Fr v = lp.square();
      l2 = alloc_named("squared sum", v);
      if (fast_) {
        cs_.prover_enforce(lp, lp, v);
      } else {
        // (l + pre·ONE) · (l + pre·ONE) = l2
        auto fill = [&](LinearCombination& lc) { lc.add(l.variable()).add(kOne, pre); };
        cs_.enforce("squared sum constraint", fill, fill, l2.variable());
      }
    }
    AllocatedNum l4;
    {
      auto ns = cs_.namespace_("l^4");
      l4 = l2.square(cs_);
    }
    auto ns = cs_.namespace_("l4 * (l + rk)");
    return mul_sum(l4, l, &pre, &post);
  }

  // res = a·(b + pre) + post: (b + pre·ONE) · a = res − post·ONE.
  AllocatedNum mul_sum(const AllocatedNum& a, const AllocatedNum& b, const Fr* pre, const Fr* post) {
    Fr bp = b.value();
    if (pre != nullptr) bp += *pre;
    Fr v = bp * a.value();
    if (post != nullptr) v += *post;
    const AllocatedNum res = alloc_named("mul_sum", v);
    if (fast_) {  // A = b + pre·ONE, B = a, C = res − post·ONE
      cs_.prover_enforce(bp, a.value(), post != nullptr ? v - *post : v);
      return res;
    }
    const char* name = post != nullptr ? (pre != nullptr ? "mul sum constraint pre-post-add" : "mul sum constraint post-add")
                                       : (pre != nullptr ? "mul sum constraint pre-add" : "mul sum constraint");
    cs_.enforce(
        name,
        [&](LinearCombination& lc) {
          lc.add(b.variable());
          if (pre != nullptr) lc.add(kOne, *pre);
        },
        a.variable(),
        [&](LinearCombination& lc) {
          lc.add(res.variable());
          if (post != nullptr) lc.add(kOne, -*post);
        });
    return res;
  }

  void full_round(bool first, bool last) {
    const Fr* pre = nullptr;
    if (first) {
      pre = c_.compressed_round_constants.data() + offset_;
      offset_ += t_;
    }
    const Fr* post = nullptr;
    if (first || !last) {
      post = c_.compressed_round_constants.data() + offset_;
      offset_ += t_;
    }
    for (std::size_t i = 0; i < t_; ++i) {
      if (first && i == 0) {
        // The tag's S-box is a constant: (tag + pre)⁵ + post.
        cur_[0].set_constant(proofline::hash::poseidon_sbox(cur_[0].value + pre[0]) + post[0]);
        continue;
      }
      auto ns = cs_.namespace_([&] { return "quintic s-box " + std::to_string(i); });
      const AllocatedNum r = first ? quintic_s_box_pre_add(cur_[i], pre[i], post[i])
                                   : quintic_s_box(cur_[i], post != nullptr ? post + i : nullptr);
      cur_[i].set_allocated(r);
    }
    product_mds();
  }

  void partial_round() {
    const Fr* key = c_.compressed_round_constants.data() + offset_;
    offset_ += 1;
    auto ns = cs_.namespace_("solitary quintic s-box");
    const AllocatedNum r = quintic_s_box(cur_[0], key);
    ns.close();
    cur_[0].set_allocated(r);
    product_mds();
  }

  void product_mds() {
    const std::size_t sparse_offset = c_.half_full_rounds - 1;
    if (round_ == sparse_offset) {
      product_dense(c_.pre_sparse);
    } else if (round_ > sparse_offset && round_ < c_.half_full_rounds + c_.partial_rounds) {
      product_sparse(c_.sparse[round_ - sparse_offset - 1]);
    } else {
      product_dense(c_.m);
    }
    ++round_;
  }

  // new[j] = Σ_i cur[i]·M[i][j], as Nums.
  void product_dense(const FrMatrix& m) {
    for (std::size_t j = 0; j < t_; ++j) {
      Elt& out = next_[j];
      out.allocated = false;
      out.value = Fr::zero();
      out.lc.clear();
      for (std::size_t i = 0; i < t_; ++i) cur_[i].scaled_into(out.value, out.lc, m(i, j), values_only_);
    }
    std::swap(cur_, next_);
  }

  // new[0] = Σ_i cur[i]·ŵ[i]; new[j] = cur[j] + cur[0]·v[j−1].
  void product_sparse(const SparseMdsMatrix& sp) {
    Elt& out0 = next_[0];
    out0.allocated = false;
    out0.value = Fr::zero();
    out0.lc.clear();
    for (std::size_t i = 0; i < t_; ++i) cur_[i].scaled_into(out0.value, out0.lc, sp.w_hat[i], values_only_);
    for (std::size_t j = 1; j < t_; ++j) {
      // cur[j] is a Num here (neptune only adds Nums).
      Elt& e = cur_[j];
      cur_[0].scaled_into(e.value, e.lc, sp.v_rest[j - 1], values_only_);
    }
    std::swap(cur_[0], next_[0]);
  }

  ConstraintSystem& cs_;
  const PoseidonConstants& c_;
  std::size_t t_;
  bool fast_;  // prover fast path: values only, no LinearCombinations (densities: circuit_shape)
  // No LinearCombinations (the prover fast path, or witness-only mode, where enforce() never reads
  // them): the state's lc stays empty.
  bool values_only_;
  std::vector<Elt> cur_, next_;
  std::size_t offset_ = 0;
  std::size_t round_ = 0;
};

}  // namespace

namespace {

// The prover fast path applies: prover mode, a recorded shape, and a preimage of allocated aux
// variables whose assigned values are their AllocatedNum values (anything else: generic path).
bool fast_path_applies(ConstraintSystem& cs, std::span<const AllocatedNum> preimage, const PoseidonConstants& c) {
  const r1cs::ProvingBuffers* p = cs.prover_buffers();
  if (p == nullptr || c.circuit_shape == nullptr) return false;
  for (const AllocatedNum& x : preimage) {
    const Variable v = x.variable();
    if (!v.is_aux() || v.index() >= p->aux_assignment.size() || !(p->aux_assignment[v.index()] == x.value())) {
      return false;
    }
  }
  return true;
}

}  // namespace

struct PoseidonCircuitShape {
  std::size_t n_aux = 0, n_constraints = 0;  // the hash's own variables and constraints
  r1cs::DensityTracker a_own, b_own;         // over the hash's own variables, in order
  std::vector<bool> a_preimage, b_preimage;  // per preimage element
  bool b_one = false;                        // ONE has a nonzero coefficient in some B
};

AllocatedNum poseidon_hash(ConstraintSystem& cs, std::span<const AllocatedNum> preimage, const PoseidonConstants& c) {
  if (preimage.size() != c.arity) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch, "poseidon_hash: " + std::to_string(preimage.size()) +
                                                                " inputs for arity " + std::to_string(c.arity));
  }
  if (!fast_path_applies(cs, preimage, c)) {
    Circuit circuit(cs, c, false);
    return circuit.hash(preimage);
  }
  const PoseidonCircuitShape& shape = *c.circuit_shape;
  const std::size_t first_aux = cs.num_aux(), first_constraint = cs.num_constraints();
  Circuit circuit(cs, c, true);
  const AllocatedNum out = circuit.hash(preimage);
  if (cs.num_aux() - first_aux != shape.n_aux || cs.num_constraints() - first_constraint != shape.n_constraints) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch, "poseidon_hash: fast path left the recorded shape");
  }
  r1cs::ProvingBuffers& p = *cs.prover_buffers();
  p.a_aux_density.or_at(first_aux, shape.a_own);
  p.b_aux_density.or_at(first_aux, shape.b_own);
  for (std::size_t i = 0; i < preimage.size(); ++i) {
    if (shape.a_preimage[i]) cs.prover_dense_in_a(preimage[i].variable());
    if (shape.b_preimage[i]) cs.prover_dense_in_b(preimage[i].variable());
  }
  if (shape.b_one) cs.prover_dense_in_b(kOne);
  return out;
}

namespace {

// One generic synthesis over `arity` fresh aux variables (values 0: densities depend only on the
// constants), read back from a prover with the fast path off.
std::shared_ptr<const PoseidonCircuitShape> record_shape(const PoseidonConstants& c) {
  r1cs::ProvingAssignment rec;
  rec.set_fast_path(false);
  std::vector<AllocatedNum> pre;
  for (std::size_t i = 0; i < c.arity; ++i) pre.push_back(AllocatedNum::alloc(rec, Fr::zero()));
  (void)poseidon_hash(rec, pre, c);
  auto shape = std::make_shared<PoseidonCircuitShape>();
  shape->n_aux = rec.num_aux() - c.arity;
  shape->n_constraints = rec.num_constraints();
  for (std::size_t k = 0; k < shape->n_aux; ++k) {
    shape->a_own.push_back(rec.a_aux_density().test(c.arity + k));
    shape->b_own.push_back(rec.b_aux_density().test(c.arity + k));
  }
  for (std::size_t i = 0; i < c.arity; ++i) {
    shape->a_preimage.push_back(rec.a_aux_density().test(i));
    shape->b_preimage.push_back(rec.b_aux_density().test(i));
  }
  shape->b_one = rec.b_input_density().test(0);
  return shape;
}

}  // namespace


}  // namespace proofline::gadgets