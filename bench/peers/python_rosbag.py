#!/usr/bin/python3
"""The Python peer: Debian's python3-rosbag on a bag, for bench/run.mjs (run with /usr/bin/python3).

  python_rosbag.py open|iterate|info FILE
  open:    rosbag.Bag(FILE): reads the index (what a summary needs)
  iterate: Bag(FILE), then read_messages(raw=True): every message in time order, raw bytes
  info:    `rosbag info FILE` as a user runs it (a new process; its wall time)
Prints one JSON line: seconds, messages, bytes, peak_rss_kb (children's, for info).
"""
import json, resource, subprocess, sys, time

import rosbag

op, path = sys.argv[1], sys.argv[2]
messages = size = 0
t0, cpu0 = time.perf_counter(), time.process_time()
if op == 'info':
    subprocess.run(['rosbag', 'info', path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    child = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu0 -= child.ru_utime + child.ru_stime  # count the child's CPU: `rosbag info` runs there
else:
    bag = rosbag.Bag(path)
    if op == 'iterate':
        for _topic, raw, _t in bag.read_messages(raw=True):
            messages += 1
            size += len(raw[1])
    else:
        messages = bag.get_message_count()
    bag.close()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
seconds, cpu = time.perf_counter() - t0, time.process_time() - cpu0
print(json.dumps({'seconds': seconds, 'cpu_seconds': cpu, 'messages': messages, 'bytes': size, 'peak_rss_kb': rss}), flush=True)
