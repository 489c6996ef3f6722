#!/usr/bin/python3
"""The image reference for tests/codec/test_image_convert.cpp: what numpy and OpenCV (Debian's
python3-numpy, python3-opencv) make of the same image message bytes, computed as cv_bridge does
(cv2.cvtColor for Bayer and YUV, cv::Mat::convertTo(1/256) from 16-bit Bayer to 8); mono16 is
stretched in grey over its own range (round((v - low) * 255 / (high - low)), half up), its raw
values written like depth's.

usage:
  image_reference.py convert DIR
      DIR/cases.json lists raw image messages: [{"name", "encoding", "width", "height",
      "is_bigendian", "step", "data": file}]. Writes DIR/<name>.rgba (RGBA8, row by row) for each,
      and for depth encodings DIR/<name>.values (float32 little-endian, NaN where nothing was
      measured) and the legend range in DIR/expected.json: {name: {"low", "high"}}.
  image_reference.py bag-frames BAG DIR
      The first frames (at most 2 a topic) of every sensor_msgs/Image topic of a ROS 1 bag as
      Debian's python3-rosbag reads them, written as DIR/cases.json for `convert` (above).
  image_reference.py compressed-depth DIR
      Writes compressedDepth messages that compressed_depth_image_transport would write (PNG by
      cv2.imencode, RVL by the encoder of Wilson's paper, below) and what they hold:
      DIR/compressed.json: [{"name", "format", "data", "width", "height", "low", "high"}],
      with DIR/<name>.msg (the message data), DIR/<name>.rgba and DIR/<name>.values.
"""
import json
import os
import struct
import sys

import cv2
import numpy as np

BAYER_TO_BGR = {  # cv_bridge's codes (then BGR to RGB): OpenCV names a pattern by its 2nd row
    "rggb": cv2.COLOR_BayerBG2BGR,
    "bggr": cv2.COLOR_BayerRG2BGR,
    "gbrg": cv2.COLOR_BayerGR2BGR,
    "grbg": cv2.COLOR_BayerGB2BGR,
}


def turbo_rgb(index):
    """The Turbo colours of uint8 indexes, as RGB."""
    bgr = cv2.applyColorMap(index.astype(np.uint8).reshape(-1, 1), cv2.COLORMAP_TURBO).reshape(-1, 3)
    return bgr[:, ::-1]


def colour_depth(values, grey=False):
    """values: float64, NaN where nothing was measured. -> (rgba, low, high); grey: a grey stretch."""
    flat = values.reshape(-1)
    valid = ~np.isnan(flat)
    low = float(flat[valid].min()) if valid.any() else 0.0
    high = float(flat[valid].max()) if valid.any() else 0.0
    rgba = np.zeros((flat.size, 4), np.uint8)
    rgba[:, 3] = 255
    if valid.any():
        if high > low:
            index = np.floor((flat[valid] - low) * 255.0 / (high - low) + 0.5)
        else:
            index = np.zeros(int(valid.sum()))
        index = np.clip(index, 0, 255)
        rgba[valid, :3] = np.repeat(index.astype(np.uint8)[:, None], 3, axis=1) if grey else turbo_rgb(index)
    return rgba, low, high


def to_8bit(image16):
    """cv::Mat::convertTo(CV_8U, 1/256): round half to even, saturate."""
    return np.clip(np.rint(image16.astype(np.float64) / 256.0), 0, 255).astype(np.uint8)


def rows_of(case, data, bytes_per_pixel):
    """The image's rows (h, width * bytes) read at `step`, the last row's padding not needed."""
    width, height, step = case["width"], case["height"], case["step"]
    padded = np.zeros(step * height, np.uint8)
    padded[:len(data)] = np.frombuffer(data, np.uint8)[:step * height]
    return padded.reshape(height, step)[:, :width * bytes_per_pixel]


def samples(rows, dtype, big):
    return np.ascontiguousarray(rows).view(np.dtype(dtype).newbyteorder(">" if big else "<")).astype(dtype)


def convert(case, data):
    enc, w, h, big = case["encoding"], case["width"], case["height"], case["is_bigendian"]
    add_alpha = lambda rgb: np.dstack([rgb, np.full((h, w), 255, np.uint8)])
    if enc in ("rgb8",):
        return add_alpha(rows_of(case, data, 3).reshape(h, w, 3)), None
    if enc == "rgba8":
        return rows_of(case, data, 4).reshape(h, w, 4), None
    if enc in ("bgr8", "8UC3"):
        return cv2.cvtColor(rows_of(case, data, 3).reshape(h, w, 3), cv2.COLOR_BGR2RGBA), None
    if enc == "bgra8":
        return cv2.cvtColor(rows_of(case, data, 4).reshape(h, w, 4), cv2.COLOR_BGRA2RGBA), None
    if enc in ("mono8", "8UC1"):
        return cv2.cvtColor(rows_of(case, data, 1).copy(), cv2.COLOR_GRAY2RGBA), None
    if enc.startswith("bayer_"):
        pattern, bits = enc[6:10], int(enc[10:])
        mosaic = rows_of(case, data, 1).copy() if bits == 8 else samples(rows_of(case, data, 2), np.uint16, big)
        rgb = cv2.cvtColor(cv2.cvtColor(mosaic, BAYER_TO_BGR[pattern]), cv2.COLOR_BGR2RGB)
        return add_alpha(rgb if bits == 8 else to_8bit(rgb)), None
    if enc in ("yuv422", "uyvy"):
        return cv2.cvtColor(rows_of(case, data, 2).reshape(h, w, 2).copy(), cv2.COLOR_YUV2RGBA_UYVY), None
    if enc in ("yuv422_yuy2", "yuyv"):
        return cv2.cvtColor(rows_of(case, data, 2).reshape(h, w, 2).copy(), cv2.COLOR_YUV2RGBA_YUY2), None
    grey = enc == "mono16"
    if grey:
        values = samples(rows_of(case, data, 2), np.uint16, big).astype(np.float64)
    elif enc == "16UC1":
        values = samples(rows_of(case, data, 2), np.uint16, big).astype(np.float64)
        values[values == 0] = np.nan
    elif enc == "32FC1":
        values = samples(rows_of(case, data, 4), np.float32, big).astype(np.float64)
        values[~(np.isfinite(values) & (values > 0))] = np.nan
    else:
        raise SystemExit("image_reference.py: no reference for encoding " + enc)
    rgba, low, high = colour_depth(values, grey)
    return rgba.reshape(h, w, 4), (values.astype(np.float32), low, high)


def run_convert(folder):
    with open(os.path.join(folder, "cases.json")) as f:
        cases = json.load(f)
    expected = {}
    for case in cases:
        with open(os.path.join(folder, case["data"]), "rb") as f:
            data = f.read()
        rgba, depth = convert(case, data)
        with open(os.path.join(folder, case["name"] + ".rgba"), "wb") as f:
            f.write(np.ascontiguousarray(rgba, np.uint8).tobytes())
        if depth:
            values, low, high = depth
            with open(os.path.join(folder, case["name"] + ".values"), "wb") as f:
                f.write(values.astype("<f4").tobytes())
            expected[case["name"]] = {"low": low, "high": high}
    with open(os.path.join(folder, "expected.json"), "w") as f:
        json.dump(expected, f)


def rvl_encode(values):
    """RVL as published (A. D. Wilson, 2017): runs of zeros and nonzeros, each nonzero value the
    zigzag of its difference from the previous nonzero, all as 3-bit nibbles with a continuation
    bit, eight to a 32-bit little-endian word, the first nibble in the top bits."""
    words, nibbles = [], []

    def vle(value):
        while True:
            nibble = value & 7
            value >>= 3
            if value:
                nibble |= 8
            nibbles.append(nibble)
            if not value:
                return

    flat = [int(v) for v in values.reshape(-1)]
    i, previous = 0, 0
    while i < len(flat):
        zeros = 0
        while i < len(flat) and flat[i] == 0:
            zeros, i = zeros + 1, i + 1
        vle(zeros)
        run = []
        while i < len(flat) and flat[i] != 0:
            run.append(flat[i])
            i += 1
        vle(len(run))
        for current in run:
            delta = current - previous
            vle((delta << 1) ^ (delta >> 31))  # zigzag: 0, -1, 1, -2... to 0, 1, 2, 3...
            previous = current
    nibbles += [0] * (-len(nibbles) % 8)
    for k in range(0, len(nibbles), 8):
        word = 0
        for n in nibbles[k:k + 8]:
            word = (word << 4) | n
        words.append(word)
    return struct.pack("<%dI" % len(words), *words)


def run_compressed_depth(folder):
    rng = np.random.default_rng(35)
    out = []
    for name, encoding, method, w, h in (
            ("png16", "16UC1", "png", 13, 7), ("old16", "16UC1", "", 9, 4), ("rvl16", "16UC1", "rvl", 17, 5),
            ("png32", "32FC1", "png", 11, 6), ("rvl32", "32FC1", "rvl", 8, 9), ("rvl_zeros", "16UC1", "rvl", 64, 64)):
        raw = rng.integers(1, 65535, size=(h, w), dtype=np.uint16)
        raw[rng.random((h, w)) < 0.2] = 0
        raw[0, :3] = 0  # the data starts with a run of zeros
        if name == "rvl_zeros":
            raw[:] = 0
            raw[40, 7] = 1200
        quant_a, quant_b = (100.0, 10.0) if encoding == "32FC1" else (0.0, 0.0)
        if encoding == "32FC1":
            raw[raw != 0] = rng.integers(11, 3000, size=int((raw != 0).sum()), dtype=np.uint16)
            raw[1, 1] = 5  # q < b: a negative depth, which is no measurement
        header = struct.pack("<iff", 0, quant_a, quant_b)
        if method == "rvl":
            body = struct.pack("<II", w, h) + rvl_encode(raw)
        else:
            ok, png = cv2.imencode(".png", raw)
            assert ok
            body = png.tobytes()
        if encoding == "16UC1":
            values = raw.astype(np.float64)
            values[raw == 0] = np.nan
            values32 = values.astype(np.float32)
        else:
            values32 = np.float32(quant_a) / (raw.astype(np.float32) - np.float32(quant_b))
            values32[(raw == 0) | ~np.isfinite(values32) | (values32 <= 0)] = np.nan
        rgba, low, high = colour_depth(values32.astype(np.float64))
        fmt = encoding + "; compressedDepth" + (" " + method if method else "")
        with open(os.path.join(folder, name + ".msg"), "wb") as f:
            f.write(header + body)
        with open(os.path.join(folder, name + ".rgba"), "wb") as f:
            f.write(rgba.tobytes())
        with open(os.path.join(folder, name + ".values"), "wb") as f:
            f.write(values32.astype("<f4").tobytes())
        out.append({"name": name, "format": fmt, "data": name + ".msg", "width": w, "height": h, "low": low, "high": high})
    with open(os.path.join(folder, "compressed.json"), "w") as f:
        json.dump(out, f)


def run_bag_frames(bag_path, folder):
    import rosbag  # only this mode needs it (python3-rosbag)
    cases, taken = [], {}
    with rosbag.Bag(bag_path) as bag:
        topics = [t for t, i in bag.get_type_and_topic_info().topics.items() if i.msg_type == "sensor_msgs/Image"]
        for topic, message, _ in bag.read_messages(topics=topics):
            n = taken.get(topic, 0)
            if n == 2:
                continue
            taken[topic] = n + 1
            name = "frame%d" % len(cases)
            with open(os.path.join(folder, name + ".bin"), "wb") as f:
                f.write(bytes(message.data))
            cases.append({"name": name, "topic": topic, "encoding": message.encoding, "width": message.width,
                          "height": message.height, "is_bigendian": bool(message.is_bigendian),
                          "step": message.step, "data": name + ".bin"})
    with open(os.path.join(folder, "cases.json"), "w") as f:
        json.dump(cases, f)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "bag-frames":
        run_bag_frames(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] in ("convert", "compressed-depth"):
        (run_convert if sys.argv[1] == "convert" else run_compressed_depth)(sys.argv[2])
    else:
        raise SystemExit(__doc__)
