#include "core/file_map.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace logscope {

void FileMapBuilder::add(uint64_t offset, uint64_t length, const std::string& kind, const std::string& label) {
  items_.push_back({offset, length, kind, label});
}

void FileMapBuilder::damaged_from(uint64_t offset, const std::string& label) {
  if (damaged_ && offset >= damaged_from_) return;  // the first damage wins
  damaged_ = true;
  damaged_from_ = offset;
  damaged_label_ = label;
}

void FileMapBuilder::refine_with_check(const Report& report) {
  if (report.recovery.performed && report.recovery.ends_at < file_size_)
    damaged_from(report.recovery.ends_at, "not readable: " + report.recovery.message);
  // Only framing and content errors damage the structure they are in; a missing index or trailer
  // is shown by the format as missing, and a checksum mismatch does not say where.
  for (const Problem& p : report.problems) {
    std::string category = problem_category(p.code);
    bool damages = category == "structure" || category == "content";
    if (p.severity == Severity::Error && damages && p.code.find(".trailer.") == std::string::npos && p.offset < file_size_)
      damaged_at(p.offset, p.code);
  }
}

void FileMapBuilder::missing(uint64_t expected_end, const std::string& label) {
  missing_ = true;
  missing_end_ = expected_end;
  missing_label_ = label;
}

FileMap FileMapBuilder::finish(std::string source, std::vector<Problem> problems) const {
  FileMap map;
  map.file_size = file_size_;
  map.source = std::move(source);
  map.problems = std::move(problems);
  uint64_t end = std::min(file_size_, damaged_ ? damaged_from_ : file_size_);
  uint64_t known_end = std::min(end, structures_end_);

  std::vector<Item> items;
  for (const Item& item : items_)
    if (item.offset < known_end) items.push_back(item);
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.offset < b.offset; });

  auto push = [&](uint64_t offset, uint64_t length, const std::string& kind, const std::string& label) {
    if (length == 0 && kind != "missing") return;
    bool mergeable = kind != "damaged" && kind != "missing" && kind != "unreachable";
    if (!map.regions.empty() && mergeable) {
      MapRegion& last = map.regions.back();
      if (last.kind == kind && last.offset + last.length == offset) {
        last.length += length;
        ++last.count;
        last.last_label = label;
        return;
      }
    }
    map.regions.push_back(MapRegion{offset, length, kind, label, label, 1, {}});
  };

  uint64_t at = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    const Item& item = items[i];
    if (item.offset < at) continue;  // overlaps the one before: the earlier structure wins
    if (item.offset > at) push(at, item.offset - at, "unreachable", "not referenced");
    uint64_t next = i + 1 < items.size() ? items[i + 1].offset : known_end;
    uint64_t stop = item.length ? std::min(item.offset + item.length, known_end) : next;
    stop = std::max(stop, item.offset);
    const Item* damage = nullptr;
    for (const Item& d : damaged_at_)
      if (d.offset >= item.offset && d.offset < stop) damage = &d;
    if (damage) push(item.offset, stop - item.offset, "damaged", item.label + ": " + damage->label);
    else push(item.offset, stop - item.offset, item.kind, item.label);
    at = stop;
  }
  if (at < end) push(at, end - at, "unreachable", "not referenced by the index");
  if (damaged_ && damaged_from_ < file_size_) push(damaged_from_, file_size_ - damaged_from_, "damaged", damaged_label_);
  if (missing_)
    push(file_size_, missing_end_ > file_size_ ? missing_end_ - file_size_ : 0, "missing", missing_label_);

  for (size_t p = 0; p < map.problems.size() && !map.regions.empty(); ++p) {
    uint64_t offset = map.problems[p].offset;
    size_t r = map.regions.size() - 1;  // past the end: the last region
    for (size_t k = 0; k < map.regions.size(); ++k)
      if (offset >= map.regions[k].offset && offset < map.regions[k].offset + map.regions[k].length) {
        r = k;
        break;
      }
    map.regions[r].problems.push_back(p);
  }
  return map;
}

Json FileMap::to_json() const {
  Json j = Json::object();
  j["file_size"] = file_size;
  j["source"] = source;
  if (!error.empty()) j["error"] = error;
  Json regions_json = Json::array();
  for (const MapRegion& r : regions) {
    Json region = Json::object();
    region["offset"] = r.offset;
    region["length"] = r.length;
    region["kind"] = r.kind;
    region["label"] = r.label;
    region["last_label"] = r.last_label;
    region["count"] = r.count;
    Json list = Json::array();
    for (size_t p : r.problems) list.push_back(static_cast<uint64_t>(p));
    region["problems"] = list;
    regions_json.push_back(region);
  }
  j["regions"] = regions_json;
  Json problems_json = Json::array();
  for (const Problem& p : problems) problems_json.push_back(problem_to_json(p));
  j["problems"] = problems_json;
  return j;
}

std::string FileMap::to_text() const {
  std::string out;
  char line[512];
  for (const MapRegion& r : regions) {
    std::snprintf(line, sizeof line, "%12" PRIu64 " .. %-12" PRIu64 " %10s  %-11s %s", r.offset, r.offset + r.length,
                  format_bytes(r.length).c_str(), r.kind.c_str(), r.label.c_str());
    out += line;
    if (r.count > 1) out += (r.last_label != r.label ? " .. " + r.last_label : "") + " (" + std::to_string(r.count) + ")";
    out += "\n";
    for (size_t p : r.problems) {
      const Problem& problem = problems[p];
      std::snprintf(line, sizeof line, "%12s   ! %s @%" PRIu64 " %s  ", "", severity_name(problem.severity), problem.offset,
                    problem.code.c_str());
      out += line + problem.message + "\n";
    }
  }
  return out;
}

}  // namespace logscope
