#include "core/file_map.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace logscope {

void FileMapBuilder::add(uint64_t offset, uint64_t length, const std::string& kind, const std::string& label) {
  if (!join_runs_) {
    items_.push_back({offset, length, kind, label, label, 1});
    return;
  }
  if (pending_) settle_pending(offset);
  pending_ = true;
  pending_item_ = Item{offset, length, kind, label, label, 1};
}

void FileMapBuilder::settle_pending(uint64_t next_offset) {
  pending_ = false;
  Item& item = pending_item_;
  uint64_t end = item.length ? item.offset + item.length : next_offset;
  if (mark_offsets_.size() != damaged_at_.size()) {  // the marks came before the structures: sorted once
    mark_offsets_.clear();
    for (const Item& mark : damaged_at_) mark_offsets_.push_back(mark.offset);
    std::sort(mark_offsets_.begin(), mark_offsets_.end());
  }
  auto mark = std::lower_bound(mark_offsets_.begin(), mark_offsets_.end(), item.offset);
  bool damaged = mark != mark_offsets_.end() && *mark < end;
  // Past where the structures end (a cut, the damage from), a structure is left out by finish():
  // it must not join a run that is kept.
  bool beyond = (damaged_ && item.offset >= damaged_from_) || item.offset >= structures_end_;
  // One that starts inside a structure of a given length is left out by finish(): not in a run.
  bool overlapped = item.offset < covered_to_;
  if (item.length) covered_to_ = std::max(covered_to_, item.offset + item.length);
  bool alone = damaged || beyond || overlapped;
  if (!items_.empty() && !alone && !last_alone_) {
    Item& last = items_.back();
    // Each up to the next one, or each of a given length, back to back (CARLA's frames).
    bool open_ended = last.length == 0 && item.length == 0;
    bool back_to_back = last.length && item.length && last.offset + last.length == item.offset;
    if (last.kind == item.kind && item.offset > last.offset && (open_ended || back_to_back)) {
      last.length += item.length;
      last.last_label = std::move(item.label);
      ++last.count;
      return;
    }
  }
  items_.push_back(std::move(item));
  last_alone_ = alone;
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

FileMap FileMapBuilder::finish(std::string source, std::vector<Problem> problems) {
  if (pending_) settle_pending(file_size_);
  FileMap map;
  map.file_size = file_size_;
  map.source = std::move(source);
  map.problems = std::move(problems);
  uint64_t end = std::min(file_size_, damaged_ ? damaged_from_ : file_size_);
  uint64_t known_end = std::min(end, structures_end_);

  // Positions of the items in offset order (not copies: a 1 GB log has 280,000 frames).
  std::vector<uint32_t> order;
  order.reserve(items_.size());
  for (size_t i = 0; i < items_.size() && i < UINT32_MAX; ++i)
    if (items_[i].offset < known_end) order.push_back(static_cast<uint32_t>(i));
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return items_[a].offset < items_[b].offset; });
  // Damage marks by offset, so each structure finds its own by a search, not a scan of them all.
  std::vector<const Item*> damage_marks;
  for (const Item& d : damaged_at_) damage_marks.push_back(&d);
  std::stable_sort(damage_marks.begin(), damage_marks.end(), [](const Item* a, const Item* b) { return a->offset < b->offset; });

  auto push = [&](uint64_t offset, uint64_t length, const std::string& kind, const std::string& label,
                  const std::string* last_label = nullptr, uint64_t count = 1) {
    if (length == 0 && kind != "missing") return;
    const std::string& last_one = last_label ? *last_label : label;
    bool mergeable = kind != "damaged" && kind != "missing" && kind != "unreachable";
    if (!map.regions.empty() && mergeable) {
      MapRegion& last = map.regions.back();
      if (last.kind == kind && last.offset + last.length == offset) {
        last.length += length;
        last.count += count;
        last.last_label = last_one;
        return;
      }
    }
    map.regions.push_back(MapRegion{offset, length, kind, label, last_one, count, {}});
  };

  uint64_t at = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    const Item& item = items_[order[i]];
    if (item.offset < at) continue;  // overlaps the one before: the earlier structure wins
    if (item.offset > at) push(at, item.offset - at, "unreachable", "not referenced");
    uint64_t next = i + 1 < order.size() ? items_[order[i + 1]].offset : known_end;
    uint64_t stop = item.length ? std::min(item.offset + item.length, known_end) : next;
    stop = std::max(stop, item.offset);
    const Item* damage = nullptr;  // the last mark in [item.offset, stop), as before
    auto past = std::lower_bound(damage_marks.begin(), damage_marks.end(), stop,
                                 [](const Item* d, uint64_t value) { return d->offset < value; });
    if (past != damage_marks.begin() && (*(past - 1))->offset >= item.offset) damage = *(past - 1);
    if (damage) push(item.offset, stop - item.offset, "damaged", item.label + ": " + damage->label);
    else push(item.offset, stop - item.offset, item.kind, item.label, &item.last_label, item.count);
    at = stop;
  }
  if (at < end) push(at, end - at, "unreachable", "not referenced by the index");
  if (damaged_ && damaged_from_ < file_size_) push(damaged_from_, file_size_ - damaged_from_, "damaged", damaged_label_);
  if (missing_)
    push(file_size_, missing_end_ > file_size_ ? missing_end_ - file_size_ : 0, "missing", missing_label_);

  // Regions are in offset order and do not overlap: the holder is the last one starting at or
  // before the offset, if the offset falls inside it (past the end: the last region).
  for (size_t p = 0; p < map.problems.size() && !map.regions.empty(); ++p) {
    uint64_t offset = map.problems[p].offset;
    size_t r = map.regions.size() - 1;
    auto after = std::upper_bound(map.regions.begin(), map.regions.end(), offset,
                                  [](uint64_t value, const MapRegion& region) { return value < region.offset; });
    if (after != map.regions.begin()) {
      const MapRegion& holder = *(after - 1);
      if (offset < holder.offset + holder.length) r = static_cast<size_t>(after - 1 - map.regions.begin());
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
