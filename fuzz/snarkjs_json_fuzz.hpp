// fuzz/snarkjs_json_fuzz.hpp — the body of the three snarkjs JSON targets (groth16/snarkjs.hpp):
// parse; if accepted, write it out again and parse that: the value must be the same.
#pragma once

#include "fuzz.hpp"
#include "proofline/groth16/snarkjs.hpp"

namespace proofline::fuzz {

template <class Parse, class Write>
void fuzz_json(const std::uint8_t* data, std::size_t size, Parse parse, Write write) {
  const std::string in = text(data, size);
  decltype(parse(in)) value;
  if (!accepted([&] { value = parse(in); })) return;
  const std::string out = write(value);
  PL_FUZZ_CHECK(parse(out) == value);
}

}  // namespace proofline::fuzz
