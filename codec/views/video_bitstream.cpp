// Keyframes and codec strings from compressed video bitstreams (video_bitstream.h).
#include "views/video_bitstream.h"

#include <cctype>
#include <cstdio>

namespace logscope::views {
namespace {

// Bits, most significant first, over bytes that stay in bounds: past the end, `over` is set and
// every read gives 0.
struct BitReader {
  std::string_view data;
  uint64_t bit = 0;
  bool over = false;
  uint32_t read(int count) {
    uint32_t value = 0;
    for (int i = 0; i < count; ++i) {
      if (bit >= uint64_t(data.size()) * 8) {
        over = true;
        return 0;
      }
      value = value << 1 | ((uint8_t(data[bit / 8]) >> (7 - bit % 8)) & 1);
      ++bit;
    }
    return value;
  }
  // An unsigned exponential-Golomb number of at most 32 bits (AV1's uvlc).
  uint32_t uvlc() {
    int zeros = 0;
    while (!over && read(1) == 0) ++zeros;
    if (zeros >= 32) return over = true, 0;
    return zeros ? read(zeros) + ((1u << zeros) - 1) : 0;
  }
};

std::string hex2(unsigned v) {
  char text[8];
  std::snprintf(text, sizeof text, "%02x", v & 0xff);
  return text;
}

VideoFrameInfo failure(std::string code, std::string message) {
  VideoFrameInfo info;
  info.code = std::move(code);
  info.message = std::move(message);
  return info;
}

// An H.265 unit's RBSP: the bytes with emulation prevention (00 00 03) removed, at most `limit`.
std::string rbsp(std::string_view unit, size_t limit) {
  std::string out;
  int zeros = 0;
  for (size_t i = 0; i < unit.size() && out.size() < limit; ++i) {
    const uint8_t b = uint8_t(unit[i]);
    if (zeros >= 2 && b == 3) {
      zeros = 0;
      continue;
    }
    zeros = b == 0 ? zeros + 1 : 0;
    out.push_back(char(b));
  }
  return out;
}

std::string h265_codec_string(std::string_view sps) {
  // NAL header (2 bytes), then vps_id(4) max_sub_layers_minus1(3) temporal_id_nesting(1), then
  // profile_tier_level: space(2) tier(1) profile_idc(5), 32 compatibility flags, 6 constraint
  // bytes, level_idc.
  const std::string r = rbsp(sps, 15);
  if (r.size() < 15) return "";
  const uint8_t* p = reinterpret_cast<const uint8_t*>(r.data()) + 3;
  const unsigned space = p[0] >> 6, tier = p[0] >> 5 & 1, profile = p[0] & 31;
  const uint32_t flags = uint32_t(p[1]) << 24 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 8 | p[4];
  uint32_t reversed = 0;
  for (int j = 0; j < 32; ++j) reversed |= ((flags >> (31 - j)) & 1u) << j;
  char text[32];
  std::snprintf(text, sizeof text, "%X", reversed);
  std::string out = "hev1.";
  if (space) out += char('A' + space - 1);
  out += std::to_string(profile) + "." + text + "." + (tier ? "H" : "L") + std::to_string(p[11]);
  int last = 5;
  while (last >= 0 && p[5 + last] == 0) --last;
  for (int i = 0; i <= last; ++i) {
    std::snprintf(text, sizeof text, "%X", p[5 + i]);
    out += std::string(".") + text;
  }
  return out;
}

std::string place(uint64_t offset) { return "at byte " + std::to_string(offset) + " of the frame"; }

VideoFrameInfo inspect_annexb(VideoCodec codec, std::string_view data) {
  std::vector<NalUnit> units;
  std::string error;
  if (!annexb_units(data, units, error)) return failure("image.video.nal", error);
  VideoFrameInfo info;
  info.ok = true;
  for (const NalUnit& u : units) {
    const std::string_view unit = data.substr(u.offset, u.size);
    if (uint8_t(unit[0]) & 0x80)
      return failure("image.video.nal", "a NAL unit " + place(u.offset) + " has its forbidden_zero_bit set: the stream is damaged");
    if (codec == VideoCodec::H264) {
      const unsigned type = uint8_t(unit[0]) & 31;
      if (type == 5) info.key = true;
      if (type == 7) {
        info.codec_string = h264_codec_string(unit);
        if (info.codec_string.empty())
          return failure("image.video.sps", "the SPS " + place(u.offset) + " holds " + std::to_string(u.size) + " bytes, fewer than the 4 it needs: it is cut");
      }
    } else {
      if (unit.size() < 2) return failure("image.video.nal", "the NAL unit " + place(u.offset) + " is shorter than its 2-byte header: it is cut");
      const unsigned type = uint8_t(unit[0]) >> 1 & 63;
      if (type >= 16 && type <= 23) info.key = true;
      if (type == 33) {
        info.codec_string = h265_codec_string(unit);
        if (info.codec_string.empty())
          return failure("image.video.sps", "the SPS " + place(u.offset) + " ends before its profile_tier_level: it is cut");
      }
    }
  }
  return info;
}

VideoFrameInfo inspect_vp9(std::string_view data) {
  BitReader bits{data};
  if (bits.read(2) != 2 || bits.over) return failure("image.video.vp9", "the frame does not start with VP9's frame marker (binary 10) at byte 0");
  const unsigned low = bits.read(1), high = bits.read(1), profile = high << 1 | low;
  if (profile == 3) bits.read(1);
  VideoFrameInfo info;
  info.ok = true;
  unsigned depth = 8;
  if (bits.read(1) == 0) {        // show_existing_frame
    info.key = bits.read(1) == 0;  // frame_type
    bits.read(2);                  // show_frame, error_resilient_mode
    if (info.key) {
      if (bits.read(24) != 0x498342) return failure("image.video.vp9", "the keyframe's sync code (49 83 42) is missing at byte 1: the frame is damaged");
      if (profile >= 2) depth = bits.read(1) ? 12 : 10;
    }
  }
  if (bits.over) return failure("image.video.vp9", "the frame's header is cut: the frame holds " + std::to_string(data.size()) + " bytes");
  if (info.key) info.codec_string = "vp09.0" + std::to_string(profile) + ".41." + (depth < 10 ? "0" : "") + std::to_string(depth);
  return info;
}

// leb128 as AV1 writes it (at most 8 bytes); false when it runs past the data.
bool leb128(std::string_view data, uint64_t& at, uint64_t& value) {
  value = 0;
  for (int i = 0; i < 8; ++i) {
    if (at >= data.size()) return false;
    const uint8_t b = uint8_t(data[at++]);
    value |= uint64_t(b & 0x7f) << (7 * i);
    if (!(b & 0x80)) return true;
  }
  return false;
}

VideoFrameInfo inspect_av1(std::string_view data) {
  VideoFrameInfo info;
  info.ok = true;
  bool sequence = false, reduced = false;
  uint64_t at = 0;
  while (at < data.size()) {
    const uint64_t start = at;
    const uint8_t header = uint8_t(data[at++]);
    if (header & 0x80) return failure("image.video.obu", "the OBU " + place(start) + " has its forbidden bit set: the stream is damaged");
    const unsigned type = header >> 3 & 15;
    if (header & 4) ++at;  // the extension byte
    uint64_t size = 0;
    if (header & 2) {
      if (!leb128(data, at, size)) return failure("image.video.obu", "the OBU " + place(start) + " has its size cut");
    } else {
      size = at <= data.size() ? data.size() - at : 0;
    }
    if (at > data.size() || size > data.size() - at)
      return failure("image.video.obu", "the OBU " + place(start) + " says " + std::to_string(size) + " bytes, but " +
                                            std::to_string(at > data.size() ? 0 : data.size() - at) + " remain: it is cut");
    BitReader bits{data.substr(at, size)};
    if (type == 1) {  // sequence header
      const unsigned profile = bits.read(3);
      bits.read(1);  // still_picture
      reduced = bits.read(1);
      unsigned level = 0, tier = 0;
      if (reduced) {
        level = bits.read(5);
      } else {
        bool decoder_model = false;
        if (bits.read(1)) {  // timing_info_present_flag
          bits.read(32);
          bits.read(32);
          if (bits.read(1)) bits.uvlc();
          decoder_model = bits.read(1);
          if (decoder_model) bits.read(5 + 32 + 5 + 5);
        }
        bits.read(1);  // initial_display_delay_present_flag
        bits.read(5);  // operating_points_cnt_minus_1
        bits.read(12);
        level = bits.read(5);
        if (level > 7) tier = bits.read(1);
      }
      if (bits.over) return failure("image.video.obu", "the sequence header " + place(start) + " is cut");
      sequence = true;
      info.codec_string = "av01." + std::to_string(profile) + "." + (level < 10 ? "0" : "") + std::to_string(level) +
                          (tier ? "H" : "M") + (profile == 2 ? ".10" : ".08");
    } else if (type == 3 || type == 6) {  // frame header, frame
      bool key = reduced;
      if (!reduced && bits.read(1) == 0) key = bits.read(2) == 0;
      if (bits.over) return failure("image.video.obu", "the frame header " + place(start) + " is cut");
      if (key && sequence) info.key = true;
    }
    at += size;
  }
  return info;
}

}  // namespace

VideoCodec video_codec(std::string_view format) {
  std::string f;
  for (char c : format) f.push_back(char(std::tolower(static_cast<unsigned char>(c))));
  if (f == "h264" || f == "avc") return VideoCodec::H264;
  if (f == "h265" || f == "hevc") return VideoCodec::H265;
  if (f == "vp9") return VideoCodec::Vp9;
  if (f == "av1") return VideoCodec::Av1;
  return VideoCodec::Unknown;
}

const char* video_codec_name(VideoCodec codec) {
  switch (codec) {
    case VideoCodec::H264: return "h264";
    case VideoCodec::H265: return "h265";
    case VideoCodec::Vp9: return "vp9";
    case VideoCodec::Av1: return "av1";
    case VideoCodec::Unknown: break;
  }
  return "";
}

bool annexb_units(std::string_view data, std::vector<NalUnit>& units, std::string& error) {
  units.clear();
  // A start code: 00 00 01 (a 00 before it belongs to the 4-byte form, not to the unit before).
  auto start_code_at = [&](size_t i) { return i + 2 < data.size() && data[i] == 0 && data[i + 1] == 0 && data[i + 2] == 1; };
  size_t i = 0;
  while (i < data.size() && data[i] == 0 && !start_code_at(i)) ++i;
  if (!start_code_at(i)) {
    error = "the frame does not start with an Annex B start code (00 00 01) at byte " + std::to_string(i) + ": it is not an Annex B stream, or it is damaged";
    return false;
  }
  while (i < data.size()) {
    const size_t begin = i + 3;
    size_t end = begin;
    while (end < data.size() && !start_code_at(end)) ++end;
    size_t last = end;
    if (end < data.size())
      while (last > begin && data[last - 1] == 0) --last;  // trailing zeros and a 4-byte start code's first byte
    if (last == begin) {
      error = "the NAL unit at byte " + std::to_string(begin) + " of the frame is empty: the stream is cut or damaged";
      return false;
    }
    units.push_back({begin, last - begin});
    i = end;
  }
  return true;
}

std::string h264_codec_string(std::string_view sps) {
  if (sps.size() < 4) return "";
  return "avc1." + hex2(uint8_t(sps[1])) + hex2(uint8_t(sps[2])) + hex2(uint8_t(sps[3]));
}

VideoFrameInfo inspect_video_frame(VideoCodec codec, std::string_view data) {
  if (data.empty()) return failure("image.video.empty", "the video frame holds no bytes");
  switch (codec) {
    case VideoCodec::H264:
    case VideoCodec::H265: return inspect_annexb(codec, data);
    case VideoCodec::Vp9: return inspect_vp9(data);
    case VideoCodec::Av1: return inspect_av1(data);
    case VideoCodec::Unknown: break;
  }
  return failure("image.video.codec", "the video format is not one logscope reads (h264, h265, vp9, av1)");
}

}  // namespace logscope::views
