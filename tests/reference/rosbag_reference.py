#!/usr/bin/python3
"""Drives Debian's python3-rosbag (the reference reader) and prints JSON for logscope's tests.

  rosbag_reference.py summary BAG         counts, per-topic counts, types, md5s, start, end, compression
  rosbag_reference.py messages BAG N      every message deserialized; the first N per topic as JSON in
                                          logscope's decoder conventions (codec/rosbag/msgdef.h)
  rosbag_reference.py reindex BAG DIR     `rosbag reindex` on a copy in DIR, then (topic, time) of every message
  rosbag_reference.py v12 BAG             message counts of a V1.2 bag (total and per topic)
  rosbag_reference.py raw BAG...          each bag's messages, as python3-rosbag reads them (V1.2 through
                                          its V1.2 readers): topic, time, length and SHA1 of the bytes,
                                          and its connections' headers; one JSON object by path
  rosbag_reference.py reindex_v12 BAG...  what `rosbag reindex` keeps of each V1.2 bag (see reindex_v12)
"""
import hashlib, json, os, shutil, subprocess, sys

import genpy
import rosbag

PREVIEW, BYTES_PREVIEW = 16, 64


def to_json(value, slot_type=''):
    base = slot_type.split('[')[0]
    is_array = '[' in slot_type
    if isinstance(value, (genpy.Time, genpy.Duration)):
        return {'secs': value.secs, 'nsecs': value.nsecs}
    if is_array and base in ('uint8', 'char'):
        data = bytes(value) if not isinstance(value, (bytes, bytearray)) else value
        return {'length': len(data), 'hex': data[:BYTES_PREVIEW].hex()}
    if is_array:
        items = [to_json(v, base) for v in list(value)[:PREVIEW]]
        return items if len(value) <= PREVIEW else {'length': len(value), 'first': items}
    if hasattr(value, '__slots__') and hasattr(value, '_slot_types'):
        return {name: to_json(getattr(value, name), t) for name, t in zip(value.__slots__, value._slot_types)}
    if isinstance(value, float) and (value != value or value in (float('inf'), float('-inf'))):
        return None
    if isinstance(value, bytes):
        return value.decode('utf-8', 'replace')
    return value


def tns(t):
    return t.secs * 1000000000 + t.nsecs


def summary(path):
    bag = rosbag.Bag(path, skip_index=True)
    info = bag.get_type_and_topic_info()
    chunks = bag._chunks
    compression = {}
    for h in bag._chunk_headers.values():
        c = compression.setdefault(h.compression, {'chunks': 0, 'uncompressed': 0, 'compressed': 0})
        c['chunks'] += 1
        c['uncompressed'] += h.uncompressed_size
        c['compressed'] += h.compressed_size
    types = {}
    for c in bag._connections.values():
        types.setdefault(c.datatype, c.md5sum)
    out = {
        'messages': bag.get_message_count(),
        'topics': {t: {'type': v.msg_type, 'messages': v.message_count, 'connections': v.connections}
                   for t, v in info.topics.items()},
        'types': types,
        'compression': compression,
        # rosbag prints the first chunk's start and the last chunk's end; the true range is min/max.
        'start_ns': min(tns(c.start_time) for c in chunks) if chunks else None,
        'end_ns': max(tns(c.end_time) for c in chunks) if chunks else None,
    }
    print(json.dumps(out))


def messages(path, per_topic):
    bag = rosbag.Bag(path)
    count, shown, samples = 0, {}, []
    for topic, msg, t in bag.read_messages():
        count += 1
        k = shown.get(topic, 0)
        if k < per_topic:
            shown[topic] = k + 1
            samples.append({'topic': topic, 'index': k, 'time_ns': tns(t), 'message': to_json(msg)})
    print(json.dumps({'count': count, 'samples': samples}, ensure_ascii=False))


def reindex(path, scratch):
    # Work on a copy: reindex rewrites (and truncates) the bag it is given.
    work = os.path.join(scratch, os.path.basename(path) + '.d')
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, 'out'))
    copy = os.path.join(work, os.path.basename(path))
    shutil.copyfile(path, copy)
    os.chmod(copy, 0o644)
    subprocess.run(['/usr/bin/rosbag', 'reindex', '-q', '--output-dir', os.path.join(work, 'out'), copy], check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    result = os.path.join(work, 'out', os.path.basename(path))
    bag = rosbag.Bag(result)
    msgs = [[topic, tns(t)] for topic, msg, t in bag.read_messages()]
    print(json.dumps({'count': len(msgs), 'messages': msgs, 'size': os.path.getsize(result)}))


def v12(path):
    bag = rosbag.Bag(path)
    # get_message_count(topic_filters=...) reports 0 on V1.2 bags (a reference bug): count the indexes.
    topics = {}
    for c in bag._connections.values():
        topics[c.topic] = topics.get(c.topic, 0) + len(bag._connection_indexes.get(c.id, []))
    print(json.dumps({'version': bag.version, 'messages': bag.get_message_count(), 'topics': topics}))


def raw_row(topic, data, t):
    return [topic, tns(t), len(data), hashlib.sha1(data).hexdigest()]


def v12_messages(bag):
    """Every message of an opened V1.2 bag in the order its reader gives them; stops at the first
    that cannot be read. The indexed reader is called directly: Bag.read_messages passes it an
    argument it does not take (TypeError in Debian's 1.15)."""
    rows = []
    if isinstance(bag._reader, rosbag.bag._BagReader102_Indexed):
        for entry in bag._get_entries(list(bag._get_connections()), None, None):
            try:
                topic, msg, t = bag._reader.seek_and_read_message_data_record(entry.offset, True)
            except Exception:
                continue  # an entry whose record is cut inside its data: it cannot be read
            rows.append(raw_row(topic, msg[1], t))
        return rows
    messages = bag.read_messages(raw=True)
    while True:
        try:
            topic, msg, t = next(messages)
        except StopIteration:
            break
        except Exception:
            break  # a record cut inside its data ends the stream (reindex_op stops there too)
        rows.append(raw_row(topic, msg[1], t))
    return rows


def raw(paths):
    out = {}
    for path in paths:
        try:
            bag = rosbag.Bag(path)
            if bag.version == 102:
                out[path] = {'version': 102, 'messages': v12_messages(bag)}
                continue
            rows, connections = [], {}
            for topic, msg, t, header in bag.read_messages(raw=True, return_connection_header=True):
                rows.append(raw_row(topic, msg[1], t))
            for c in bag._connections.values():
                h = {k: (v.decode('utf-8', 'replace') if isinstance(v, bytes) else v) for k, v in c.header.items()}
                connections.setdefault(c.topic, []).append(h)
            out[path] = {'version': bag.version, 'messages': rows, 'connections': connections}
        except Exception as error:
            out[path] = {'error': '%s: %s' % (type(error).__name__, error)}
    print(json.dumps(out))


def reindex_v12(paths):
    """`rosbag reindex` of a V1.2 bag is reindex_op: Bag(allow_unindexed=True), reindex() until it
    raises, then read_messages() into a V2.0 bag. Debian's read_messages fails on any bag with a
    FILE_HEADER (TypeError), so the messages are read as v12_messages does (Bag.reindex() starts
    from an empty index; the one it builds counts as read)."""
    out = {}
    for path in paths:
        try:
            bag = rosbag.Bag(path, 'r', allow_unindexed=True)
            try:
                for _ in bag.reindex():
                    pass
            except Exception:
                pass
            bag._connection_indexes_read = True
            out[path] = {'messages': v12_messages(bag)}
        except Exception as error:
            out[path] = {'error': '%s: %s' % (type(error).__name__, error)}
    print(json.dumps(out))


if __name__ == '__main__':
    command = sys.argv[1]
    if command == 'summary':
        summary(sys.argv[2])
    elif command == 'messages':
        messages(sys.argv[2], int(sys.argv[3]))
    elif command == 'reindex':
        reindex(sys.argv[2], sys.argv[3])
    elif command == 'v12':
        v12(sys.argv[2])
    elif command == 'raw':
        raw(sys.argv[2:])
    elif command == 'reindex_v12':
        reindex_v12(sys.argv[2:])
    else:
        sys.exit('unknown command ' + command)
