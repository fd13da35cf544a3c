#include "tests/core/formats/jfr/jdk_json.h"

#include <sys/wait.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>

#include "core/formats/jfr/generated_names.h"

namespace proflow::testing {

int64_t jdkDurationNanos(const std::string& s) {
  int64_t total = 0;
  size_t i = 2;  // after "PT"
  while (i < s.size()) {
    size_t j = i;
    while (j < s.size() && (isdigit(static_cast<unsigned char>(s[j])) || s[j] == '.' || s[j] == '-')) ++j;
    std::string num = s.substr(i, j - i);
    char unit = j < s.size() ? s[j] : 'S';
    size_t dot = num.find('.');
    int64_t whole = std::stoll(num.substr(0, dot));
    int64_t frac = 0;
    if (dot != std::string::npos) {
      std::string f = num.substr(dot + 1);
      f.resize(9, '0');
      frac = std::stoll(f) * (whole < 0 || num[0] == '-' ? -1 : 1);
    }
    int64_t mult = unit == 'H' ? 3600 : unit == 'M' ? 60 : 1;
    total += (whole * 1000000000 + frac) * mult;
    i = j + 1;
  }
  return total;
}

int64_t jdkInstantNanos(const std::string& s) {
  std::tm tm{};
  if (!strptime(s.c_str(), "%Y-%m-%dT%H:%M:%S", &tm)) return -1;
  int64_t ns = static_cast<int64_t>(timegm(&tm)) * 1000000000;
  size_t dot = s.find('.');
  if (dot != std::string::npos) {
    std::string f = s.substr(dot + 1);
    f = f.substr(0, f.find('Z'));
    f.resize(9, '0');
    ns += std::stoll(f);
  }
  return ns;
}

std::string jdkFrameName(const Json& f) {
  const Json& m = f["method"];
  // Merged with the converter's own rules: generated_names_test.cc and the two-run test check them.
  std::string cls = m["type"]["name"].text;
  jfr::mergeGeneratedNames(cls, &cls);
  std::replace(cls.begin(), cls.end(), '/', '.');
  std::string name = cls + "." + m["name"].text;
  const Json& line = f["lineNumber"];
  if (line.type == Json::Type::kNumber && line.number > 0) name += ":" + line.text;
  return name;
}

namespace {

// Splits the printer's output into its events: the objects of the array under recording.events, at
// bracket depth 3. Strings are skipped whole (they may hold braces).
class EventSplitter {
 public:
  explicit EventSplitter(const std::function<void(const Json&)>& each) : each_(each) {}
  bool feed(std::string_view data, std::string* error) {
    for (char c : data) {
      if (capturing_) event_.push_back(c);
      if (in_string_) {
        if (escaped_) escaped_ = false;
        else if (c == '\\') escaped_ = true;
        else if (c == '"') in_string_ = false;
        continue;
      }
      if (c == '"') {
        in_string_ = true;
      } else if (c == '{' || c == '[') {
        if (depth_ == 3 && c == '{') {
          capturing_ = true;
          event_ = "{";
        }
        ++depth_;
      } else if ((c == '}' || c == ']') && --depth_ == 3 && capturing_) {
        capturing_ = false;
        Json doc;
        if (!parseJson(event_, &doc, error)) return false;
        each_(doc);
      }
    }
    return true;
  }

 private:
  const std::function<void(const Json&)>& each_;
  std::string event_;
  int depth_ = 0;
  bool capturing_ = false, in_string_ = false, escaped_ = false;
};

}  // namespace

std::string forEachJdkEvent(const std::string& file, const std::string& events,
                            const std::function<void(const Json& event)>& each) {
  const std::string cmd = "jfr print --json --stack-depth 8192 --events '" + events + "' '" + file + "'";
  FILE* out = popen(cmd.c_str(), "r");
  if (out == nullptr) return "cannot run: " + cmd;
  EventSplitter splitter(each);
  std::string error;
  char buf[1 << 16];
  for (size_t n; error.empty() && (n = fread(buf, 1, sizeof buf, out)) > 0;) splitter.feed({buf, n}, &error);
  while (fread(buf, 1, sizeof buf, out) > 0) {
  }
  const int status = pclose(out);
  if (!error.empty()) return "unreadable event from `" + cmd + "`: " + error;
  if (status != 0) return "`" + cmd + "` exited " + std::to_string(WEXITSTATUS(status));
  return "";
}

}  // namespace proflow::testing
