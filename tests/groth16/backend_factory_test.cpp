// groth16::make_backends (backend_factory.hpp): the one backend factory below the engine, and the
// registration hook device backends use. This test binary links no GPU library, so "cuda" is first
// absent, then a fake device family registered here stands in for src/gpu/register.cpp.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "proofline/groth16/backend_factory.hpp"

namespace proofline::groth16 {
namespace {

std::string error_of(std::string_view which) {
  try {
    make_backends(which);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

class FakeDevice final : public ProverBackend {
 public:
  explicit FakeDevice(int id) : id_(id) {}
  std::string_view name() const override { return "fake"; }
  ProverResult prove(const Parameters&, std::span<r1cs::ProvingBuffers>, std::span<const Randomizers>,
                     const std::atomic<bool>*) override {
    throw std::logic_error("not used");
  }
  int id_;
};

unsigned g_devices = 0;  // what the fake family finds
std::vector<std::shared_ptr<ProverBackend>> fake_maker(const BackendOptions& o, std::string& why) {
  std::vector<std::shared_ptr<ProverBackend>> out;
  for (unsigned d = 0; d < g_devices && (o.max_devices == 0 || out.size() < o.max_devices); ++d) {
    out.push_back(std::make_shared<FakeDevice>(static_cast<int>(d)));
  }
  if (out.empty()) why = "the fake family found no device";
  return out;
}

TEST(BackendFactory, CpuAndErrorsWithoutADeviceLibrary) {
  std::string note;
  auto cpu = make_backends("cpu", BackendOptions{3, 0}, &note);
  ASSERT_EQ(cpu.size(), 1u);
  EXPECT_EQ(cpu[0]->name(), "cpu");
  EXPECT_EQ(note, "backend cpu (3 threads per call)");
  EXPECT_EQ(error_of("tpu"), "tpu: expected cpu, cuda or auto");
  EXPECT_EQ(error_of("CPU"), "CPU: expected cpu, cuda or auto");
  ASSERT_FALSE(has_device_backends("cuda"));
  EXPECT_EQ(error_of("cuda"),
            "cuda: this build has no CUDA backend (nvcc not found at configure time, or -DPROOFLINE_CUDA=OFF)");
  auto fallback = make_backends("auto", BackendOptions{2, 0}, &note);
  ASSERT_EQ(fallback.size(), 1u);
  EXPECT_EQ(fallback[0]->name(), "cpu");
  EXPECT_EQ(note.rfind("backend cpu (2 threads per call); auto: this build has no CUDA backend", 0), 0u) << note;
}

TEST(BackendFactory, RegisteredDeviceFamily) {
  ASSERT_TRUE(register_device_backends("cuda", fake_maker));
  ASSERT_TRUE(has_device_backends("cuda"));
  g_devices = 3;
  std::string note;
  auto all = make_backends("cuda", {}, &note);
  ASSERT_EQ(all.size(), 3u);
  for (int d = 0; d < 3; ++d) EXPECT_EQ(static_cast<const FakeDevice&>(*all[static_cast<std::size_t>(d)]).id_, d);
  EXPECT_EQ(note, "backend cuda: 3 device(s)");
  EXPECT_EQ(make_backends("cuda", BackendOptions{0, 2}).size(), 2u);
  EXPECT_EQ(make_backends("auto", BackendOptions{0, 1})[0]->name(), "fake");
  g_devices = 0;  // the family is there, its devices are not
  EXPECT_EQ(error_of("cuda"), "cuda: the fake family found no device");
  auto fallback = make_backends("auto", {}, &note);
  EXPECT_EQ(fallback[0]->name(), "cpu");
  EXPECT_NE(note.find("; auto: the fake family found no device"), std::string::npos) << note;
}

}  // namespace
}  // namespace proofline::groth16
