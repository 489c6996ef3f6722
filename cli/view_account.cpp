#include "view_account.h"

#include <cstdio>

namespace logscope::cli {

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
