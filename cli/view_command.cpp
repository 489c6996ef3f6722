#include "view_command.h"

#include <cstdio>

#include "core/export.h"
#include "core/message_source.h"
#include "schema_options.h"

namespace logscope::cli {

std::vector<std::string> view_flags(std::vector<std::string> own) {
  for (const std::string& flag : schema_flags()) own.push_back(flag);
  return own;
}

std::unique_ptr<OpenFile> open_view_file(const Arguments& args, const char* command, const char* noun, int* exit) {
  *exit = kExitUnreadable;
  if (args.positional().size() != 1) {
    *exit = fail(std::string(command) + " takes one FILE (see `logscope " + command + " --help`)");
    return nullptr;
  }
  auto file = open_file(args.positional()[0]);
  if (!file) return nullptr;
  std::string why;
  if (!file->inspector) why = file->path + ": unknown format (" + file->detection.kind + "): " + file->detection.diagnosis;
  else if (!message_source_of(*file->inspector)) why = file->path + ": " + file->detection.label + " carries no messages to read " + noun + " from";
  else apply_schema_flags(args, *file, &why);
  if (!why.empty()) {
    *exit = fail(why);
    return nullptr;
  }
  return file;
}

MessageSource& view_source(OpenFile& file) { return *message_source_of(*file.inspector); }

bool view_time(const Arguments& args, const char* flag, OpenFile& file, uint64_t* ns, std::string* error) {
  Report summary = file.inspector->summary();
  uint64_t start_ns = summary.file.start_ns && *summary.file.start_ns > 0 ? static_cast<uint64_t>(*summary.file.start_ns) : 0;
  if (parse_export_time(args.value(flag), start_ns, ns)) return true;
  *error = std::string(flag) + " needs seconds: +12.5 after the start, or absolute like 1700000000.25";
  return false;
}

std::string view_answer_failure(const Json& answer, const OpenFile& file) {
  if (std::string why = remote_failure(file); !why.empty()) return why;
  if (const Json* error = answer.find("error")) return file.path + ": " + error->as_string();
  if (const Json* cancelled = answer.find("cancelled"); cancelled && cancelled->as_bool()) return file.path + ": cancelled";
  return "";
}

std::string seconds_text(const Json* ns_text) {
  uint64_t ns = 0;
  if (!ns_text || !ns_text->is_string() || !parse_u64(ns_text->as_string(), &ns)) return "-";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%llu.%09llu", static_cast<unsigned long long>(ns / 1000000000u),
                static_cast<unsigned long long>(ns % 1000000000u));
  return buffer;
}

void print_findings(const Json& answer) {
  const Json& findings = *answer.find("findings");
  if (findings.size()) std::printf("findings:\n");
  for (const Json& f : findings.elements())
    std::printf("  %-7s %s  %s%s%s\n", f.find("severity")->as_string().c_str(), f.find("code")->as_string().c_str(),
                f.find("message")->as_string().c_str(), f.find("time_ns")->is_null() ? "" : " at ",
                f.find("time_ns")->is_null() ? "" : seconds_text(f.find("time_ns")).c_str());
}

void print_walk_account(const Json& answer, const char* noun) {
  for (const Json& t : answer.find("topics")->elements())
    if (const Json* note = t.find("note"); note && note->is_string())
      std::fprintf(stderr, "logscope: %s (%s): %s\n", t.find("topic")->as_string().c_str(), t.find("type")->as_string().c_str(),
                   note->as_string().c_str());
  if (uint64_t undecoded = answer.find("undecoded")->as_uint())
    std::fprintf(stderr, "logscope: %llu %s messages did not decode; the first: %s\n", static_cast<unsigned long long>(undecoded), noun,
                 answer.find("problems")->elements().empty() ? "" : answer.find("problems")->elements()[0].find("message")->as_string().c_str());
  for (const char* key : {"stopped", "truncated"})
    if (const Json* why = answer.find(key); why && why->is_string()) std::fprintf(stderr, "logscope: reading stopped: %s\n", why->as_string().c_str());
}

}  // namespace logscope::cli
