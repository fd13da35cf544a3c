# The fuzz build (PROFLOW_FUZZ=ON, clang): included by the top-level CMakeLists.txt instead of the
# normal tree. Decoders are instrumented (libFuzzer coverage, ASan, UBSan); only the fuzz binaries link
# libFuzzer's main.
#
# PROFLOW_FUZZ_PREBUILT=<a GCC build tree of the same sources>: link its framework libraries
# (proflow_proto, proflow_core, the batch processor and debug exporter the config target registers)
# instead of compiling them again, and build only the decoders (core/formats, receivers/pyroscope,
# receivers/datadog) and the targets with clang. Both compilers use libstdc++, so the objects link;
# the framework is then not instrumented, which is fine for fuzzing the decoders and saves most of
# the build. The OTLP wire decoder (core/flat) is part of the framework: fuzz otlp_proto in a full
# build, where libFuzzer sees its coverage.
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize=vptr
                    -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
add_link_options(-fsanitize=address,undefined)

set(PROFLOW_FUZZ_PREBUILT "" CACHE PATH "GCC build tree whose framework libraries the fuzz build links")

if(NOT PROFLOW_FUZZ_PREBUILT)
  add_subdirectory(proto)
  add_subdirectory(core)
  add_subdirectory(receivers)
  add_subdirectory(processors)
  add_subdirectory(exporters)
  add_subdirectory(tests/fuzz)
  return()
endif()

function(proflow_fuzz_import name path)
  if(NOT EXISTS ${PROFLOW_FUZZ_PREBUILT}/${path})
    message(FATAL_ERROR "PROFLOW_FUZZ_PREBUILT: ${PROFLOW_FUZZ_PREBUILT}/${path} not found (build it there first)")
  endif()
  add_library(${name} STATIC IMPORTED GLOBAL)
  set_target_properties(${name} PROPERTIES IMPORTED_LOCATION ${PROFLOW_FUZZ_PREBUILT}/${path})
endfunction()

proflow_fuzz_import(proflow_proto proto/libproflow_proto.a)
target_include_directories(proflow_proto INTERFACE ${PROFLOW_FUZZ_PREBUILT}/proto/gen)
target_link_libraries(proflow_proto INTERFACE protobuf::libprotobuf gRPC::grpc++)

proflow_fuzz_import(proflow_core core/libproflow_core.a)
find_package(OpenSSL REQUIRED)
target_include_directories(proflow_core INTERFACE ${PROJECT_SOURCE_DIR})
target_compile_definitions(proflow_core INTERFACE PROFLOW_VERSION="${PROJECT_VERSION}" SPDLOG_COMPILED_LIB
  SPDLOG_FMT_EXTERNAL)  # spdlog and fmt are compiled into proflow_core
target_link_libraries(proflow_core INTERFACE
  proflow_proto yaml-cpp Boost::headers Threads::Threads ZLIB::ZLIB PkgConfig::LIBDEFLATE
  PkgConfig::LIBISAL PkgConfig::ZSTD PkgConfig::LZ4 gRPC::grpc++ OpenSSL::SSL OpenSSL::Crypto proflow_proto)

proflow_fuzz_import(proflow_processor_batch processors/batch/libproflow_processor_batch.a)
target_link_libraries(proflow_processor_batch INTERFACE proflow_core)
proflow_fuzz_import(proflow_exporter_debug exporters/debug/libproflow_exporter_debug.a)
target_link_libraries(proflow_exporter_debug INTERFACE proflow_core)

add_subdirectory(core/flat)  # proflow_flat: a name for proflow_core's flat model
add_subdirectory(core/formats)
add_subdirectory(receivers/pyroscope)
add_subdirectory(receivers/datadog)
add_subdirectory(tests/fuzz)
