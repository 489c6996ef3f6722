// `--descriptors FILE` and `--proto-path DIR`: the message schemas a user gives for protobuf
// payloads (BDDF's series today; codec/protobuf), and `--msg-path DIR` and `--definitions-from
// FILE`: ROS 2 message definitions for CDR payloads of logs that store none (codec/cdr/
// type_library.h). Taken by the commands that show, export or convert data.
#pragma once

#include <string>
#include <vector>

#include "command.h"

namespace logscope::cli {

// The flags, each taking a value: add them to a command's valued flags.
std::vector<std::string> schema_flags();
// Loads the schemas the flags name (if any) and hands them to the file's inspector. False with
// `error` when a flag's file or folder cannot be loaded; load warnings go to stderr.
bool apply_schema_flags(const Arguments& args, OpenFile& file, std::string* error);
// Lines for a command's --help.
std::string schema_flags_help();
std::string definition_flags_help();

}  // namespace logscope::cli
