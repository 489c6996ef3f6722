// A small CARLA log from our writer, shared by the CARLA tests: frame f (1-based, the last with
// duration -1) holds the event packets every frame has (a hero car added in frame 1), the car's
// position and the platform time; `extra(writer, f)` adds packets to frame f before its time.
// `variant`: the layout the writer writes (UE5's double vectors, 0.9.10's 36-byte wheels).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "carla/writer.h"

namespace carla_test {

inline std::vector<uint8_t> small_log(int frames, const std::function<void(logscope::carla::LogWriter&, int)>& extra = nullptr,
                                      logscope::carla::Variant variant = logscope::carla::Variant()) {
  using namespace logscope::carla;
  LogWriter w(variant);
  w.header(1637671165, "Town02");
  for (int f = 1; f <= frames; ++f) {
    w.frame_start(f, f == frames ? -1.0 : 0.05, (f - 1) * 0.05);
    EventAddRecord car;
    car.id = 5, car.type = 1, car.blueprint = "vehicle.audi.tt", car.attributes = {{3, "role_name", "hero"}};
    w.write(packets::EventAdd, f == 1 ? std::vector<EventAddRecord>{car} : std::vector<EventAddRecord>{});
    w.write(packets::EventDel, {});
    w.write(packets::EventParent, {});
    w.write(packets::Collision, {});
    w.write(packets::Position, {{5, {f * 10.0, 0, 0}, {0, 0, 0}}});
    if (extra) extra(w, f);
    w.write(packets::PlatformTime, {f * 0.05});
    w.frame_end();
  }
  return w.take();
}

}  // namespace carla_test
