// Packet table, frame family: the packets that frame the others and carry clocks.
#pragma once

#include "carla/packet_table.h"

namespace logscope::carla {

struct FrameStartRecord {
  uint64_t id = 0;
  double duration = 0;  // back-patched when the next frame starts; -1 in the last frame
  double elapsed = 0;
};
struct NoFields {};
struct TimeRecord {
  double seconds = 0;
};
struct CounterRecord {
  uint64_t counter = 0;
};

namespace packets {

inline constexpr auto FrameStart =
    single<FrameStartRecord>("FrameStart", same_id(0), Release::k0_9_5, 24)
        .layout([](auto& io, auto& r) { io.u64(r.id), io.f64(r.duration), io.f64(r.elapsed); })
        .json([](Json& j, const FrameStartRecord& r) {
          j["frame"] = r.id;
          j["duration"] = r.duration;
          j["elapsed"] = r.elapsed;
        })
        .text_always([](InfoText& t, const FrameStartRecord&) { t.start_frame(); });

inline constexpr auto FrameEnd = single<NoFields>("FrameEnd", same_id(1), Release::k0_9_5, 0).layout([](auto&, auto&) {});

// Wall-clock seconds since the recorder started (additional_data).
inline constexpr auto PlatformTime =
    single<TimeRecord>("PlatformTime", same_id(14), Release::k0_9_10, 8)
        .layout([](auto& io, auto& r) { io.f64(r.seconds); })
        .json([](Json& j, const TimeRecord& r) { j["time"] = r.seconds; })
        .text([](InfoText& t, const TimeRecord& r) {
          t.frame();
          t.out << " Current platform time: " << r.seconds << text::endl;
        });

// Defined, but no CARLA release writes it.
inline constexpr auto FrameCounter = single<CounterRecord>("FrameCounter", same_id(18), Release::k0_9_14, 8)
                                     .layout([](auto& io, auto& r) { io.u64(r.counter); })
                                     .json([](Json& j, const CounterRecord& r) { j["counter"] = r.counter; });

// Episode visual game time, right after FrameStart. CARLA's info text skips it.
inline constexpr auto VisualTime = single<TimeRecord>("VisualTime", same_id(20), Release::k0_9_14, 8)
                                   .layout([](auto& io, auto& r) { io.f64(r.seconds); })
                                   .json([](Json& j, const TimeRecord& r) { j["time"] = r.seconds; });

inline constexpr const PacketType* kFrameFamily[] = {&FrameStart, &FrameEnd, &PlatformTime, &FrameCounter, &VisualTime};

}  // namespace packets
}  // namespace logscope::carla
