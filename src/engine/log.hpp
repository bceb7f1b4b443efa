// The engine's spdlog logger ("proofline.engine", stderr), shared by src/engine/*.cpp. Private header.
#pragma once

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <memory>

namespace proofline::engine {

inline std::shared_ptr<spdlog::logger> log() {
  static std::shared_ptr<spdlog::logger> logger = [] {
    auto l = spdlog::get("proofline.engine");
    return l ? l : spdlog::stderr_color_mt("proofline.engine");
  }();
  return logger;
}

}  // namespace proofline::engine
