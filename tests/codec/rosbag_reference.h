// The views' independent side on the real bags: a script of tests/reference run by Debian's
// python3 (python3-rosbag) over every sample bag, its JSON keyed by each bag's path.
#pragma once

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "protobuf_support.h"
#include "test_support.h"

namespace rosbag_reference {

// Every .bag under ../shared/samples/rosbag, in name order.
inline std::vector<std::string> sample_bags() {
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(test_support::sample("rosbag")))
    if (entry.is_regular_file() && entry.path().extension() == ".bag") paths.push_back(entry.path().string());
  std::sort(paths.begin(), paths.end());
  return paths;
}

// tests/reference/SCRIPT's reading of the bags: {path: {... or "error"}}.
inline logscope::Json read(const std::string& script, const std::vector<std::string>& paths) {
  std::string command = "/usr/bin/python3 '" + std::string(LOGSCOPE_SOURCE_DIR) + "/tests/reference/" + script + "'";
  for (const std::string& p : paths) command += " '" + p + "'";
  int status = -1;
  std::string out = protobuf_support::run(command, "", &status);
  REQUIRE_MESSAGE(status == 0, "python3-rosbag (/usr/bin/python3, Debian's python3-rosbag) did not run " << script);
  std::optional<logscope::Json> reference = logscope::Json::parse(out);
  REQUIRE_MESSAGE(reference, script << " did not print JSON");
  return std::move(*reference);
}

}  // namespace rosbag_reference
