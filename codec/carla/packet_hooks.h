// What a packet table entry's text and check hooks are given: the show_recorder_file_info
// printer (driven by info_text.cpp) and the doctor's actor book (doctor.cpp).
#pragma once

#include <cstdint>
#include "core/text_out.h"
#include <string>

#include "carla/format.h"

namespace logscope::carla {

// CARLA reworded two show_all lines over time; the text follows the release the file comes from.
enum class InfoWording {
  Carla095,   // 0.9.5-0.9.9 (no id >= 10): "Location (x, y, z) Rotation (r, p, y)"
  Carla0910,  // 0.9.10-0.9.14 (ids 10-20, no 21-23): "Location: (...) Rotation (...)", "Brake b"
  Carla0915,  // 0.9.15 and later, dev, UE5 (PR #6628): "Location: (...) Rotation: (...)", "Brake: b"
};

// show_recorder_file_info as it is printed, packet by packet (info_text.cpp drives it). Numbers
// go through TextOut, formatted as std::ostream formats them with CARLA's defaults, so they
// print as CARLA prints them.
class InfoText {
 public:
  InfoText(TextOut& out, bool show_all, InfoWording wording) : out(out), show_all_(show_all), wording_(wording) {}
  TextOut& out;
  InfoWording wording() const { return wording_; }

  // The "Frame N at T seconds" line, printed once per frame, before the frame's first line.
  void frame() {
    if (frame_printed_) return;
    out << "Frame " << frame_id_ << " at " << frame_elapsed_ << " seconds\n";
    frame_printed_ = true;
  }
  // The frame line when the packet declares records (what CARLA does for each list packet).
  void frame_if_records() {
    if (total_) frame();
  }
  // frame_if_records(), then " <title>: <declared total>".
  void count(const char* title) {
    frame_if_records();
    out << " " << title << ": " << total_ << text::endl;
  }
  void vec(const Vec3& v) { out << "(" << v.x << ", " << v.y << ", " << v.z << ")"; }
  // FrameStart: a new frame begins; show_all prints its line even when nothing follows.
  void start_frame() {
    frame_printed_ = false;
    if (show_all_) frame();
  }

  // Set by the driver before each packet.
  void at(uint64_t frame_id, double frame_elapsed, uint32_t total) {
    frame_id_ = frame_id, frame_elapsed_ = frame_elapsed, total_ = total;
  }

 private:
  bool show_all_;
  InfoWording wording_;
  uint64_t frame_id_ = 0;
  double frame_elapsed_ = 0;
  uint32_t total_ = 0;
  bool frame_printed_ = false;
};

// The doctor's view of actor lives (doctor.cpp): what a packet's check hook may say.
class ActorCheck {
 public:
  virtual ~ActorCheck() = default;
  virtual void created(uint32_t id, const std::string& blueprint) = 0;  // warns when it still exists
  virtual void destroyed(uint32_t id) = 0;  // warns when it never existed or is already gone
  virtual bool known(uint32_t id) const = 0;  // created at some point before
  virtual void not_an_actor() = 0;  // a collision side that is static geometry (0xFFFFFFFF)
  virtual void warn(const char* code, const std::string& message) = 0;
  virtual std::string in_frame() const = 0;  // " in frame N", for messages
};

}  // namespace logscope::carla
