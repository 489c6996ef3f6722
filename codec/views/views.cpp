#include "views/views.h"

#include "views/robot_log.h"
#include "views/transforms.h"

namespace logscope::views {

void add_view_queries(std::vector<QuerySpec>& list, MessageSource* source) {
  if (!source) return;
  list.push_back(robot_log_query(*source));
  list.push_back(transforms_query(*source));
}

}  // namespace logscope::views
