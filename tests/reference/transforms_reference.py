#!/usr/bin/python3
"""The transforms of ROS 1 bags (tf2_msgs/TFMessage, tf/tfMessage) as Debian's python3-rosbag reads
them, for the transforms view's test (tests/codec/test_transforms.cpp).

  transforms_reference.py BAG...   one JSON object by path: {"edges": [{"parent", "child", "updates",
                                   "last_ns", "last": [x, y, z, qx, qy, qz, qw]}]}, frame ids without
                                   tf's leading '/', "last" the last update in time order (ties: the
                                   reader's order); or {"error": why} when python3-rosbag cannot read it
"""
import json, sys

import rosbag

TYPES = ('tf2_msgs/TFMessage', 'tf/tfMessage')


def frame(name):
    return name[1:] if name.startswith('/') else name


def edges(path):
    bag = rosbag.Bag(path)
    try:
        topics = [t for t, info in bag.get_type_and_topic_info().topics.items() if info.msg_type in TYPES]
        if not topics:
            return []
        found = {}
        for _, message, time in bag.read_messages(topics=topics):
            ns = time.secs * 1000000000 + time.nsecs
            for t in message.transforms:
                key = (frame(t.header.frame_id), frame(t.child_frame_id))
                edge = found.setdefault(key, {'parent': key[0], 'child': key[1], 'updates': 0, 'last_ns': -1})
                edge['updates'] += 1
                if ns >= edge['last_ns']:
                    r, q = t.transform.translation, t.transform.rotation
                    edge['last_ns'] = ns
                    edge['last'] = [r.x, r.y, r.z, q.x, q.y, q.z, q.w]
        out = []
        for key in sorted(found):
            edge = found[key]
            edge['last_ns'] = str(edge['last_ns'])
            out.append(edge)
        return out
    finally:
        bag.close()


out = {}
for path in sys.argv[1:]:
    try:
        out[path] = {'edges': edges(path)}
    except Exception as error:  # a bag python3-rosbag cannot read: the test says so
        out[path] = {'error': '%s: %s' % (type(error).__name__, error)}
print(json.dumps(out))
