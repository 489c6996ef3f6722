// The BDDF FormatInspector: opens the index, then hands each question to its piece (summary.cpp,
// doctor.cpp, text.cpp, checksum.cpp, tree.cpp, queries.cpp, file_map.cpp).
#include "bddf/inspector.h"

#include "bddf/checksum.h"
#include "bddf/inspector_impl.h"
#include "bddf/reader.h"

namespace logscope::bddf {

BddfInspector::BddfInspector(ByteSource& source) : source_(source), model_(open_file_model(source)) {}

Report BddfInspector::summary() { return build_summary(model_); }

Report BddfInspector::check(const ProgressFn& progress) {
  Report report = build_summary(model_);
  run_doctor(source_, model_, report, progress);
  return report;
}

std::string BddfInspector::info_text(const InfoOptions& options) { return render_info_text(model_, options); }

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
