// libFuzzer target: the daemon's request decoding path (server/service.hpp) — the bytes of a
// proofline.v1.ProofRequest as they arrive over gRPC, parsed by protobuf, translated by
// `to_engine_request`, checked against the kind's declarations (engine::check_arguments) and
// validated by the kind's `prepare` (as ProvingService::validate does, less its file-system checks:
// the arguments the kind declares as files or folders are dropped so no input can make the target
// open a path). Refusals allowed: protobuf's parse failure, RequestError and ProoflineError from
// the translation, std::invalid_argument from check_arguments, any std::exception from prepare
// (validate turns those into INVALID_ARGUMENT).
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
  const engine::ProofKind* kind = kinds->find(req.kind);
  if (kind == nullptr) return 0;
  for (const engine::ArgSpec& a : kind->arguments()) {
    if (a.type == engine::ArgType::File || a.type == engine::ArgType::Dir) req.args.erase(a.name);
  }
  try {
    engine::check_arguments(*kind, req);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  try {
    PL_FUZZ_CHECK(kind->prepare(req) != nullptr);
  } catch (const std::exception&) {
  }
  return 0;
}
