// Every view's queries, added to a format's query table by one line (docs/views.md):
//   views::add_view_queries(list, message_source());
#pragma once

#include <vector>

#include "core/message_source.h"
#include "core/query.h"

namespace logscope::views {

// Adds robot_log (and every later view's query) over `source`; nothing when it is null.
void add_view_queries(std::vector<QuerySpec>& list, MessageSource* source);

}  // namespace logscope::views
