// Recognising an MCAP file by its first bytes, for detection (core/detect.cpp registers it).
#pragma once

#include <string>
#include <string_view>

namespace logscope::mcap {

// True when `head` (the file's first bytes) starts with the MCAP magic 89 "MCAP" "0" "\r\n", or
// with the magic whose "\r\n" a text-mode copy turned into "\n" (opened, then reported as
// damaged: mcap.file.line_endings).
bool looks_like_mcap(std::string_view head);

// For a file that is not MCAP by looks_like_mcap: a sentence when its bytes are an MCAP magic cut
// short (the whole file is a proper prefix of the magic), else "". `file_size` is the file's size.
std::string diagnose_mcap_head(std::string_view head, unsigned long long file_size);

}  // namespace logscope::mcap
