// ULog's structure tree: the root holds the 16-byte header ("h") and every message in file order
// ("m<N>", numbered over the main section and the appended ones). Messages are found from the
// sparse checkpoints of the pass (model.h), so a page of the tree reads only its own bytes.
#pragma once

#include <string>

namespace logscope::ulog {

constexpr char kHeaderNode[] = "h";
constexpr char kMessageTag = 'm';
// The span kind of a message type, for the hex view's colours.
const char* message_kind(unsigned char type);

}  // namespace logscope::ulog
