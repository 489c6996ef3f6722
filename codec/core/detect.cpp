#include "core/detect.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string_view>
#include <vector>

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

namespace {

constexpr std::string_view kBddfMagic = "BDDF";
constexpr std::string_view kCarlaMagic = std::string_view("\x0e\x00" "CARLA_RECORDER", 16);

struct KnownHeader {
  std::string_view prefix;
  Format format;
  const char* family;
  const char* version;
  const char* label;
};

const KnownHeader kHeaders[] = {
    {"#ROSBAG V2.0\n", Format::RosbagV20, "rosbag", "2.0", "ROS bag V2.0"},
    {"#ROSRECORD V1.2\n", Format::RosbagV12, "rosbag", "1.2", "ROS bag V1.2"},
    {"#ROSRECORD V1.1\n", Format::RosbagV11, "rosbag", "1.1", "ROS bag V1.1"},
};

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && text.substr(0, prefix.size()) == prefix;
}

// True when `text` is a proper prefix of `full` (the file ends inside the header).
bool is_cut_prefix(std::string_view text, std::string_view full) {
  return !text.empty() && text.size() < full.size() && full.substr(0, text.size()) == text;
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

Detection known(Format format, const char* family, const char* version, const char* label) {
  Detection d;
  d.format = format;
  d.family = family;
  d.version = version;
  d.label = label;
  d.kind = family;
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

  if (starts_with(head, kBddfMagic)) return known(Format::Bddf, "bddf", "", "Boston Dynamics Data Format (BDDF)");
  for (const KnownHeader& h : kHeaders)
    if (starts_with(head, h.prefix)) return known(h.format, h.family, h.version, h.label);
  if (head.size() >= 2 + kCarlaMagic.size() && head.substr(2, kCarlaMagic.size()) == kCarlaMagic)
    return known(Format::Carla, "carla", "", "CARLA recorder log");

  // A known format whose file ends inside the magic or version line.
  if (is_cut_prefix(head, kBddfMagic))
    return unknown("truncated-header", "This looks like a BDDF file cut off inside its 4-byte magic (only " + std::to_string(file_size) + " bytes).");
  for (const KnownHeader& h : kHeaders)
    if (is_cut_prefix(head, h.prefix))
      return unknown("truncated-header", std::string("This looks like a ") + h.label + " file cut off inside its version line (only " + std::to_string(file_size) + " bytes).");
  if (head.size() > 2 && head.size() < 2 + kCarlaMagic.size() && is_cut_prefix(head.substr(2), kCarlaMagic))
    return unknown("truncated-header", "This looks like a CARLA recorder log cut off inside its header (only " + std::to_string(file_size) + " bytes).");
  if (starts_with(head, "#ROSBAG V") || starts_with(head, "#ROSRECORD V")) {
    size_t eol = head.find('\n');
    std::string line(head.substr(0, eol == std::string_view::npos ? std::min<size_t>(head.size(), 24) : eol));
    return unknown("unsupported-version", "This is a ROS bag of a version logscope does not know (\"" + line + "\"). Supported: V1.1, V1.2 and V2.0.");
  }

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
    return unknown("text", "This is a text file, not one of the binary log formats logscope reads (BDDF, ROS bag V1.1/V1.2/V2.0, CARLA recorder log).");
  return unknown("unknown", "This is not a format logscope recognises (BDDF, ROS bag V1.1/V1.2/V2.0, CARLA recorder log).");
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
