#include "views/views.h"

#include "views/diagnostics.h"
#include "views/image_query.h"
#include "views/robot_log.h"
#include "views/scans.h"
#include "views/transforms.h"

namespace logscope::views {

void add_view_queries(std::vector<QuerySpec>& list, MessageSource* source) {
  if (!source) return;
  list.push_back(robot_log_query(*source));
#ifndef LOGSCOPE_VIEW_ONLY
  // Not in the page's view module (the first visit's download): the Transforms, Images, Scans and Diagnostics tabs ask
  // the full module, loaded on first use (web/worker.js fullQuery).
  list.push_back(transforms_query(*source));
  list.push_back(images_query(*source));
  list.push_back(scan_query(*source));
  list.push_back(diagnostics_query(*source));
#endif
}

}  // namespace logscope::views
