#include "tests/core/formats/pprof/raw_normalizer.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <vector>

namespace proflow::testing {
namespace {

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(' ');
  size_t e = s.find_last_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// "  12: rest" -> {"12", "rest"}; false when the line does not start with an id.
bool splitId(const std::string& line, std::string* id, std::string* rest) {
  std::string t = trim(line);
  size_t colon = t.find(": ");
  if (colon == std::string::npos || colon == 0) return false;
  *id = t.substr(0, colon);
  if (id->find_first_not_of("0123456789") != std::string::npos) return false;
  *rest = t.substr(colon + 2);
  return true;
}

struct Sections {
  std::vector<std::string> header, samples, locations, mappings;
};

bool splitSections(const std::vector<std::string>& ls, Sections* s) {
  std::vector<std::string>* cur = &s->header;
  bool saw_samples = false, saw_locations = false, saw_mappings = false;
  for (const auto& l : ls) {
    if (l == "Samples:") {
      saw_samples = true;
      s->header.push_back(l);
      cur = &s->samples;
    } else if (l == "Locations") {
      saw_locations = true;
      cur = &s->locations;
    } else if (l == "Mappings") {
      saw_mappings = true;
      cur = &s->mappings;
    } else {
      cur->push_back(l);
    }
  }
  return saw_samples && saw_locations && saw_mappings;
}

}  // namespace

std::string normalizePprofRaw(const std::string& raw) {
  Sections sec;
  if (!splitSections(lines(raw), &sec)) return "PARSE ERROR: missing Samples/Locations/Mappings sections";
  if (sec.samples.empty()) return "PARSE ERROR: missing sample type line";

  std::map<std::string, std::string> mapping_by_id;
  std::multiset<std::string> mappings;
  for (const auto& l : sec.mappings) {
    std::string id, rest;
    if (!splitId(l, &id, &rest)) return "PARSE ERROR: mapping line: " + l;
    mapping_by_id[id] = rest;
    mappings.insert(rest);
  }

  // Locations: a first line "ID: ADDR [M=ID] ..." and continuation lines for inlined frames.
  std::map<std::string, std::string> location_by_id;
  std::string cur_id;
  for (const auto& l : sec.locations) {
    std::string id, rest;
    if (splitId(l, &id, &rest)) {
      size_t m = rest.find(" M=");
      if (m != std::string::npos) {
        size_t end = rest.find(' ', m + 3);
        std::string mid = rest.substr(m + 3, end == std::string::npos ? std::string::npos : end - (m + 3));
        if (!mapping_by_id.count(mid)) return "PARSE ERROR: unknown mapping " + mid;
        rest = rest.substr(0, m) + " M={" + mapping_by_id[mid] + "}" +
               (end == std::string::npos ? "" : rest.substr(end));
      }
      cur_id = id;
      location_by_id[id] = rest;
    } else {
      if (cur_id.empty()) return "PARSE ERROR: location continuation without location: " + l;
      location_by_id[cur_id] += " / " + trim(l);
    }
  }
  std::set<std::string> locations;
  for (const auto& [id, text] : location_by_id) locations.insert(text);

  // Samples: "VALUES: LOCIDS" lines, each followed by indented label lines.
  std::multiset<std::string> samples;
  std::string current;
  auto flush = [&] {
    if (!current.empty()) samples.insert(current);
    current.clear();
  };
  for (size_t i = 1; i < sec.samples.size(); ++i) {
    const std::string& l = sec.samples[i];
    size_t colon = l.find(':');
    bool is_label = l.rfind("                ", 0) == 0 && l.find_first_not_of(' ') >= 16 &&
                    l.substr(0, colon).find_first_not_of(" 0123456789-") != std::string::npos;
    if (is_label) {
      if (current.empty()) return "PARSE ERROR: label line without sample: " + l;
      current += "\n    " + trim(l);
      continue;
    }
    if (colon == std::string::npos) return "PARSE ERROR: sample line: " + l;
    flush();
    current = trim(l.substr(0, colon)) + " :";
    std::istringstream ids(l.substr(colon + 1));
    for (std::string id; ids >> id;) {
      if (!location_by_id.count(id)) return "PARSE ERROR: unknown location " + id;
      current += "\n    @ " + location_by_id[id];
    }
  }
  flush();

  std::ostringstream out;
  for (const auto& h : sec.header) out << h << "\n";
  out << sec.samples[0] << "\n";
  for (const auto& s : samples) out << "SAMPLE " << s << "\n";
  out << "Locations\n";
  for (const auto& l : locations) out << l << "\n";
  out << "Mappings\n";
  for (const auto& m : mappings) out << m << "\n";
  return out.str();
}

}  // namespace proflow::testing
