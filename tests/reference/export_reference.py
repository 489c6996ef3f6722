#!/usr/bin/python3
"""Every topic of a bag flattened as `logscope export` flattens it (docs/export.md), read by Debian's
python3-rosbag (the reference reader), for tests/codec/test_export.cpp.

  export_reference.py BAG     one JSON line per topic: {"topic", "columns", "rows": [[time_ns, cell...]...]}
                              or {"topic", "error"} when python3-rosbag cannot read it

Cells: integers exact, floats as Python floats (float32 values widened exactly to float64),
non-finite floats as the strings "nan", "inf", "-inf"; arrays that logscope writes as one JSON
cell are nested lists (messages as objects in field order).
"""
import json, math, sys

import genpy
import rosbag

ARRAY_COLUMNS, MAX_FIELD_COLUMNS = 64, 4096
PRIMITIVE_COLUMNS = {'time': 2, 'duration': 2}


def number(value):
    if isinstance(value, float) and not math.isfinite(value):
        return 'nan' if value != value else ('inf' if value > 0 else '-inf')
    return value


def split_type(slot_type):
    """'float64[36]' -> ('float64', 36); 'int8[]' -> ('int8', -1); 'int8' -> ('int8', 0)."""
    if '[' not in slot_type:
        return slot_type, 0
    base, size = slot_type[:-1].split('[')
    return base, int(size) if size else -1


def columns_of(value, base):
    """Columns of one (non-array) value of type `base`, as logscope's FlatLayout counts them."""
    if base in PRIMITIVE_COLUMNS:
        return 2
    if not hasattr(value, '__slots__'):
        return 1
    total = 0
    for name, slot_type in zip(value.__slots__, value._slot_types):
        member_base, size = split_type(slot_type)
        member = getattr(value, name)
        if size == 0:
            total += columns_of(member, member_base)
        elif size > 0 and size <= ARRAY_COLUMNS and size * element_columns(member, member_base) <= MAX_FIELD_COLUMNS:
            total += size * element_columns(member, member_base)
        else:
            total += 1
        total = min(total, MAX_FIELD_COLUMNS + 1)
    return total


def element_columns(array, base):
    if base in PRIMITIVE_COLUMNS:
        return 2
    if len(array) and hasattr(array[0], '__slots__'):
        return columns_of(array[0], base)
    return 1


def as_json(value, base):
    if isinstance(value, (genpy.Time, genpy.Duration)):
        return {'secs': value.secs, 'nsecs': value.nsecs}
    if hasattr(value, '__slots__'):
        out = {}
        for name, slot_type in zip(value.__slots__, value._slot_types):
            member_base, size = split_type(slot_type)
            member = getattr(value, name)
            out[name] = [as_json(v, member_base) for v in member] if size else as_json(member, member_base)
        return out
    if isinstance(value, bytes):
        return value.decode('utf-8', 'replace')
    return number(value)


def flatten(value, base, name, columns, cells):
    if isinstance(value, (genpy.Time, genpy.Duration)):
        columns += [name + '.secs', name + '.nsecs']
        cells += [value.secs, value.nsecs]
        return
    if hasattr(value, '__slots__'):
        for member_name, slot_type in zip(value.__slots__, value._slot_types):
            member_base, size = split_type(slot_type)
            member = getattr(value, member_name)
            full = (name + '.' if name else '') + member_name
            if size == 0:
                flatten(member, member_base, full, columns, cells)
            elif size > 0 and size <= ARRAY_COLUMNS and size * element_columns(member, member_base) <= MAX_FIELD_COLUMNS:
                for i, element in enumerate(member):
                    flatten(element, member_base, '%s[%d]' % (full, i), columns, cells)
            else:
                columns.append(full)
                cells.append([as_json(v, member_base) for v in member])
        return
    columns.append(name)
    cells.append(as_json(value, base))


def main(path):
    bag = rosbag.Bag(path)
    for topic in sorted(bag.get_type_and_topic_info().topics):
        out = {'topic': topic, 'columns': None, 'rows': []}
        try:
            for _, msg, t in bag.read_messages(topics=[topic]):
                columns, cells = ['time_ns'], [t.secs * 1000000000 + t.nsecs]
                flatten(msg, msg._type, '', columns, cells)
                out['columns'] = out['columns'] or columns
                out['rows'].append(cells)
        except Exception as error:  # a definition python3-rosbag cannot use: recorded, not compared
            out = {'topic': topic, 'error': '%s: %s' % (type(error).__name__, error)}
        sys.stdout.write(json.dumps(out) + '\n')


if __name__ == '__main__':
    main(sys.argv[1])
