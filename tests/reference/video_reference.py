#!/usr/bin/python3
"""The CompressedVideo reference (tests/web/images.test.mjs, tests/codec/test_video.cpp): a
stream made by Debian's ffmpeg (testsrc, a keyframe every GOP frames, no B frames, so decode
order is display order), what ffmpeg decodes of it (one PNG a frame) and which frames ffprobe
calls keyframes. Nothing here is logscope's.

usage:
  video_reference.py make DIR [FRAMES [GOP [WxH [CODEC]]]]
      CODEC: h264 (libx264, the default), h265 (libx265), vp9 (libvpx-vp9) or av1 (libaom-av1).
      Writes DIR/stream.CODEC (H.264 and H.265: Annex B; VP9 and AV1: IVF, a frame a temporal
      unit), DIR/frame_NNN.png (the decoded frames, from 000) and DIR/reference.json:
      {"codec", "stream", "frames", "gop", "width", "height", "keyframes": [index...]}.
      Exit 77 with the reason on stderr when ffmpeg or the codec's encoder is missing.
"""
import json
import os
import shutil
import subprocess
import sys


def run(args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


# Per codec: the encoder, its options for a keyframe every GOP frames and no reordering, and the
# stream's container.
def encoder(codec, gop):
    if codec == "h264":
        return "libx264", ["-bf", "0", "-x264-params", f"keyint={gop}:min-keyint={gop}:scenecut=0",
                           "-bsf:v", "h264_mp4toannexb", "-f", "h264"]
    if codec == "h265":
        return "libx265", ["-x265-params", f"keyint={gop}:min-keyint={gop}:scenecut=0:bframes=0:log-level=error",
                           "-bsf:v", "hevc_mp4toannexb", "-f", "hevc"]
    if codec == "vp9":  # no hidden alt-ref frames: one shown frame an IVF frame
        return "libvpx-vp9", ["-keyint_min", str(gop), "-auto-alt-ref", "0", "-lag-in-frames", "0",
                              "-deadline", "realtime", "-cpu-used", "8", "-f", "ivf"]
    if codec == "av1":
        return "libaom-av1", ["-keyint_min", str(gop), "-lag-in-frames", "0", "-cpu-used", "8",
                              "-usage", "realtime", "-f", "ivf"]
    sys.stderr.write(f"unknown codec {codec}\n")
    sys.exit(2)


def make(folder, frames=12, gop=5, size="96x64", codec="h264"):
    if not shutil.which("ffmpeg") or not shutil.which("ffprobe"):
        sys.stderr.write("ffmpeg is missing (Debian's ffmpeg package)\n")
        sys.exit(77)
    name, options = encoder(codec, gop)
    if f" {name} " not in run(["ffmpeg", "-hide_banner", "-encoders"]):
        sys.stderr.write(f"ffmpeg has no {name} encoder\n")
        sys.exit(77)
    os.makedirs(folder, exist_ok=True)
    stream = os.path.join(folder, f"stream.{codec}")
    run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", f"testsrc=size={size}:rate=10",
         "-frames:v", str(frames), "-c:v", name, "-pix_fmt", "yuv420p", "-g", str(gop), *options, stream])
    run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", stream, "-start_number", "0",
         os.path.join(folder, "frame_%03d.png")])
    probe = json.loads(run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=key_frame",
                            "-of", "json", stream]))
    keys = [i for i, f in enumerate(probe["frames"]) if f.get("key_frame") == 1]
    width, height = (int(v) for v in size.split("x"))
    with open(os.path.join(folder, "reference.json"), "w") as f:
        json.dump({"codec": codec, "stream": stream, "frames": len(probe["frames"]), "gop": gop, "width": width, "height": height, "keyframes": keys}, f)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "make":
        rest = sys.argv[3:]
        make(sys.argv[2], *([int(rest[0])] if rest else []), *([int(rest[1])] if len(rest) > 1 else []),
             *([rest[2]] if len(rest) > 2 else []), *([rest[3]] if len(rest) > 3 else []))
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)
