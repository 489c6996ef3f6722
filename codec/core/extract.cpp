#include "core/extract.h"

#include <cmath>
#include <cstdlib>

namespace logscope {

uint64_t TimeBound::resolve(uint64_t start_ns, uint64_t unset) const {
  if (!set) return unset;
  long double ns = static_cast<long double>(seconds) * 1e9L;
  if (relative) ns += static_cast<long double>(start_ns);
  if (ns <= 0) return 0;
  if (ns >= 1.8e19L) return UINT64_MAX;
  // Rounded as a double, converted unsigned: llround's long long ends at 9.2e18 ns (year 2262).
  return static_cast<uint64_t>(std::round(static_cast<double>(ns)));
}

bool parse_time_bound(const std::string& text, TimeBound* bound, std::string* error) {
  std::string number = text;
  bool relative = !number.empty() && number[0] == '+';
  if (relative) number.erase(0, 1);
  char* end = nullptr;
  double value = number.empty() ? NAN : std::strtod(number.c_str(), &end);
  if (number.empty() || end != number.c_str() + number.size() || !std::isfinite(value) || value < 0) {
    if (error) *error = "\"" + text + "\" is not a time: give seconds from the start (+12.5) or absolute seconds";
    return false;
  }
  *bound = TimeBound{true, relative, value};
  return true;
}

}  // namespace logscope
