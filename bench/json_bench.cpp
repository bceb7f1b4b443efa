// JSON input limits (issue 21): the cost of util/json.hpp's size + nesting check on the raw text
// against the parse it guards, side by side on the same C1 text. The text is a synthetic C1 of
// gen_c1 (2 KiB: 100 KB; 32 GiB: 10 partitions × 18 challenges, the real job's shape and size).
// Names: json/<what>/<sector>.
#include <benchmark/benchmark.h>

#include <map>
#include <string>

#include "proofline/filecoin/c1.hpp"
#include "proofline/filecoin/seal.hpp"
#include "proofline/util/json.hpp"

namespace {

using namespace proofline;

const std::string& c1_text(filecoin::RegisteredSealProof p) {
  static std::map<filecoin::RegisteredSealProof, std::string> texts;
  auto it = texts.find(p);
  if (it == texts.end()) it = texts.emplace(p, filecoin::to_json(filecoin::gen_c1({p, 7}))).first;
  return it->second;
}

void BM_CheckLimits(benchmark::State& st, filecoin::RegisteredSealProof p) {
  const std::string& text = c1_text(p);
  for (auto _ : st) json::check_limits(text, {filecoin::kMaxC1JsonBytes}, "c1");
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * text.size()));
}

void BM_ParseC1(benchmark::State& st, filecoin::RegisteredSealProof p) {
  const std::string& text = c1_text(p);
  for (auto _ : st) benchmark::DoNotOptimize(filecoin::parse_c1_json(text));
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * text.size()));
}

using filecoin::RegisteredSealProof;
BENCHMARK_CAPTURE(BM_CheckLimits, 2KiB, RegisteredSealProof::StackedDrg2KiBV1_1)->Name("json/check_limits/2KiB");
BENCHMARK_CAPTURE(BM_ParseC1, 2KiB, RegisteredSealProof::StackedDrg2KiBV1_1)->Name("json/parse_c1_json/2KiB");
BENCHMARK_CAPTURE(BM_CheckLimits, 32GiB, RegisteredSealProof::StackedDrg32GiBV1_1)
    ->Name("json/check_limits/32GiB")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ParseC1, 32GiB, RegisteredSealProof::StackedDrg32GiBV1_1)
    ->Name("json/parse_c1_json/32GiB")->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
