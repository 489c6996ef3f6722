#!/usr/bin/python3
"""The independent side of tests/codec/test_frames.cpp (`logscope frames`): PIL (Debian's
python3-pil) reads the PNGs the CLI wrote and makes the JPEG and PNG test pictures; python3-rosbag
reads the real bags' image messages; image_reference.py computes their pixels as OpenCV does.

usage:
  image_frames_reference.py compare LIST.json
      LIST: [{"png", "rgba", "tolerance"}]: each PNG read by PIL as RGBA must equal the RGBA8 file
      (each channel within `tolerance`). Prints the mismatches as JSON: [{"png", "why"}].
  image_frames_reference.py encode DIR
      A 37 x 23 test picture as DIR/picture.jpg and DIR/picture.png (PIL), and what PIL decodes
      of each: DIR/picture.jpg.rgba, DIR/picture.png.rgba.
  image_frames_reference.py bag BAG DIR
      The image topics of a ROS 1 bag (sensor_msgs/Image, CompressedImage) as python3-rosbag reads
      them: DIR/bag.json {"topics": {topic: {"type", "count"}}, "raw": [case...], "compressed":
      [{"name", "topic", "time_ns", "format", "data"}]}, the first 2 frames of each topic. A raw
      case is image_reference.py's (with "topic" and "time_ns") and gets its DIR/<name>.rgba.
"""
import io
import json
import os
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def compare(list_path):
    with open(list_path) as f:
        items = json.load(f)
    bad = []
    for item in items:
        try:
            got = np.asarray(Image.open(item["png"]).convert("RGBA"), np.int16).reshape(-1)
        except Exception as e:  # a missing or unreadable file is a mismatch, named
            bad.append({"png": item["png"], "why": "PIL cannot read it: %s" % e})
            continue
        with open(item["rgba"], "rb") as f:
            want = np.frombuffer(f.read(), np.uint8).astype(np.int16)
        if got.size != want.size:
            bad.append({"png": item["png"], "why": "%d RGBA bytes, want %d" % (got.size, want.size)})
            continue
        diff = np.abs(got - want)
        if diff.max(initial=0) > item.get("tolerance", 0):
            i = int(np.argmax(diff))
            bad.append({"png": item["png"], "why": "byte %d is %d, want %d" % (i, got[i], want[i])})
    print(json.dumps(bad))


def encode(folder):
    rng = np.random.default_rng(35)
    h, w = 23, 37
    y, x = np.mgrid[0:h, 0:w]
    rgb = np.dstack([x * 255 // (w - 1), y * 255 // (h - 1), (x + y) * 4 % 256]).astype(np.int16)
    rgb = np.clip(rgb + rng.integers(-20, 20, rgb.shape), 0, 255).astype(np.uint8)
    picture = Image.fromarray(rgb, "RGB")
    for ext, fmt in (("jpg", "JPEG"), ("png", "PNG")):
        buffer = io.BytesIO()
        picture.save(buffer, fmt, quality=90) if fmt == "JPEG" else picture.save(buffer, fmt)
        path = os.path.join(folder, "picture." + ext)
        with open(path, "wb") as f:
            f.write(buffer.getvalue())
        with open(path + ".rgba", "wb") as f:
            f.write(np.asarray(Image.open(path).convert("RGBA"), np.uint8).tobytes())


def bag(bag_path, folder):
    import rosbag  # python3-rosbag
    import image_reference
    kinds = ("sensor_msgs/Image", "sensor_msgs/CompressedImage")
    out = {"topics": {}, "raw": [], "compressed": []}
    taken = {}
    with rosbag.Bag(bag_path) as b:
        info = b.get_type_and_topic_info().topics
        topics = [t for t, i in info.items() if i.msg_type in kinds]
        for t in topics:
            out["topics"][t] = {"type": info[t].msg_type, "count": info[t].message_count}
        for topic, message, time in b.read_messages(topics=topics):
            n = taken.get(topic, 0)
            if n == 2:
                continue
            taken[topic] = n + 1
            name = "frame%d" % (len(out["raw"]) + len(out["compressed"]))
            with open(os.path.join(folder, name + ".bin"), "wb") as f:
                f.write(bytes(message.data))
            case = {"name": name, "topic": topic, "time_ns": str(time.to_nsec()), "data": name + ".bin"}
            if info[topic].msg_type == "sensor_msgs/Image":
                case.update({"encoding": message.encoding, "width": message.width, "height": message.height,
                             "is_bigendian": bool(message.is_bigendian), "step": message.step})
                rgba, _ = image_reference.convert(case, bytes(message.data))
                with open(os.path.join(folder, name + ".rgba"), "wb") as f:
                    f.write(np.ascontiguousarray(rgba, np.uint8).tobytes())
                out["raw"].append(case)
            else:
                case["format"] = message.format
                out["compressed"].append(case)
    with open(os.path.join(folder, "bag.json"), "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "compare":
        compare(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "encode":
        encode(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "bag":
        bag(sys.argv[2], sys.argv[3])
    else:
        raise SystemExit(__doc__)
