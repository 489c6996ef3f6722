// The ULog FormatInspector: one streamed pass on open (reader.h); the summary, info text and check
// come from the model; walks from the sparse checkpoints serve the tree, decode and the queries.
#include "ulog/inspector.h"

#include <algorithm>

#include "core/node_id.h"
#include "ulog/doctor.h"
#include "ulog/inspector_impl.h"
#include "ulog/summary.h"

namespace logscope::ulog {

std::unique_ptr<FormatInspector> open_inspector(ByteSource& source) { return std::make_unique<UlogInspector>(source); }

const FileModel* file_model(FormatInspector& inspector) {
  auto* u = dynamic_cast<UlogInspector*>(&inspector);
  return u ? &u->model() : nullptr;
}

UlogInspector::UlogInspector(ByteSource& source) : source_(source) { open_file(source_, &model_); }

Report UlogInspector::summary() { return summary_report(model_); }

Report UlogInspector::check(const ProgressFn& progress) { return run_doctor(source_, progress); }

std::string UlogInspector::info_text(const InfoOptions& options) { return ulog::info_text(model_, options.all); }

Json UlogInspector::checksum(const ProgressFn&) {
  Json j = Json::object();
  j["status"] = "none";
  j["message"] = "ULog files carry no checksum";
  return j;
}

void UlogInspector::walk_from(uint64_t first, const MessageFn& fn) {
  const std::vector<Checkpoint>& cps = model_.checkpoints;
  if (cps.empty() || first >= model_.messages) return;
  auto it = std::upper_bound(cps.begin(), cps.end(), first, [](uint64_t v, const Checkpoint& c) { return v < c.index; });
  size_t k = static_cast<size_t>(it - cps.begin()) - 1;
  uint64_t index = cps[k].index;
  for (size_t s = cps[k].section; s < model_.sections.size(); ++s) {
    const Section& section = model_.sections[s];
    MessageWalker walker(source_, s == cps[k].section ? cps[k].offset : section.begin, section.walked_to);
    RawMessage msg;
    while (walker.next(&msg)) {
      if (index >= first && !fn(index, msg)) return;
      ++index;
    }
  }
}

std::optional<uint64_t> UlogInspector::message_at(uint64_t offset) {
  const std::vector<Checkpoint>& cps = model_.checkpoints;
  auto it = std::upper_bound(cps.begin(), cps.end(), offset, [](uint64_t v, const Checkpoint& c) { return v < c.offset; });
  if (it == cps.begin()) return std::nullopt;
  const Checkpoint& cp = *(it - 1);
  std::optional<uint64_t> found;
  walk_from(cp.index, [&](uint64_t index, const RawMessage& msg) {
    if (msg.offset > offset) return false;
    if (offset < msg.end()) {
      found = index;
      return false;
    }
    return true;
  });
  return found;
}

const Subscription* UlogInspector::subscription_for(uint16_t msg_id, uint64_t offset) const {
  const Subscription* best = nullptr;
  for (const Subscription& s : model_.subscriptions)
    if (s.msg_id == msg_id && s.offset < offset) best = &s;
  return best;
}

bool UlogInspector::parse_source(const std::string& source, std::string* topic, uint8_t* multi_id, std::string* error) const {
  *topic = source;
  *multi_id = 0;
  size_t colon = source.rfind(':');
  if (colon != std::string::npos) {
    std::optional<uint64_t> n = parse_decimal(source.substr(colon + 1));
    if (!n || *n > 255) {
      *error = "\"" + source + "\": the multi_id after ':' is a number from 0 to 255";
      return false;
    }
    *topic = source.substr(0, colon);
    *multi_id = static_cast<uint8_t>(*n);
  }
  if (!model_.subscription(*topic, *multi_id)) {
    std::string some;
    size_t shown = 0;
    for (const Subscription& s : model_.subscriptions) {
      if (shown++ == 12) {
        some += ", ...";
        break;
      }
      some += (some.empty() ? "" : ", ") + s.name + (s.multi_id ? ":" + std::to_string(s.multi_id) : std::string());
    }
    *error = "no subscription \"" + *topic + "\" with multi_id " + std::to_string(*multi_id) + " (topics: " + some + ")";
    return false;
  }
  return true;
}

}  // namespace logscope::ulog
