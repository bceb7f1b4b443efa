// A proof kind defined in this test file alone (ctest server_test_kind, tests/server/test_kind.sh):
// "test-product" proves knowledge of x and y with x·y = z, z public, on the built-in a·b = c circuit
// (circuits::bench::MulCircuit) with the parameters `proofline setup --circuit mul` makes. Linked
// into a `proofline` of its own (cmake/server.cmake: the command's objects + this file); nothing in
// src/server, src/cli or proto/ knows it: its daemon serves it from this declaration and
// registration, and the ordinary `proofline submit` takes its arguments as flags (--params, --x,
// --y, --note) from the daemon's ListKinds.
#include <memory>
#include <stdexcept>
#include <string>

#include "proofline/circuits/bench/bench.hpp"
#include "proofline/engine/kind.hpp"
#include "proofline/groth16/params.hpp"
#include "proofline/util/error.hpp"

namespace proofline::testkind {
namespace {

using engine::ArgSpec;
using engine::ArgType;
using ff::Fr;

class ProductJob final : public engine::KindJob {
 public:
  ProductJob(std::string params, std::uint64_t x, std::uint64_t y)
      : params_(std::move(params)), key_("test-product:" + params_ + engine::file_version(params_)), x_(x), y_(y) {}
  std::size_t num_partitions() const override { return 1; }
  std::string srs_key() const override { return key_; }
  std::shared_ptr<const engine::Srs> load_srs(const std::function<void(double)>&) const override {
    return engine::make_srs(key_, groth16::Parameters::read_file(params_), nullptr, 0);
  }
  void check(const engine::Srs& srs) const override {
    if (srs.params.num_inputs() != 2) {
      throw ProoflineError(Error::BadLength, "kind 'test-product': '" + params_ +
                                                 "' is not a parameter file of the a·b = c circuit: inputs got " +
                                                 std::to_string(srs.params.num_inputs()) + ", expected 2");
    }
  }
  void synthesize(std::size_t, const engine::Srs& srs, r1cs::ProvingBuffers& buf) const override {
    const circuits::bench::MulCircuit circuit(Fr::from_u64(x_), Fr::from_u64(y_));
    engine::synthesize_into(buf, [&](r1cs::ProvingAssignment& cs) {
      cs.reserve(srs.params.domain_size(), srs.params.num_inputs(), srs.params.num_aux());
      r1cs::synthesize(circuit, cs);
    });
  }

 private:
  std::string params_, key_;
  std::uint64_t x_, y_;
};

class ProductKind final : public engine::ProofKind {
 public:
  std::string_view name() const override { return "test-product"; }
  std::string_view description() const override {
    return "A test kind: x·y = z with z public (the a·b = c circuit), defined in tests/server/test_kind.cpp alone";
  }
  std::vector<ArgSpec> arguments() const override {
    return {ArgSpec("params", ArgType::File, "the a·b = c circuit's .params (proofline setup --circuit mul)")
                .require()
                .names_srs(),
            ArgSpec("x", ArgType::Int, "the first factor").require().range(1, 1u << 30),
            ArgSpec("y", ArgType::Int, "the second factor").require().range(1, 1u << 30),
            ArgSpec("note", ArgType::String, "free text, unused (a string argument)")};
  }
  std::shared_ptr<const engine::KindJob> prepare(const engine::ProofRequest& r) const override {
    return std::make_shared<ProductJob>(engine::existing_file("parameter file", engine::require_arg(r, "params")),
                                        engine::parse_u64_arg("x", engine::require_arg(r, "x")),
                                        engine::parse_u64_arg("y", engine::require_arg(r, "y")));
  }
};

}  // namespace

PROOFLINE_REGISTER_KIND(test_kind, std::make_shared<ProductKind>());

}  // namespace proofline::testkind
