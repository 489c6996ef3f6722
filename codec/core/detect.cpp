#include "core/detect.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string_view>
#include <vector>

#include "core/format_table.h"
#include "core/report.h"

namespace logscope {

Json Detection::to_json() const {
  Json j = Json::object();
  j["family"] = family;
  j["version"] = version;
  j["label"] = label;
  j["kind"] = kind;
  j["diagnosis"] = diagnosis;
  j["first_bytes_hex"] = first_bytes_hex;
  return j;
}

bool Detection::known() const { return find_format(family) != nullptr; }

namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && text.substr(0, prefix.size()) == prefix;
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

Detection known(const FormatEntry& entry, FormatEntry::Match match) {
  Detection d;
  d.family = entry.name;
  d.version = std::move(match.version);
  d.label = std::move(match.label);
  d.kind = entry.name;
  return d;
}

Detection unknown(std::string kind, std::string diagnosis) {
  Detection d;
  d.family = "unknown";
  d.label = "Unknown format";
  d.kind = std::move(kind);
  d.diagnosis = std::move(diagnosis);
  return d;
}

Detection classify(std::string_view head, uint64_t file_size) {
  if (file_size == 0) return unknown("empty", "The file is empty (0 bytes). It may still be being written, or a download or copy failed.");

  for (const FormatEntry& entry : formats())
    if (auto match = entry.match(head, file_size)) return known(entry, std::move(*match));
  // A known format whose file ends inside its magic, or of a version logscope does not know.
  for (const FormatEntry& entry : formats())
    if (entry.near_miss)
      if (auto miss = entry.near_miss(head, file_size)) return unknown(std::move(miss->kind), std::move(miss->diagnosis));

  const auto* bytes = reinterpret_cast<const uint8_t*>(head.data());
  if (head.size() >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b)
    return unknown("gzip", "This is a gzip-compressed file, not a log. Decompress it first (gunzip FILE) and open the result.");
  if (starts_with(head, "BZh") && head.size() >= 4 && head[3] >= '1' && head[3] <= '9')
    return unknown("bzip2", "This is a bzip2-compressed file, not a log. Decompress it first (bunzip2 FILE) and open the result.");
  if (head.size() >= 4 && bytes[0] == 0x28 && bytes[1] == 0xb5 && bytes[2] == 0x2f && bytes[3] == 0xfd)
    return unknown("zstd", "This is a zstd-compressed file, not a log. Decompress it first (zstd -d FILE) and open the result. Spot data pages can be stored zstd-compressed.");
  if (starts_with(head, std::string_view("PK\x03\x04", 4)) || starts_with(head, std::string_view("PK\x05\x06", 4)))
    return unknown("zip", "This is a zip archive. Extract it first (unzip FILE) and open the log inside.");
  if (starts_with(head, std::string_view("\xfd" "7zXZ\x00", 6)))
    return unknown("xz", "This is an xz-compressed file, not a log. Decompress it first (unxz FILE) and open the result.");
  if (starts_with(head, "version https://git-lfs.github.com/spec/"))
    return unknown("lfs-pointer", "This is a Git LFS pointer, not the file itself: the repository stores only a reference. Run `git lfs pull` (or download the file through the LFS link) and open the real file.");

  std::string start = lower(head.substr(0, std::min<size_t>(head.size(), 512)));
  size_t first = start.find_first_not_of(" \t\r\n\xef\xbb\xbf");
  std::string_view trimmed = first == std::string::npos ? std::string_view() : std::string_view(start).substr(first);
  if (starts_with(trimmed, "<!doctype html") || starts_with(trimmed, "<html") ||
      (starts_with(trimmed, "<") && start.find("<html") != std::string::npos))
    return unknown("html", "This is an HTML page, not a log. A download link often returns a web page (a login or an error page) instead of the file: download the raw file and try again.");

  bool printable = std::all_of(head.begin(), head.end(), [](unsigned char c) { return c >= 0x20 || c == '\n' || c == '\r' || c == '\t'; });
  if (printable)
    return unknown("text", "This is a text file, not one of the log formats logscope reads (" + format_labels() + ").");
  return unknown("unknown", "This is not a format logscope recognises (" + format_labels() + ").");
}

}  // namespace

Detection detect(ByteSource& source) {
  uint64_t file_size = source.size();
  std::vector<uint8_t> head = source.read_vector(0, 512);
  std::string_view view(reinterpret_cast<const char*>(head.data()), head.size());
  Detection d = classify(view, file_size);
  d.first_bytes_hex = hex_string(head.data(), std::min<size_t>(head.size(), 16));
  if (d.kind == "unknown" || d.kind == "text") d.diagnosis += " First bytes: " + d.first_bytes_hex + ".";
  return d;
}

}  // namespace logscope
