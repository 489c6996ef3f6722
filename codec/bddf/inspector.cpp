// The BDDF FormatInspector: opens the index, then hands each question to its piece (summary.h,
// doctor.h, checksum.h, queries.h; the tree in tree.cpp, the map in file_map.cpp).
#include "bddf/inspector.h"

#include "bddf/checksum.h"
#include "bddf/inspector_impl.h"
#include "bddf/reader.h"
#include "bddf/summary.h"

namespace logscope::bddf {

BddfInspector::BddfInspector(ByteSource& source) : source_(source), model_(open_file_model(source)) {}

Report BddfInspector::summary() { return summary_report(model_); }

Report BddfInspector::check(const ProgressFn& progress) { return run_doctor(source_, model_, progress); }

std::string BddfInspector::info_text(const InfoOptions& options) { return bddf::info_text(model_, options); }

Json BddfInspector::checksum(const ProgressFn& progress) { return compute_checksum(source_, model_, progress); }
std::unique_ptr<ByteFeed> BddfInspector::checksum_feed() {
  auto pass = std::make_unique<ChecksumPass>(model_);
  if (!pass->hashing()) return nullptr;
  return pass;
}

std::unique_ptr<FormatInspector> open_inspector(ByteSource& source) {
  return std::make_unique<BddfInspector>(source);
}

const FileModel* file_model(const FormatInspector& inspector) {
  auto* bddf = dynamic_cast<const BddfInspector*>(&inspector);
  return bddf ? &bddf->model() : nullptr;
}

}  // namespace logscope::bddf
