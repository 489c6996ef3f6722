#!/usr/bin/python3
"""Times Debian's python3-rosbag on a bag, for bench/bench_rosbag.cpp (--peers) and docs/benchmarks.md.

  rosbag_bench_python.py BAG    prints: `rosbag info` wall time (a new process, as a user runs it),
                                Bag() open time, and a read_messages(raw=True) loop over every message.
"""
import subprocess, sys, time

import rosbag

path = sys.argv[1]
t0 = time.perf_counter()
subprocess.run(['rosbag', 'info', path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
info_s = time.perf_counter() - t0

t0 = time.perf_counter()
bag = rosbag.Bag(path)
open_s = time.perf_counter() - t0
size = bag.size
t0 = time.perf_counter()
count = 0
payload = 0
for _topic, raw, _t in bag.read_messages(raw=True):
    count += 1
    payload += len(raw[1])
iterate_s = time.perf_counter() - t0
bag.close()
mb = size / 1e6
print(f'  python3-rosbag: `rosbag info` {info_s:.2f} s; Bag() open {open_s:.2f} s; '
      f'read_messages(raw=True) {iterate_s:.2f} s ({mb / iterate_s:.0f} MB/s, {count / iterate_s / 1e6:.2f} M msg/s, {count} msgs)',
      flush=True)
