#!/usr/bin/python3
"""Writes a benchmark bag with Debian's python3-rosbag (the reference writer), so logscope and its
peers are timed on a file none of them wrote.

  write_bag.py OUT --compression none|lz4|bz2 --size-mb N     an outdoor robot until the file has N MB
  write_bag.py OUT --tiny N                                   N four-byte std_msgs/Int32 on four topics

The robot: IMU 200 Hz, TF 100 Hz, odometry 50 Hz, lidar scans 40 Hz (1081 ranges and intensities),
GPS 10 Hz, cmd_vel 20 Hz, rosout 2 Hz and a 15 Hz JPEG camera (incompressible bytes, as JPEG is),
with the real message classes from Debian's *-msgs packages. Each message is serialized once per
topic and its header (seq, stamp) patched per message, so the writer's own speed is python3-rosbag's.
Must run with /usr/bin/python3 (the pyenv python3 on PATH has no rosbag).
"""
import argparse, io, math, os, random, struct, sys

import genpy
import rosbag
from geometry_msgs.msg import TransformStamped, Twist
from nav_msgs.msg import Odometry
from rosgraph_msgs.msg import Log
from sensor_msgs.msg import CompressedImage, Imu, LaserScan, NavSatFix
from std_msgs.msg import Int32
from tf2_msgs.msg import TFMessage

COMPRESSION = {'none': rosbag.Compression.NONE, 'lz4': rosbag.Compression.LZ4, 'bz2': rosbag.Compression.BZ2}
START = 1700000000  # sim start, seconds since the epoch


def serialized(msg):
    buffer = io.BytesIO()
    msg.serialize(buffer)
    return bytearray(buffer.getvalue())


class Topic:
    """One topic: a serialized template whose header fields are patched per message."""

    def __init__(self, name, msg, hz, header_at=0):
        self.name, self.hz, self.header_at = name, hz, header_at
        self.cls = type(msg)
        self.template = serialized(msg)
        self.seq = 0

    def message(self, t):
        data = self.template
        if self.header_at is not None:
            struct.pack_into('<III', data, self.header_at, self.seq, t.secs, t.nsecs)
        self.seq += 1
        return bytes(data)


class Camera(Topic):
    """JPEG frames of varying size: slices of a random pool, so no two chunks compress."""

    def __init__(self, name, hz, pool):
        msg = CompressedImage()
        msg.header.frame_id = 'camera_front_optical'
        msg.format = 'jpeg'
        super().__init__(name, msg, hz)
        self.prefix = self.template[:-4]  # everything before the empty data array's length
        self.pool = pool

    def message(self, t):
        size = random.randint(90_000, 150_000)
        at = random.randrange(0, len(self.pool) - size)
        struct.pack_into('<III', self.prefix, 0, self.seq, t.secs, t.nsecs)
        self.seq += 1
        return bytes(self.prefix) + struct.pack('<I', size) + self.pool[at:at + size]


def robot_topics():
    imu = Imu()
    imu.header.frame_id = 'imu_link'
    imu.orientation.w = 1.0
    imu.linear_acceleration.z = 9.81
    imu.orientation_covariance = [0.01, 0, 0, 0, 0.01, 0, 0, 0, 0.01]
    odom = Odometry()
    odom.header.frame_id, odom.child_frame_id = 'odom', 'base_link'
    odom.pose.pose.orientation.w = 1.0
    scan = LaserScan()
    scan.header.frame_id = 'laser'
    scan.angle_min, scan.angle_max = -2.356, 2.356
    scan.angle_increment = 4.712 / 1080
    scan.range_min, scan.range_max = 0.1, 30.0
    # Ranges of a room with some structure: compress somewhat, as real scans do.
    scan.ranges = [round(4.0 + 2.0 * math.sin(i / 40.0) + (i % 7) * 0.01, 2) for i in range(1081)]
    scan.intensities = [float(1000 + (i * 37) % 500) for i in range(1081)]
    tf = TFMessage()
    for parent, child in (('odom', 'base_link'), ('base_link', 'imu_link'), ('base_link', 'laser')):
        stamped = TransformStamped()
        stamped.header.frame_id, stamped.child_frame_id = parent, child
        stamped.transform.rotation.w = 1.0
        tf.transforms.append(stamped)
    fix = NavSatFix()
    fix.header.frame_id = 'gps'
    fix.latitude, fix.longitude, fix.altitude = 48.1351, 11.5820, 519.0
    twist = Twist()
    twist.linear.x, twist.angular.z = 0.8, 0.1
    log = Log()
    log.header.frame_id = ''
    log.level, log.name, log.msg = Log.INFO, '/navigation', 'Goal reached, planning the next waypoint'
    log.file, log.function, log.line, log.topics = 'planner.cpp', 'onGoal', 212, ['/cmd_vel', '/odom']
    pool = os.urandom(64 << 20)
    return [Topic('/imu/data', imu, 200), Topic('/tf', tf, 100, header_at=4), Topic('/odom', odom, 50),
            Topic('/scan', scan, 40), Topic('/gps/fix', fix, 10), Topic('/cmd_vel', twist, 20, header_at=None),
            Topic('/rosout', log, 2), Camera('/camera/front/image_raw/compressed', 15, pool)]


def tiny_topics():
    topics = []
    for name in ('/counter/a', '/counter/b', '/counter/c', '/counter/d'):
        msg = Int32()
        msg.data = 7
        topics.append(Topic(name, msg, 1000, header_at=None))
    return topics


def schedule(topics):
    """Messages in time order: (time, topic) at each topic's rate, forever."""
    tick = 0
    base = 2000  # Hz: every rate divides it
    while True:
        for topic in topics:
            if tick % (base // topic.hz) == 0:
                t = genpy.Time(START + tick // base, (tick % base) * (1_000_000_000 // base))
                yield t, topic
        tick += 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('out')
    parser.add_argument('--compression', default='none', choices=sorted(COMPRESSION))
    parser.add_argument('--size-mb', type=int, default=1024)
    parser.add_argument('--tiny', type=int, default=0, help='write this many tiny messages instead')
    args = parser.parse_args()
    random.seed(10)
    topics = tiny_topics() if args.tiny else robot_topics()
    limit = args.size_mb << 20
    count = 0
    with rosbag.Bag(args.out, 'w', compression=COMPRESSION[args.compression]) as bag:
        for t, topic in schedule(topics):
            raw = (topic.cls._type, topic.message(t), topic.cls._md5sum, topic.cls)
            bag.write(topic.name, raw, t, raw=True)
            count += 1
            if args.tiny:
                if count >= args.tiny:
                    break
            elif count % 256 == 0 and bag._file.tell() >= limit:
                break
    print(f'{args.out}: {count} messages, {os.path.getsize(args.out)} bytes', file=sys.stderr)


if __name__ == '__main__':
    main()
