// What a view's answer says of its reading (codec/views/view_support.h add_walk_account), printed
// the same way by every view's command: topics without a schema, messages that did not decode,
// where reading stopped.
#pragma once

#include "core/json.h"

namespace logscope::cli {

// To stderr; `noun` names the messages ("log", "transform", "scan").
void print_walk_account(const Json& answer, const char* noun);

}  // namespace logscope::cli
