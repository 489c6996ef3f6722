// Detection by content, never by file name, with a helpful diagnosis for anything else.
#pragma once

#include <string>

#include "core/byte_source.h"
#include "core/json.h"

namespace logscope {

struct Detection {
  std::string family = "unknown";  // a format's name in the format table (core/format_table.h), or "unknown"
  std::string version;    // the format's version where it has several ("2.0" for a bag); "" otherwise
  std::string label;      // the label of that version, e.g. "ROS bag V2.0"
  // For unknown files: a stable kind ("empty", "html", "lfs-pointer", "gzip", "bzip2", "zstd",
  // "zip", "xz", "truncated-header", "text", "unknown") and a sentence a user can act on.
  std::string kind;
  std::string diagnosis;
  std::string first_bytes_hex;  // up to 16 bytes
  Json to_json() const;
  // A format of the table (core/format_table.h).
  bool known() const;
};

// Tries every format of the table in order; otherwise diagnoses what the file looks like.
Detection detect(ByteSource& source);

}  // namespace logscope
