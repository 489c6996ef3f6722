#include "ulog/doctor.h"

#include "ulog/reader.h"
#include "ulog/summary.h"

namespace logscope::ulog {

Report run_doctor(ByteSource& source, const ProgressFn& progress) {
  FileModel model;
  open_file(source, &model, progress);
  Report report = summary_report(model);
  uint64_t backwards = 0, bad_size = 0;
  for (const Subscription& s : model.subscriptions) backwards += s.backwards, bad_size += s.bad_size;
  report.facts.set("time_backwards", backwards, Unit::Count);
  report.facts.set("size_mismatches", bad_size, Unit::Count);
  return report;
}

}  // namespace logscope::ulog
