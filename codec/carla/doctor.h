// The doctor's second pass: references between actors (destroy, parent, position, collision)
// that point at actors the log never created. Its steps are one ActorReferenceCheck, which the
// pulled pass (check_actor_references) and the pushed one (actor_reference_feed) both drive.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "carla/model.h"
#include "carla/packets_frame.h"
#include "carla/walker.h"
#include "core/byte_source.h"
#include "core/inspector.h"
#include "core/report.h"

namespace logscope::carla {

class ActorReferenceCheck {
 public:
  explicit ActorReferenceCheck(const Variant& variant);
  ~ActorReferenceCheck();
  // Whether packets of this id are checked (their payload is needed).
  bool wants(uint8_t id) const;
  // A wanted packet, with its whole payload, in the frame that holds it.
  void packet(const FrameStartRecord& frame, const PacketRef& packet, const uint8_t* payload);
  std::vector<Problem> finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

std::vector<Problem> check_actor_references(ByteSource& source, const ScanResult& scan, const ProgressFn& progress, bool* cancelled);

// The same pass with the log's complete part pushed in: finish() answers `answer(problems)`, or
// {"status": "incomplete"} after an early end. Null when the scan found no header.
std::unique_ptr<ByteFeed> actor_reference_feed(const ScanResult& scan, std::function<Json(std::vector<Problem>&&)> answer);

}  // namespace logscope::carla
