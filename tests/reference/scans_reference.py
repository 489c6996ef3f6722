#!/usr/bin/python3
"""Scans and point clouds of ROS 1 bags (sensor_msgs/LaserScan, PointCloud2, PointCloud) as Debian's
python3-rosbag reads them, turned into points here with Python's struct (Debian has no
sensor_msgs.point_cloud2), for the scans view's test (tests/codec/test_scans_real.cpp).

  scans_reference.py BAG...   one JSON object by path: {"topics": [{"topic", "type", "messages",
                              "samples": [a sample for the first, middle and last message]}]} or
                              {"error": why} when python3-rosbag cannot read it. A sample:
                              {"time_ns", "frame_id", "declared", "count", "invalid", "value",
                              "sum": [x, y, z], "first": the first 50 valid points [x, y, z, value]}

Points: a LaserScan's range i at angle_min + i * angle_increment, a point when finite and within
[range_min, range_max]; a PointCloud2's point (row, col) at row * row_step + col * point_step, read
in its byte order, when its fields lie in the data and x, y, z are finite; the value is the field
"intensity", or the first other one that is not rgb/rgba; a PointCloud's points and its channel
"intensity" (or its first), left out when its length differs.
"""
import json, math, struct, sys

import rosbag

TYPES = ('sensor_msgs/LaserScan', 'sensor_msgs/PointCloud2', 'sensor_msgs/PointCloud')
FORMATS = {1: 'b', 2: 'B', 3: 'h', 4: 'H', 5: 'i', 6: 'I', 7: 'f', 8: 'd'}
FIRST = 50


def finite(*values):
    return all(math.isfinite(v) for v in values)


def laser_scan(m):
    values = list(m.intensities) if len(m.intensities) == len(m.ranges) and len(m.intensities) else None
    out = []
    for i, r in enumerate(m.ranges):
        a = m.angle_min + i * m.angle_increment
        ok = math.isfinite(r) and m.range_min <= r <= m.range_max
        v = values[i] if values is not None and math.isfinite(values[i]) else None
        out.append((ok, r * math.cos(a) if ok else 0.0, r * math.sin(a) if ok else 0.0, 0.0, v))
    return len(m.ranges), ('intensity' if values is not None else None), out


def point_cloud2(m):
    fields = {f.name: f for f in m.fields}
    value = next((f for f in m.fields if f.name.lower() == 'intensity' and f.datatype in FORMATS), None)
    if value is None:
        value = next((f for f in m.fields if f.name not in ('x', 'y', 'z') and f.name.lower() not in ('rgb', 'rgba') and f.datatype in FORMATS), None)
    used = [fields['x'], fields['y']] + ([fields['z']] if 'z' in fields else []) + ([value] if value is not None else [])
    need = max(f.offset + struct.calcsize(FORMATS[f.datatype]) for f in used)
    order = '>' if m.is_bigendian else '<'
    data = bytes(m.data)
    rows = m.height
    if m.height > 1 and m.row_step < m.width * m.point_step:
        rows = 1
    read = lambda f, at: struct.unpack_from(order + FORMATS[f.datatype], data, at + f.offset)[0]
    out = []
    for row in range(rows):
        for col in range(m.width):
            at = row * m.row_step + col * m.point_step
            if at + need > len(data):
                break
            x, y = read(fields['x'], at), read(fields['y'], at)
            z = read(fields['z'], at) if 'z' in fields else 0.0
            v = read(value, at) if value is not None else None
            out.append((finite(x, y, z), x, y, z, v if v is not None and math.isfinite(v) else None))
    return m.width * m.height, (value.name if value is not None else None), out


def point_cloud(m):
    channel = None
    for c in m.channels:
        if channel is None or (channel.name.lower() != 'intensity' and c.name.lower() == 'intensity'):
            channel = c
    values = list(channel.values) if channel is not None and len(channel.values) == len(m.points) and len(channel.values) else None
    out = []
    for i, p in enumerate(m.points):
        v = values[i] if values is not None and math.isfinite(values[i]) else None
        out.append((finite(p.x, p.y, p.z), p.x, p.y, p.z, v))
    return len(m.points), (channel.name if values is not None else None), out


def sample(kind, m, ns):
    declared, value, points = {'sensor_msgs/LaserScan': laser_scan, 'sensor_msgs/PointCloud2': point_cloud2, 'sensor_msgs/PointCloud': point_cloud}[kind](m)
    valid = [p[1:] for p in points if p[0]]
    return {'time_ns': str(ns), 'frame_id': m.header.frame_id, 'declared': declared, 'count': len(valid), 'invalid': len(points) - len(valid),
            'value': value, 'sum': [math.fsum(p[i] for p in valid) for i in range(3)], 'first': [list(p) for p in valid[:FIRST]]}


def messages(bag, topic):
    """(message, time) of a topic in the reader's order. A V1.2 bag's indexed reader is called
    directly: Bag.read_messages passes it an argument it does not take (TypeError in Debian's 1.15)."""
    if isinstance(bag._reader, rosbag.bag._BagReader102_Indexed):
        connections = [c for c in bag._get_connections() if c.topic == topic]
        for entry in bag._get_entries(connections, None, None):
            _, m, t = bag._reader.seek_and_read_message_data_record(entry.offset, False)
            yield m, t
        return
    for _, m, t in bag.read_messages(topics=[topic]):
        yield m, t


def topics(path):
    bag = rosbag.Bag(path)
    try:
        info = bag.get_type_and_topic_info().topics
        out = []
        for topic in sorted(t for t, i in info.items() if i.msg_type in TYPES):
            kind = info[topic].msg_type
            times = [t.to_nsec() for _, t in messages(bag, topic)]
            # The last message at each chosen time (as the view takes the last of several at one time).
            chosen = sorted({times[0], times[len(times) // 2], times[-1]}) if times else []
            samples = {}
            for m, t in messages(bag, topic):
                ns = t.to_nsec()
                if ns in chosen:
                    samples[ns] = sample(kind, m, ns)
            out.append({'topic': topic, 'type': kind, 'messages': len(times), 'samples': [samples[ns] for ns in chosen]})
        return out
    finally:
        bag.close()


out = {}
for path in sys.argv[1:]:
    try:
        out[path] = {'topics': topics(path)}
    except Exception as error:  # a bag python3-rosbag cannot read: the test says so
        out[path] = {'error': '%s: %s' % (type(error).__name__, error)}
print(json.dumps(out))
