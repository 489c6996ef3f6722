#!/usr/bin/python3
"""The rosgraph_msgs/Log messages of ROS 1 bags as Debian's python3-rosbag reads them, for the robot
log view's test (tests/codec/test_robot_log.cpp).

  robot_log_reference.py BAG...   one JSON object by path: {"rows": [[time_ns, level, name, msg, file,
                                  function, line], ...]} in the reader's order, or {"error": why} when
                                  python3-rosbag cannot read the bag
"""
import json, sys

import rosbag


def rows(path):
    bag = rosbag.Bag(path)
    try:
        topics = [t for t, info in bag.get_type_and_topic_info().topics.items() if info.msg_type == 'rosgraph_msgs/Log']
        if not topics:
            return []
        return [[str(t.secs * 1000000000 + t.nsecs), m.level, m.name, m.msg, m.file, m.function, m.line]
                for _, m, t in bag.read_messages(topics=topics)]
    finally:
        bag.close()


out = {}
for path in sys.argv[1:]:
    try:
        out[path] = {'rows': rows(path)}
    except Exception as error:  # a bag python3-rosbag cannot read: the test says so
        out[path] = {'error': '%s: %s' % (type(error).__name__, error)}
print(json.dumps(out))
