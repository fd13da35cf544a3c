// `perf script` text -> the profile builder. The default output of a `perf record -g` recording:
//   <comm> <tid>[ [cpu]] <secs>.<usecs>: <period> <event>:
//   \t<addr> <sym>+0x<off> (<dso>)
//   ...
//   <blank line>
// `-F +pid` (pid/tid), `--ns` and recordings without callchains (the frame on the header line) are
// read too. Frames come symbolized: their names become functions; `[unknown]` frames keep only
// their address and dso.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <unordered_map>
#include <vector>

#include "core/formats/perf/perf.h"
#include "core/formats/perf/profile_builder.h"

namespace proflow::perf {
namespace {

std::vector<std::string_view> tokens(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

template <class T>
bool number(std::string_view s, T* v, int base = 10) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *v, base);
  return ec == std::errc() && p == s.data() + s.size() && !s.empty();
}

// "123.456789:" -> ns.
bool timeToken(std::string_view t, uint64_t* ns) {
  if (t.size() < 4 || t.back() != ':') return false;
  t.remove_suffix(1);
  const size_t dot = t.find('.');
  uint64_t secs = 0, frac = 0;
  if (dot == std::string_view::npos || !number(t.substr(0, dot), &secs) || !number(t.substr(dot + 1), &frac))
    return false;
  const size_t digits = t.size() - dot - 1;
  if (digits > 9 || secs > 9'000'000'000ull) return false;
  for (size_t d = digits; d < 9; ++d) frac *= 10;
  *ns = secs * 1'000'000'000ull + frac;
  return true;
}

struct Header {
  std::string comm;
  int64_t pid = -1, tid = -1;
  int32_t cpu = -1;
  uint64_t time = 0;
  int64_t period = 1;
  std::string event = "cpu-clock";
  std::string_view rest;  // a frame on the header line (recordings without callchains)
};

bool parseHeader(std::string_view line, Header* h) {
  const std::vector<std::string_view> t = tokens(line);
  size_t ti = 0;
  while (ti < t.size() && !timeToken(t[ti], &h->time)) ++ti;
  if (ti == t.size() || ti < 2) return false;
  size_t k = ti - 1;
  if (t[k].size() > 2 && t[k].front() == '[' && t[k].back() == ']') {
    if (!number(t[k].substr(1, t[k].size() - 2), &h->cpu)) return false;
    if (k == 0) return false;
    --k;
  }
  std::string_view ids = t[k];
  const size_t slash = ids.find('/');
  if (slash != std::string_view::npos) {
    if (!number(ids.substr(0, slash), &h->pid) || !number(ids.substr(slash + 1), &h->tid)) return false;
  } else {
    if (!number(ids, &h->tid)) return false;
  }
  if (k == 0) return false;
  h->comm.clear();
  for (size_t i = 0; i < k; ++i) h->comm += (i ? " " : "") + std::string(t[i]);
  size_t next = ti + 1;
  if (next < t.size() && number(t[next], &h->period)) ++next;
  if (next < t.size() && t[next].back() == ':') {
    h->event = std::string(t[next].substr(0, t[next].size() - 1));
    ++next;
  }
  if (next < t.size()) h->rest = line.substr(static_cast<size_t>(t[next].data() - line.data()));
  return true;
}

struct Frame {
  uint64_t address = 0;
  std::string_view symbol, dso;
};

bool parseFrame(std::string_view line, Frame* f) {
  const size_t a = line.find_first_not_of(" \t");
  if (a == std::string_view::npos) return false;
  line.remove_prefix(a);
  const size_t sp = line.find_first_of(" \t");
  if (!number(line.substr(0, sp), &f->address, 16)) return false;
  std::string_view rest = sp == std::string_view::npos ? std::string_view() : line.substr(sp + 1);
  while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\r')) rest.remove_suffix(1);
  f->dso = {};
  if (!rest.empty() && rest.back() == ')') {
    const size_t open = rest.rfind(" (");
    if (open != std::string_view::npos) {
      f->dso = rest.substr(open + 2, rest.size() - open - 3);
      rest = rest.substr(0, open);
    } else if (rest.front() == '(') {
      f->dso = rest.substr(1, rest.size() - 2);
      rest = {};
    }
  }
  const size_t plus = rest.rfind("+0x");
  if (plus != std::string_view::npos && rest.find_first_not_of("0123456789abcdef", plus + 3) == std::string_view::npos)
    rest = rest.substr(0, plus);
  f->symbol = rest == "[unknown]" ? std::string_view() : rest;
  return true;
}

class ScriptReader {
 public:
  ScriptReader(const Options& o, flat::Batch* out) : opts_(o), builder_(out) {}

  Status run(std::string_view text, Result* result);

 private:
  Status flush(size_t line_no);
  int32_t location(const Frame& f);

  const Options& opts_;
  internal::ProfileBuilder builder_;
  std::unordered_map<std::string, uint32_t> events_;
  std::unordered_map<std::string_view, int32_t> mappings_;
  Header header_;
  bool in_sample_ = false;
  std::vector<int32_t> frames_;
  uint64_t samples_ = 0, max_time_ = 0;
};

int32_t ScriptReader::location(const Frame& f) {
  int32_t mapping = 0;
  if (!f.dso.empty() && f.dso != "[unknown]") {
    auto [it, inserted] = mappings_.try_emplace(f.dso, 0);
    if (inserted) it->second = builder_.mapping(f.dso, 0, 0, 0, "");
    mapping = it->second;
  }
  const bool kernel = f.dso.starts_with("[kernel") || f.dso.ends_with(".ko") || (f.address >> 63 && f.dso.empty());
  std::string_view name = f.symbol;
  if (name.empty() && kernel) name = "[kernel]";
  return builder_.location(f.address, mapping, kernel, name);
}

Status ScriptReader::flush(size_t line_no) {
  if (!in_sample_) return Status::ok();
  in_sample_ = false;
  if (samples_ >= opts_.limits.max_samples)
    return Status::invalid("perf script: line " + std::to_string(line_no) + ": more than " +
                           std::to_string(opts_.limits.max_samples) + " samples (limit)");
  auto [it, inserted] = events_.try_emplace(header_.event, 0);
  if (inserted && events_.size() > opts_.limits.max_events) {
    events_.erase(it);
    return Status::invalid("perf script: line " + std::to_string(line_no) + ": more than " +
                           std::to_string(opts_.limits.max_events) + " events (limit)");
  }
  if (inserted) {
    const bool clock = header_.event.starts_with("cpu-clock") || header_.event.starts_with("task-clock");
    it->second = builder_.event(header_.event, clock ? "nanoseconds" : "count");
  }
  internal::SampleContext where;
  where.pid = header_.pid;
  where.tid = header_.tid;
  where.cpu = header_.cpu;
  where.thread_name = header_.comm;
  where.process_name = header_.comm;
  builder_.addSample(it->second, where, header_.time, header_.period, frames_);
  max_time_ = std::max(max_time_, header_.time);
  ++samples_;
  return Status::ok();
}

Status ScriptReader::run(std::string_view text, Result* result) {
  size_t line_no = 0, pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    auto bad = [&](const std::string& what) {
      return Status::invalid("perf script: line " + std::to_string(line_no) + ": " + what);
    };
    if (line.find_first_not_of(" \t") == std::string_view::npos) {
      if (Status s = flush(line_no); !s.isOk()) return s;
      continue;
    }
    if (line.front() == '#' && !in_sample_) continue;  // perf script --header
    if (line.front() == ' ' || line.front() == '\t') {
      Frame f;
      if (!in_sample_) return bad("frame line outside a sample");
      if (!parseFrame(line, &f)) return bad("expected a frame (address symbol (dso))");
      if (frames_.size() >= opts_.limits.max_stack_depth)
        return bad("more than " + std::to_string(opts_.limits.max_stack_depth) + " frames (limit)");
      frames_.push_back(location(f));
      continue;
    }
    if (Status s = flush(line_no); !s.isOk()) return s;
    if (!parseHeader(line, &header_)) return bad("expected a sample header (comm tid [cpu] time: period event:)");
    in_sample_ = true;
    frames_.clear();
    Frame f;
    if (!header_.rest.empty() && parseFrame(header_.rest, &f)) frames_.push_back(location(f));
  }
  if (Status s = flush(line_no); !s.isOk()) return s;
  if (samples_ == 0) return Status::invalid("perf script: no samples in the input");
  uint64_t end = opts_.end_time_unix_nano;
  if (end == 0)
    end = static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count());
  builder_.shiftTimes(static_cast<int64_t>(end - max_time_));
  builder_.finish("perf-script", opts_.keep_original_payload ? text : std::string_view(), 0);
  if (result) {
    result->samples = samples_;
    result->records = samples_;
  }
  return Status::ok();
}

}  // namespace

Status perfScriptToFlat(std::string_view text, const Options& options, flat::Batch* out, Result* result) {
  if (options.reserve_memory)
    if (Status s = options.reserve_memory(text.size() * 4 + (1u << 20)); !s.isOk()) return s;
  flat::Batch converted;
  ScriptReader reader(options, &converted);
  if (Status s = reader.run(text, result); !s.isOk()) return s;
  if (out->resources.empty() && out->profiles.empty())
    *out = std::move(converted);
  else
    flat::Merger(out).append(converted);
  return Status::ok();
}

std::string_view detect(std::string_view data) {
  if (data.size() >= 8 && data.substr(0, 8) == "PERFILE2") return "perf";
  const std::string_view head = data.substr(0, 4096);
  if (head.find('\0') != std::string_view::npos) return "";
  size_t pos = 0;
  while (pos < head.size()) {  // the first line that is not a comment nor blank
    size_t nl = head.find('\n', pos);
    if (nl == std::string_view::npos) nl = head.size();
    std::string_view line = head.substr(pos, nl - pos);
    pos = nl + 1;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos || line.front() == '#') continue;
    Header h;
    return parseHeader(line, &h) ? "perf-script" : "";
  }
  return "";
}

Status perfToFlat(std::string_view data, const Options& options, flat::Batch* out, Result* result) {
  const std::string_view form = detect(data);
  if (form == "perf") return perfDataToFlat(data, options, out, result);
  if (form == "perf-script") return perfScriptToFlat(data, options, out, result);
  return Status::invalid("neither perf.data (no PERFILE2 magic) nor perf script text");
}

}  // namespace proflow::perf
