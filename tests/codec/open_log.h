// A log file opened as the page and the CLI open it: its bytes, the format detected, and that
// format's inspector (the tests that ask queries of any format's file).
#pragma once

#include <memory>
#include <string>

#include <doctest/doctest.h>

#include "core/byte_source.h"
#include "core/detect.h"
#include "core/inspector.h"
#include "inspector.h"

namespace test_support {

struct OpenedLog {
  std::unique_ptr<logscope::FileByteSource> source;
  std::unique_ptr<logscope::FormatInspector> inspector;
};

inline OpenedLog open_log(const std::string& path) {
  OpenedLog log;
  std::string error;
  log.source = logscope::FileByteSource::open(path, &error);
  REQUIRE_MESSAGE(log.source, path << ": " << error);
  log.inspector = logscope::open_inspector(*log.source, logscope::detect(*log.source));
  REQUIRE_MESSAGE(log.inspector, path << ": no inspector for it");
  return log;
}

}  // namespace test_support
