#include "core/net/multipart.h"

#include <algorithm>
#include <cctype>

#include "core/util/ascii.h"

namespace proflow::net {
namespace {

// Value of `param` in a header like `form-data; name="profile"; filename="p.pprof"` (quotes removed,
// backslash escapes honoured). "" when absent.
std::string headerParam(std::string_view header, std::string_view param) {
  size_t pos = 0;
  while ((pos = header.find(';', pos)) != std::string_view::npos) {
    ++pos;
    std::string_view rest = trim(header.substr(pos));
    const size_t eq = rest.find('=');
    if (eq == std::string_view::npos) continue;
    if (!iequals(trim(rest.substr(0, eq)), param)) continue;
    std::string_view v = trim(rest.substr(eq + 1));
    std::string out;
    if (!v.empty() && v.front() == '"') {
      for (size_t i = 1; i < v.size() && v[i] != '"'; ++i) {
        if (v[i] == '\\' && i + 1 < v.size()) ++i;
        out.push_back(v[i]);
      }
      return out;
    }
    return std::string(trim(v.substr(0, v.find(';'))));
  }
  return {};
}

// Parses the header block of one part (lines up to an empty line); advances `part` past it.
Status parsePartHeaders(std::string_view* part, FormPart* out) {
  bool disposition = false;
  while (true) {
    const size_t eol = part->find("\r\n");
    if (eol == std::string_view::npos) return Status::invalid("multipart: part headers are not terminated");
    const std::string_view line = part->substr(0, eol);
    part->remove_prefix(eol + 2);
    if (line.empty()) break;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) return Status::invalid("multipart: malformed part header line");
    const std::string_view name = trim(line.substr(0, colon));
    const std::string_view value = trim(line.substr(colon + 1));
    if (iequals(name, "content-disposition")) {
      disposition = true;
      out->name = headerParam(value, "name");
      out->filename = headerParam(value, "filename");
    } else if (iequals(name, "content-type")) {
      out->content_type = std::string(value);
    }
  }
  if (!disposition) return Status::invalid("multipart: a part has no Content-Disposition header");
  if (out->name.empty()) return Status::invalid("multipart: a part has no name");
  return Status::ok();
}

}  // namespace

std::string multipartBoundary(std::string_view content_type) {
  const size_t semi = content_type.find(';');
  if (!iequals(trim(content_type.substr(0, semi)), "multipart/form-data")) return {};
  return headerParam(content_type, "boundary");
}

Status parseMultipart(std::string_view body, std::string_view boundary, std::vector<FormPart>* parts,
                      size_t max_parts) {
  parts->clear();
  if (boundary.empty() || boundary.size() > 200) return Status::invalid("multipart: missing or invalid boundary");
  const std::string delim = "--" + std::string(boundary);
  // The first delimiter may be preceded by a preamble; every later one follows a CRLF.
  size_t pos = body.substr(0, delim.size()) == delim ? 0 : body.find("\r\n" + delim);
  if (pos == std::string_view::npos) return Status::invalid("multipart: boundary not found in the body");
  pos += pos == 0 ? delim.size() : delim.size() + 2;
  const std::string next_delim = "\r\n" + delim;
  while (true) {
    std::string_view rest = body.substr(pos);
    if (rest.substr(0, 2) == "--") return Status::ok();  // closing delimiter
    // Transport padding after the delimiter, then CRLF.
    const size_t eol = rest.find("\r\n");
    if (eol == std::string_view::npos || !trim(rest.substr(0, eol)).empty())
      return Status::invalid("multipart: malformed delimiter line");
    rest.remove_prefix(eol + 2);
    const size_t end = rest.find(next_delim);
    if (end == std::string_view::npos) return Status::invalid("multipart: body ends without the closing boundary");
    if (parts->size() == max_parts)
      return Status::invalid("multipart: more than " + std::to_string(max_parts) + " parts");
    std::string_view part = rest.substr(0, end);
    FormPart fp;
    if (Status s = parsePartHeaders(&part, &fp); !s.isOk()) return s;
    fp.data = part;
    parts->push_back(std::move(fp));
    pos = static_cast<size_t>(rest.data() - body.data()) + end + next_delim.size();
  }
}

}  // namespace proflow::net
