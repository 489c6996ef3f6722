// Compressed video frames (foxglove.CompressedVideo's `data`, one frame a message), read from the
// bitstream itself, never from metadata: whether a frame is a keyframe (a decoder can start
// there) and the WebCodecs codec string to configure a decoder with.
//
// - h264: Annex B (start codes). A keyframe holds an IDR slice (NAL type 5). The codec string is
//   "avc1.PPCCLL" from the SPS (NAL type 7): profile_idc, the constraint flags byte, level_idc.
// - h265: Annex B. A keyframe holds an IRAP slice (NAL types 16 to 23: BLA, IDR, CRA). The codec
//   string "hev1.P.C.TL.B" is from the SPS's profile_tier_level (emulation prevention removed).
// - vp9: the uncompressed header's frame_type (0: KEY_FRAME), show_existing_frame 0. The codec
//   string "vp09.PP.41.DD": the profile and bit depth from the header, level 4.1 (a VP9 frame
//   does not carry its level).
// - av1: OBUs (low overhead format). A keyframe holds a sequence header OBU and a frame (or frame
//   header) OBU whose header says KEY_FRAME (show_existing_frame 0, frame_type 0; or
//   reduced_still_picture_header). The codec string "av01.P.LLT.08" from the sequence header's
//   profile, first operating point's level and tier (bit depth 10 for high_bitdepth is not read:
//   08, unless profile 2).
//
// Every length is checked against the bytes that remain; a damaged stream says where (byte offset)
// and why.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace logscope::views {

enum class VideoCodec { Unknown, H264, H265, Vp9, Av1 };

// The codec a CompressedVideo `format` names ("h264", "h265", "vp9", "av1"; case as written).
VideoCodec video_codec(std::string_view format);
const char* video_codec_name(VideoCodec codec);

struct VideoFrameInfo {
  bool ok = false;
  bool key = false;
  std::string codec_string;  // when the frame carries what it is made of (an SPS, a sequence header)
  std::string code, message; // !ok: a stable "image.video.what" code and a sentence with the byte offset
};

VideoFrameInfo inspect_video_frame(VideoCodec codec, std::string_view data);

// --- Pieces, for the tests and the fuzz harness ---

// The NAL units of an Annex B stream: offset and size of each unit's bytes (after its start code).
// False with `error` when the data does not start with a start code or a unit is empty.
struct NalUnit {
  uint64_t offset = 0, size = 0;
};
bool annexb_units(std::string_view data, std::vector<NalUnit>& units, std::string& error);

// An H.264 SPS's codec string ("avc1.64001f"), or "" when the unit is shorter than it needs.
std::string h264_codec_string(std::string_view sps);

}  // namespace logscope::views
