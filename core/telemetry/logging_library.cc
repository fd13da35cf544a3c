// The compiled parts of spdlog and fmt, built from Debian's headers (libspdlog-dev, libfmt-dev)
// into proflow_core instead of taken from libspdlog.so and libfmt.so. Those two are C++ shared
// libraries: while they are linked, every proflow process loads libstdc++.so as well and resolves
// its symbols at start-up. Built here, the proflow executable can take libstdc++ statically.
//
// Every translation unit sees SPDLOG_COMPILED_LIB and SPDLOG_FMT_EXTERNAL (proflow_core's public
// compile definitions), so spdlog's headers declare what is defined here and fmt's headers declare
// what format-inl.h defines here. Only what proflow uses is instantiated: the stderr sink, the
// console sinks of spdlog's default logger, the file sink (output_paths), base_sink for the custom sinks; null_sink and
// ostream_sink are defined in their headers.
#include <fmt/format-inl.h>

#include <spdlog/async.h>  // before thread_pool-inl.h, which needs the async logger's declarations
#include <spdlog/common-inl.h>
#include <spdlog/details/backtracer-inl.h>
#include <spdlog/details/file_helper-inl.h>
#include <spdlog/details/log_msg-inl.h>
#include <spdlog/details/log_msg_buffer-inl.h>
#include <spdlog/details/os-inl.h>
#include <spdlog/details/periodic_worker-inl.h>
#include <spdlog/details/registry-inl.h>
#include <spdlog/details/thread_pool-inl.h>
#include <spdlog/async_logger-inl.h>
#include <spdlog/logger-inl.h>
#include <spdlog/pattern_formatter-inl.h>
#include <spdlog/sinks/ansicolor_sink-inl.h>
#include <spdlog/sinks/base_sink-inl.h>
#include <spdlog/sinks/basic_file_sink-inl.h>
#include <spdlog/sinks/sink-inl.h>
#include <spdlog/sinks/stdout_color_sinks-inl.h>
#include <spdlog/sinks/stdout_sinks-inl.h>
#include <spdlog/spdlog-inl.h>

#include <mutex>

// fmt: the templates its headers declare and leave to the library.
namespace fmt {
inline namespace v9 {
namespace detail {
template auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;
template locale_ref::locale_ref(const std::locale& loc);
template auto locale_ref::get<std::locale>() const -> std::locale;
template auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template auto decimal_point_impl(locale_ref) -> char;
template void buffer<char>::append(const char*, const char*);
template void vformat_to(buffer<char>&, string_view, basic_format_args<FMT_BUFFER_CONTEXT(char)>, locale_ref);
}  // namespace detail
}  // namespace v9
}  // namespace fmt

// spdlog: the sink templates, for the mutexes proflow's sinks use.
template class spdlog::sinks::base_sink<std::mutex>;
template class spdlog::sinks::basic_file_sink<std::mutex>;  // service.telemetry.logs.output_paths
template class spdlog::sinks::base_sink<spdlog::details::null_mutex>;
template class spdlog::sinks::stdout_sink_base<spdlog::details::console_mutex>;
template class spdlog::sinks::stdout_sink<spdlog::details::console_mutex>;
template class spdlog::sinks::stderr_sink<spdlog::details::console_mutex>;
template class spdlog::sinks::ansicolor_sink<spdlog::details::console_mutex>;
template class spdlog::sinks::ansicolor_stdout_sink<spdlog::details::console_mutex>;
template class spdlog::sinks::ansicolor_stderr_sink<spdlog::details::console_mutex>;
