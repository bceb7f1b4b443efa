// Built-in benchmark circuits (include/proofline/circuits/bench/bench.hpp).
#include "proofline/circuits/bench/bench.hpp"

#include <stdexcept>

namespace proofline::circuits::bench {

using r1cs::ConstraintSystem;
using r1cs::LinearCombination;
using r1cs::Variable;

void MulCircuit::synthesize(ConstraintSystem& cs) const {
  Variable va = cs.alloc("a", [&] { return a; });
  Variable vb = cs.alloc("b", [&] { return b; });
  Variable vc = cs.alloc_input("c", [&] { return a * b; });
  cs.enforce("a*b=c", va, vb, vc);
}

SizedCircuit::SizedCircuit(unsigned log_rows, const Fr& x) : log_rows_(log_rows), x_(x) {
  if (log_rows < kMinLog || log_rows > kMaxLog) {
    throw std::invalid_argument("bench circuit size 2^" + std::to_string(log_rows) + " is outside 2^" +
                                std::to_string(kMinLog) + " … 2^" + std::to_string(kMaxLog));
  }
}

namespace {

Fr round_constant(std::uint64_t j) { return Fr::from_u64(j * j * j + 7); }

/// The circuit written once over a "sink" that either records constraints (cs != nullptr) or only
/// computes values. Values are tracked only when `values` is true.
struct Runner {
  ConstraintSystem* cs;
  bool values;
  std::size_t own;  // constraints to emit before the output row
  std::size_t emitted = 0;
  std::uint64_t round = 0;

  // State: a variable (input x at first) with its value, plus pending AND bits to fold in.
  Variable s_var;
  Fr s_val;
  std::vector<Variable> r_vars;
  std::vector<Fr> r_vals;

  Fr two_pow(unsigned i) const { return Fr::from_u64(std::uint64_t{1} << i); }

  /// t = s + c (+ Σ 2^i r_i) as an LC, and its value.
  void t_lc(LinearCombination& lc, const Fr& c) const {
    lc.add(s_var);
    lc.add(ConstraintSystem::one(), c);
    for (std::size_t i = 0; i < r_vars.size(); ++i) lc.add(r_vars[i], two_pow(static_cast<unsigned>(i)));
  }
  Fr t_val(const Fr& c) const {
    Fr t = s_val + c;
    for (std::size_t i = 0; i < r_vals.size(); ++i) {
      if (!r_vals[i].is_zero()) t += two_pow(static_cast<unsigned>(i));
    }
    return t;
  }

  void sbox_round() {
    const std::uint64_t j = round++;
    const Fr c = round_constant(j);
    auto ns = cs->namespace_([&] { return "round_" + std::to_string(j); });
    Fr t = values ? t_val(c) : Fr::zero();
    Fr s2 = t.square(), s4 = s2.square(), s5 = s4 * t;
    Variable v2 = cs->alloc("s2", [&] { return s2; });
    cs->enforce("t*t=s2", [&](LinearCombination& lc) { t_lc(lc, c); }, [&](LinearCombination& lc) { t_lc(lc, c); }, v2);
    Variable v4 = cs->alloc("s4", [&] { return s4; });
    cs->enforce("s2*s2=s4", v2, v2, v4);
    Variable v5 = cs->alloc("s5", [&] { return s5; });
    cs->enforce("s4*t=s5", v4, [&](LinearCombination& lc) { t_lc(lc, c); }, v5);
    s_var = v5;
    s_val = s5;
    r_vars.clear();
    r_vals.clear();
    emitted += 3;
  }

  void bits_and_ands(std::size_t block) {
    auto ns = cs->namespace_([&] { return "bits_" + std::to_string(block); });
    // Low 32 bits of s, as booleans.
    std::uint64_t low = values ? (s_val.to_canonical()[0] & 0xffffffffULL) : 0;
    Variable bits[32];
    Fr bit_vals[32];
    for (unsigned i = 0; i < 32; ++i) {
      bit_vals[i] = Fr::from_u64((low >> i) & 1);
      bits[i] = cs->alloc([&] { return "b" + std::to_string(i); }, [&] { return bit_vals[i]; });
      // (1 − b)·b = 0
      cs->enforce(
          [&] { return "boolean_" + std::to_string(i); }, [&](LinearCombination& lc) { lc.add(ConstraintSystem::one()).sub(bits[i]); }, bits[i],
          [](LinearCombination&) {});
    }
    // hi = (s − low) / 2^32
    Fr hi = Fr::zero();
    if (values) {
      static const Fr inv32 = Fr::from_u64(std::uint64_t{1} << 32).inverse();
      hi = (s_val - Fr::from_u64(low)) * inv32;
    }
    Variable hv = cs->alloc("hi", [&] { return hi; });
    const Fr two32 = Fr::from_u64(std::uint64_t{1} << 32);
    cs->enforce(
        "pack",
        [&](LinearCombination& lc) {
          for (unsigned i = 0; i < 32; ++i) lc.add(bits[i], two_pow(i));
          lc.add(hv, two32);
        },
        ConstraintSystem::one(), s_var);
    emitted += 33;
    r_vars.clear();
    r_vals.clear();
    for (unsigned i = 0; i < 16; ++i) {
      Fr v = bit_vals[2 * i] * bit_vals[2 * i + 1];
      Variable r = cs->alloc([&] { return "and_" + std::to_string(i); }, [&] { return v; });
      cs->enforce([&] { return "and_" + std::to_string(i) + "_c"; }, bits[2 * i], bits[2 * i + 1], r);
      r_vars.push_back(r);
      r_vals.push_back(v);
    }
    emitted += 16;
  }

  void pad_row() {
    Fr next = s_val * (s_val + Fr::one());
    const std::size_t k = emitted;
    Variable v = cs->alloc([&] { return "pad_" + std::to_string(k); }, [&] { return next; });
    cs->enforce([&] { return "pad_" + std::to_string(k) + "_c"; }, s_var, [&](LinearCombination& lc) { lc.add(s_var).add(ConstraintSystem::one()); }, v);
    s_var = v;
    s_val = next;
    ++emitted;
  }
};

}  // namespace

void SizedCircuit::synthesize(ConstraintSystem& cs) const {
  const bool values = cs.computes_values();
  Variable x = cs.alloc_input("x", [&] { return x_; });
  Runner run{&cs, values, num_constraints() - 1};
  run.s_var = x;
  run.s_val = values ? x_ : Fr::zero();
  const std::size_t blocks = run.own / kBlockConstraints;
  for (std::size_t b = 0; b < blocks; ++b) {
    for (int i = 0; i < 5; ++i) run.sbox_round();
    run.bits_and_ands(b);
  }
  while (run.emitted < run.own) run.pad_row();
  // Pending AND bits of the last block (if any) are left unused in s: fold them into the output by
  // constraining y = s + Σ 2^i r_i via the output row's LC.
  const Fr y = values ? run.t_val(Fr::zero()) : Fr::zero();
  Variable yv = cs.alloc_input("y", [&] { return y; });
  cs.enforce("output", [&](LinearCombination& lc) { run.t_lc(lc, Fr::zero()); }, ConstraintSystem::one(), yv);
}

namespace {
/// Counts-only constraint system used to compute the public output natively.
class ValueOnly final : public ConstraintSystem {
 public:
  bool computes_values() const noexcept override { return true; }
  Fr last_input;

 protected:
  void on_alloc(r1cs::Name, r1cs::ValueFn, std::size_t) override {}
  void on_alloc_input(r1cs::Name, r1cs::ValueFn value, std::size_t) override { last_input = value(); }
  void on_enforce(r1cs::Name, const LinearCombination&, const LinearCombination&, const LinearCombination&,
                  std::size_t) override {}
};
}  // namespace

std::vector<Fr> SizedCircuit::public_inputs() const {
  if (cached_inputs_.empty()) {
    ValueOnly cs;
    synthesize(cs);
    cached_inputs_ = {x_, cs.last_input};
  }
  return cached_inputs_;
}

std::string circuit_description(const std::string& name, unsigned log_rows) {
  if (name == "mul") return "mul: a*b = c (1 constraint, 2 inputs incl. ONE, 2 aux)";
  if (name == "bench") {
    const SizedCircuit c(log_rows, Fr::one());
    return "bench: 2^" + std::to_string(log_rows) + " rows (" + std::to_string(c.num_constraints()) +
           " constraints + 3 input constraints), S-box rounds, bit decompositions, ANDs";
  }
  throw std::invalid_argument("unknown circuit '" + name + "'; built-in circuits: mul, bench");
}

BuiltinCircuit make_circuit(const std::string& name, unsigned log_rows, std::uint64_t seed) {
  BuiltinCircuit out;
  if (name == "mul") {
    auto c = std::make_unique<MulCircuit>(Fr::from_u64(seed + 3), Fr::from_u64(seed + 11));
    out.public_inputs = c->public_inputs();
    out.description = circuit_description(name, log_rows);
    out.circuit = std::move(c);
  } else if (name == "bench") {
    auto c = std::make_unique<SizedCircuit>(log_rows, Fr::from_u64(seed));
    out.public_inputs = c->public_inputs();
    out.description = circuit_description(name, log_rows);
    out.circuit = std::move(c);
  } else {
    throw std::invalid_argument("unknown circuit '" + name + "'; built-in circuits: mul, bench");
  }
  return out;
}

std::vector<std::string> circuit_names() { return {"mul", "bench"}; }

}  // namespace proofline::circuits::bench
