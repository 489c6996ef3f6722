#!/usr/bin/python3
"""The rosbag2 reference reader for tests: what Python's standard sqlite3 module reads from a
bag's databases. Works on a COPY in a temporary folder: opening a database in place would
checkpoint and delete its -wal. The -wal is copied with it (so SQLite applies it); a -shm is
not (SQLite rebuilds its index from the WAL).

usage: rosbag2_reference.py BAG_FOLDER_OR_DATABASE
prints JSON: {"files": {name: {"topics": [[id, name, type]], "messages": [[rowid, topic_id,
timestamp, sha1]]}}}; sha1 is of the zstd-decompressed bytes when a message is a zstd frame.
"""
import hashlib
import json
import os
import shutil
import sqlite3
import sys
import tempfile

import zstandard

ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


def is_database(path):
    with open(path, "rb") as f:
        return f.read(16) == b"SQLite format 3\x00"


def read_database(path):
    db = sqlite3.connect(path)
    try:
        topics = [list(r) for r in db.execute("SELECT id, name, type FROM topics ORDER BY id")]
        messages = []
        for rowid, topic_id, timestamp, data in db.execute(
                "SELECT id, topic_id, timestamp, data FROM messages ORDER BY id"):
            data = bytes(data)
            if data[:4] == ZSTD_MAGIC:
                data = zstandard.ZstdDecompressor().decompress(data, max_output_size=1 << 29)
            messages.append([rowid, topic_id, timestamp, hashlib.sha1(data).hexdigest()])
        return {"topics": topics, "messages": messages}
    finally:
        db.close()


def main():
    target = sys.argv[1]
    if os.path.isdir(target):
        folder, names = target, sorted(os.listdir(target))
    else:
        folder, names = os.path.dirname(target) or ".", [os.path.basename(target)]
        if os.path.exists(target + "-wal"):
            names.append(os.path.basename(target) + "-wal")
    result = {"files": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            source = os.path.join(folder, name)
            if os.path.isfile(source) and not name.endswith("-shm"):
                shutil.copyfile(source, os.path.join(tmp, name))
        for name in names:
            copy = os.path.join(tmp, name)
            if name.endswith(("-wal", "-shm", "-journal")) or not os.path.isfile(copy) or not is_database(copy):
                continue
            result["files"][name] = read_database(copy)
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
