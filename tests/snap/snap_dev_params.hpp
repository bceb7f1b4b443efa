// The 1 KiB SnapDeals development parameters of the slow cases (SnapProveSlow, SnapKindSlow), made
// once per process: the setup of 1.25 M constraints is most of each case's minutes on two cores, and
// ctest runs both cases in one process (ctest snap_prove, CMakeLists.txt). Seed 7; the file copy is
// written once, for the engine, into its own scratch folder (a case may remove its own).
#pragma once

#include <string>

#include "../support/kind_test_util.hpp"
#include "proofline/circuits/snap.hpp"
#include "proofline/filecoin/snap.hpp"
#include "proofline/groth16/params.hpp"
#include "proofline/groth16/random.hpp"
#include "proofline/groth16/setup.hpp"

namespace proofline::engine::testing {

inline const groth16::Parameters& snap_1kib_dev_params() {
  static const groth16::Parameters params = [] {
    const filecoin::SnapParams& p = filecoin::snap_params(1024);
    groth16::SeededRandom rng(7);
    groth16::SetupOptions quiet;
    quiet.warn = false;
    return groth16::generate_parameters(circuits::snap::EmptySectorUpdateCircuit(p, circuits::snap::blank_witness(p)),
                                        rng, quiet);
  }();
  return params;
}

inline const std::string& snap_1kib_dev_params_file() {
  static const std::string path = [] {
    const std::string f = (scratch_dir("snap-dev-params") / "snap-1KiB.params").string();
    snap_1kib_dev_params().write_file(f);
    return f;
  }();
  return path;
}

}  // namespace proofline::engine::testing
