#!/usr/bin/python3
"""The CompressedVideo reference (tests/web/video.test.mjs, tests/codec/test_frames_video.cpp):
an H.264 stream made by Debian's ffmpeg (testsrc, libx264, a keyframe every GOP frames, no B
frames, so decode order is display order), what ffmpeg decodes of it (one PNG a frame) and which
frames ffprobe calls keyframes. Nothing here is logscope's.

usage:
  video_reference.py make DIR [FRAMES [GOP [WxH]]]
      Writes DIR/stream.h264 (Annex B), DIR/frame_NNN.png (the decoded frames, from 000) and
      DIR/reference.json: {"frames", "gop", "width", "height", "keyframes": [index...]}.
      Exit 77 with the reason on stderr when ffmpeg or its libx264 is missing.
"""
import json
import os
import shutil
import subprocess
import sys


def run(args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def make(folder, frames=12, gop=5, size="96x64"):
    if not shutil.which("ffmpeg") or not shutil.which("ffprobe"):
        sys.stderr.write("ffmpeg is missing (Debian's ffmpeg package)\n")
        sys.exit(77)
    if "libx264" not in run(["ffmpeg", "-hide_banner", "-encoders"]):
        sys.stderr.write("ffmpeg has no libx264 encoder\n")
        sys.exit(77)
    os.makedirs(folder, exist_ok=True)
    stream = os.path.join(folder, "stream.h264")
    run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", f"testsrc=size={size}:rate=10",
         "-frames:v", str(frames), "-c:v", "libx264", "-pix_fmt", "yuv420p", "-bf", "0", "-g", str(gop),
         "-x264-params", f"keyint={gop}:min-keyint={gop}:scenecut=0", "-bsf:v", "h264_mp4toannexb", "-f", "h264", stream])
    run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", stream, "-start_number", "0",
         os.path.join(folder, "frame_%03d.png")])
    probe = json.loads(run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=key_frame",
                            "-of", "json", stream]))
    keys = [i for i, f in enumerate(probe["frames"]) if f.get("key_frame") == 1]
    width, height = (int(v) for v in size.split("x"))
    with open(os.path.join(folder, "reference.json"), "w") as f:
        json.dump({"frames": len(probe["frames"]), "gop": gop, "width": width, "height": height, "keyframes": keys}, f)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "make":
        rest = sys.argv[3:]
        make(sys.argv[2], *([int(rest[0])] if rest else []), *([int(rest[1])] if len(rest) > 1 else []),
             *([rest[2]] if len(rest) > 2 else []))
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)
