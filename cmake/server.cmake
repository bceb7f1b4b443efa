# The gRPC daemon (issue 6): proto/proofline/v1/engine.proto → C++ (protoc + grpc_cpp_plugin),
# the `proofline_server` library from src/server/ (kept out of the core library), linked into the
# `proofline` CLI and tests/server (test_server).
# Debian 12 packages: libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
# (scripts/install-deps.sh). gRPC is found through pkg-config (Debian's gRPCConfig.cmake wants absl's
# CMake files, which libgrpc++-dev does not pull in).
pkg_check_modules(GRPCPP REQUIRED IMPORTED_TARGET grpc++ protobuf)
find_program(PROTOC_EXECUTABLE protoc REQUIRED)
find_program(GRPC_CPP_PLUGIN grpc_cpp_plugin REQUIRED)

set(PROOFLINE_PROTO_DIR ${PROJECT_SOURCE_DIR}/proto)
set(PROOFLINE_PROTO ${PROOFLINE_PROTO_DIR}/proofline/v1/engine.proto)
set(PROOFLINE_PROTO_OUT ${CMAKE_BINARY_DIR}/proto_gen)
set(PROOFLINE_PROTO_SRCS
    ${PROOFLINE_PROTO_OUT}/proofline/v1/engine.pb.cc ${PROOFLINE_PROTO_OUT}/proofline/v1/engine.pb.h
    ${PROOFLINE_PROTO_OUT}/proofline/v1/engine.grpc.pb.cc ${PROOFLINE_PROTO_OUT}/proofline/v1/engine.grpc.pb.h)
add_custom_command(
  OUTPUT ${PROOFLINE_PROTO_SRCS}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${PROOFLINE_PROTO_OUT}
  COMMAND ${PROTOC_EXECUTABLE} -I ${PROOFLINE_PROTO_DIR} --cpp_out=${PROOFLINE_PROTO_OUT}
          --grpc_out=${PROOFLINE_PROTO_OUT} --plugin=protoc-gen-grpc=${GRPC_CPP_PLUGIN} ${PROOFLINE_PROTO}
  DEPENDS ${PROOFLINE_PROTO}
  COMMENT "protoc: proofline/v1/engine.proto"
  VERBATIM)

# cuzk.v1 (the wire API Curio calls, issue 20): proto/cuzk/v1/proving.proto, served beside proofline.v1.
set(CUZK_PROTO ${PROOFLINE_PROTO_DIR}/cuzk/v1/proving.proto)
set(CUZK_PROTO_SRCS
    ${PROOFLINE_PROTO_OUT}/cuzk/v1/proving.pb.cc ${PROOFLINE_PROTO_OUT}/cuzk/v1/proving.pb.h
    ${PROOFLINE_PROTO_OUT}/cuzk/v1/proving.grpc.pb.cc ${PROOFLINE_PROTO_OUT}/cuzk/v1/proving.grpc.pb.h)
add_custom_command(
  OUTPUT ${CUZK_PROTO_SRCS}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${PROOFLINE_PROTO_OUT}
  COMMAND ${PROTOC_EXECUTABLE} -I ${PROOFLINE_PROTO_DIR} --cpp_out=${PROOFLINE_PROTO_OUT}
          --grpc_out=${PROOFLINE_PROTO_OUT} --plugin=protoc-gen-grpc=${GRPC_CPP_PLUGIN} ${CUZK_PROTO}
  DEPENDS ${CUZK_PROTO}
  COMMENT "protoc: cuzk/v1/proving.proto"
  VERBATIM)

add_library(proofline_proto STATIC ${PROOFLINE_PROTO_SRCS} ${CUZK_PROTO_SRCS})
target_include_directories(proofline_proto SYSTEM PUBLIC ${PROOFLINE_PROTO_OUT})
target_link_libraries(proofline_proto PUBLIC PkgConfig::GRPCPP)

file(GLOB PROOFLINE_SERVER_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/server/*.cpp)
if(NOT PROOFLINE_SERVER_SOURCES)
  return()
endif()
add_library(proofline_server STATIC ${PROOFLINE_SERVER_SOURCES})
set_target_properties(proofline_server PROPERTIES UNITY_BUILD ${PROOFLINE_UNITY})
target_compile_options(proofline_server PRIVATE -Wall -Wextra)
pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)  # the status page (libcpp-httplib-dev)
target_link_libraries(proofline_server PUBLIC proofline proofline_proto PRIVATE PkgConfig::HTTPLIB)
# The daemon offers the CUDA backend when the build has it: linking the GPU library registers it
# with groth16::make_backends (src/gpu/register.cpp); server/ itself has no GPU code.
if(TARGET proofline_gpu)
  target_link_libraries(proofline_server PUBLIC proofline_gpu)
endif()

if(TARGET proofline_cli)
  target_link_libraries(proofline_cli_objects PUBLIC proofline_server)
  # The CLI as separate processes: daemon, submit, status, SIGTERM (tests/server/cli_daemon.sh).
  add_test(NAME server_cli COMMAND bash ${PROJECT_SOURCE_DIR}/tests/server/cli_daemon.sh $<TARGET_FILE:proofline_cli>)
  set_tests_properties(server_cli PROPERTIES LABELS "server;cli" TIMEOUT 120)
  # submit --kind porep-c2 (2 KiB, parameters of scripts/porep_params.sh shared with cli_porep_c2) and
  # --kind snarkjs (proof.json / public.json checked by snarkjs): tests/server/submit_kinds.sh.
  add_test(NAME server_submit_kinds
           COMMAND bash ${PROJECT_SOURCE_DIR}/tests/server/submit_kinds.sh $<TARGET_FILE:proofline_cli>
                   ${PROJECT_SOURCE_DIR}/.oracle ${PROJECT_BINARY_DIR}/filecoin-proof-parameters
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(server_submit_kinds PROPERTIES LABELS "server;cli;oracle;slow" PROCESSORS ${PROOFLINE_SLOW_PROCESSORS} TIMEOUT 3600
                       RESOURCE_LOCK porep_heavy FIXTURES_REQUIRED porep_params ENVIRONMENT "NODE=${NODE_EXECUTABLE}")
  # cuzk.v1 (issue 20) through Python grpcio, as Curio calls it: tests/server/cuzk_api.sh.
  add_test(NAME server_cuzk_api
           COMMAND bash ${PROJECT_SOURCE_DIR}/tests/server/cuzk_api.sh $<TARGET_FILE:proofline_cli>
                   ${PROJECT_BINARY_DIR}/filecoin-proof-parameters)
  set_tests_properties(server_cuzk_api PROPERTIES LABELS "server;cli" TIMEOUT 900 RESOURCE_LOCK porep_heavy FIXTURES_REQUIRED porep_params)
  # SnapDeals through cuzk.v1 at 2 KiB: setup (~1.3 M constraints) and three proofs (tests/server/cuzk_api.sh snap).
  add_test(NAME server_cuzk_snap
           COMMAND bash ${PROJECT_SOURCE_DIR}/tests/server/cuzk_api.sh $<TARGET_FILE:proofline_cli>
                   ${PROJECT_BINARY_DIR}/filecoin-proof-parameters snap)
  set_tests_properties(server_cuzk_snap PROPERTIES LABELS "server;cli;slow" PROCESSORS ${PROOFLINE_SLOW_PROCESSORS} TIMEOUT 1800 RESOURCE_LOCK porep_heavy)
  # The live status page in chromium-headless-shell during a 2 KiB C2 stream: tests/server/status_page.sh.
  add_test(NAME server_status_page
           COMMAND bash ${PROJECT_SOURCE_DIR}/tests/server/status_page.sh $<TARGET_FILE:proofline_cli>
                   ${PROJECT_BINARY_DIR}/filecoin-proof-parameters ${PROJECT_BINARY_DIR}/test-artifacts)
  set_tests_properties(server_status_page PROPERTIES LABELS "server;cli" TIMEOUT 600 RESOURCE_LOCK porep_heavy FIXTURES_REQUIRED porep_params)
  # A kind defined in a test file alone (tests/server/test_kind.cpp, kind "test-product"): linked
  # into a `proofline` of its own (the command's objects + that file) whose daemon serves it, and
  # submitted to with the ordinary `proofline` (tests/server/test_kind.sh).
  add_executable(proofline_test_kind ${PROJECT_SOURCE_DIR}/tests/server/test_kind.cpp)
  target_link_libraries(proofline_test_kind PRIVATE proofline_cli_objects)
  add_test(NAME server_test_kind
           COMMAND bash ${PROJECT_SOURCE_DIR}/tests/server/test_kind.sh $<TARGET_FILE:proofline_cli>
                   $<TARGET_FILE:proofline_test_kind>)
  set_tests_properties(server_test_kind PROPERTIES LABELS "server;cli" TIMEOUT 120)
endif()
if(TARGET test_server)
  target_link_libraries(test_server PRIVATE proofline_server)
  # The oracle case (noble_verify.mjs on a daemon proof) finds node and .oracle from here.
  target_compile_definitions(test_server PRIVATE PROOFLINE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  if(NODE_EXECUTABLE)
    target_compile_definitions(test_server PRIVATE PROOFLINE_NODE="${NODE_EXECUTABLE}")
  endif()
  # The soak (>= 200 proofs from 8 clients, VmRSS check) is its own binary and ctest entry, label
  # "soak", so it can be run alone: ctest -L soak.
  if(EXISTS ${PROJECT_SOURCE_DIR}/tests/server/soak_main.cpp)
    add_executable(test_server_soak ${PROJECT_SOURCE_DIR}/tests/server/soak_main.cpp)
    target_link_libraries(test_server_soak PRIVATE proofline_server GTest::gtest GTest::gtest_main)
    target_compile_definitions(test_server_soak PRIVATE PROOFLINE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
    add_test(NAME server_soak COMMAND test_server_soak)
    set_tests_properties(server_soak PROPERTIES LABELS "soak;server" TIMEOUT 300)
  endif()
endif()
