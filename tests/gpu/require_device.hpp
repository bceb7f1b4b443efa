// tests/gpu/require_device.hpp — REQUIRE_CUDA_DEVICE(), the first statement of every GPU test:
// where no CUDA device is usable (no GPU or no driver, as on CI), the test reports itself skipped
// with the reason instead of failing (gpu::device_count(), proofline/gpu/device.hpp).
#pragma once

#include <gtest/gtest.h>

#include "proofline/gpu/device.hpp"

#define REQUIRE_CUDA_DEVICE()                                                                                       \
  do {                                                                                                              \
    if (::proofline::gpu::device_count() == 0) GTEST_SKIP() << "no CUDA device: no GPU or no usable driver here"; \
  } while (0)
