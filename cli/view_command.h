// What every view's command (log, frames, diag, tf, scan) does the same way: open its one FILE
// with a message source and the schema flags applied, read its time flags, take the query's
// failures, and print what the answer says of its reading.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "command.h"
#include "core/json.h"

namespace logscope {
class MessageSource;
}

namespace logscope::cli {

// The command's own flags that take a value, and the schema flags.
std::vector<std::string> view_flags(std::vector<std::string> own);

// The one FILE, opened, carrying messages, with the schema flags applied; null after saying why,
// with `*exit` the status to return. `noun` says what is read ("transforms", "camera frames").
std::unique_ptr<OpenFile> open_view_file(const Arguments& args, const char* command, const char* noun, int* exit);

// The file's message source (open_view_file checked there is one).
MessageSource& view_source(OpenFile& file);

// A time flag's value (+12.5 after the start, or absolute like 1700000000.25) in ns; false, with
// `*error` set, when it is not one.
bool view_time(const Arguments& args, const char* flag, OpenFile& file, uint64_t* ns, std::string* error);

// Why a query's answer is no answer: the remote file failed, the query's error, or cancelled; "".
std::string view_answer_failure(const Json& answer, const OpenFile& file);

// A time in ns (decimal text, as answers give them) as seconds with 9 decimals; "-" when missing.
std::string seconds_text(const Json* ns_text);

// The answer's findings (diagnostics, transforms): severity, code, message and time.
void print_findings(const Json& answer);

// To stderr; `noun` names the messages ("log", "transform", "scan"): topics without a schema,
// messages that did not decode, where reading stopped (codec/views/view_support.h add_walk_account).
void print_walk_account(const Json& answer, const char* noun);

}  // namespace logscope::cli
