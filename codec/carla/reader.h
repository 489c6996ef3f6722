// Reading a CARLA log: the forward scan that fills the model (model.h) in one pass (reader.cpp),
// and the problem log it (and the doctor) collect problems in.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "carla/model.h"
#include "core/byte_source.h"
#include "core/report.h"

namespace logscope::carla {

// Keeps at most `per_code` problems of each code and summarises the rest.
class ProblemLog {
 public:
  explicit ProblemLog(size_t per_code = 20) : per_code_(per_code) {}
  void add(Severity severity, uint64_t offset, const std::string& code, const std::string& message);
  // The kept problems plus one note per code that overflowed.
  std::vector<Problem> finish() const;

 private:
  size_t per_code_;
  std::vector<Problem> problems_;
  std::map<std::string, uint64_t> counts_;
};

class ScanRider;

// Reads the whole file once. `progress` may cancel (recovery.reason = "cancelled"). A `rider`
// (scanner.h) sees every packet too.
ScanResult scan_log(ByteSource& source, const ProgressFn& progress, ScanRider* rider = nullptr);

// Parses the info header; false (with a problem) when it is not a whole CARLA header.
bool read_header(ByteSource& source, LogHeader* header, Problem* problem);

}  // namespace logscope::carla
