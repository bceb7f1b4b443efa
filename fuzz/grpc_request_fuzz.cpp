// libFuzzer target: the daemon's request decoding path (server/service.hpp) — the bytes of a
// proofline.v1.ProofRequest as they arrive over gRPC, parsed by protobuf, translated by
// `to_engine_request`, then validated by the kind's `prepare` (as ProvingService::validate does,
// less its file-system checks: file arguments are dropped so no input can make the target open a
// path). Refusals allowed: protobuf's parse failure, RequestError and ProoflineError from the
// translation, any std::exception from prepare (validate turns those into INVALID_ARGUMENT).
// Properties: a translated request keeps request_id and kind; a prepared job is not null.
#include <google/protobuf/stubs/logging.h>

#include "fuzz.hpp"
#include "proofline/engine/kind.hpp"
#include "proofline/server/service.hpp"

using namespace proofline;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::shared_ptr<engine::KindRegistry> kinds = engine::KindRegistry::builtin();
  // protobuf logs every string field with invalid UTF-8 it parses: no use here, and it floods the log.
  static const bool quiet = (google::protobuf::SetLogHandler(nullptr), true);
  (void)quiet;
  server::pb::ProofRequest msg;
  if (!msg.ParseFromArray(data, static_cast<int>(size))) return 0;
  engine::ProofRequest req;
  try {
    req = server::to_engine_request(msg);
  } catch (const server::RequestError& e) {
    PL_FUZZ_CHECK(e.code == grpc::StatusCode::INVALID_ARGUMENT);
    return 0;
  } catch (const ProoflineError&) {
    return 0;
  }
  PL_FUZZ_CHECK(req.request_id == msg.request_id() && req.kind == msg.kind());
  for (const char* file_arg : {"params", "zkey", "wtns"}) req.args.erase(file_arg);
  const engine::ProofKind* kind = kinds->find(req.kind);
  if (kind == nullptr) return 0;
  try {
    PL_FUZZ_CHECK(kind->prepare(req) != nullptr);
  } catch (const std::exception&) {
  }
  return 0;
}
