#include "bddf/block_index.h"

#include "bddf/format.h"

namespace logscope::bddf {
namespace {

enum WireType : uint32_t { kVarint = 0, kLen = 2 };

// A cursor over wire bytes: every read checks the bytes that remain.
struct Wire {
  const uint8_t* at;
  const uint8_t* end;

  bool varint(uint64_t* value) {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at == end) return false;
      uint8_t byte = *at++;
      if (shift == 63 && byte > 1) return false;  // more than 64 bits: let protobuf judge it
      v |= uint64_t{byte & 0x7fu} << shift;
      if (!(byte & 0x80)) {
        *value = v;
        return true;
      }
    }
    return false;
  }
  bool tag(uint32_t* field, uint32_t* type) {
    uint64_t t;
    if (!varint(&t) || t > UINT32_MAX) return false;
    *field = static_cast<uint32_t>(t >> 3);
    *type = static_cast<uint32_t>(t & 7);
    return *field != 0;
  }
  bool sub(Wire* inner) {
    uint64_t length;
    if (!varint(&length) || length > static_cast<uint64_t>(end - at)) return false;
    *inner = Wire{at, at + length};
    at += length;
    return true;
  }
};

bool decode_timestamp(Wire wire, int64_t* seconds, int32_t* nanos) {
  bool seen_seconds = false, seen_nanos = false;
  while (wire.at < wire.end) {
    uint32_t field, type;
    uint64_t v;
    if (!wire.tag(&field, &type) || type != kVarint || !wire.varint(&v)) return false;
    if (field == 1 && !seen_seconds) {
      *seconds = static_cast<int64_t>(v);
      seen_seconds = true;
    } else if (field == 2 && !seen_nanos) {
      *nanos = static_cast<int32_t>(static_cast<uint32_t>(v));
      seen_nanos = true;
    } else {
      return false;
    }
  }
  return true;
}

bool decode_entry(Wire wire, PlainBlockIndex* out) {
  BlockEntry entry;
  entry.extra_first = static_cast<uint32_t>(out->extra.size());
  int64_t seconds = 0;
  int32_t nanos = 0;
  bool seen_timestamp = false, seen_offset = false;
  while (wire.at < wire.end) {
    uint32_t field, type;
    if (!wire.tag(&field, &type)) return false;
    if (field == 1 && type == kLen && !seen_timestamp) {
      Wire timestamp;
      if (!wire.sub(&timestamp) || !decode_timestamp(timestamp, &seconds, &nanos)) return false;
      seen_timestamp = true;
    } else if (field == 2 && type == kVarint && !seen_offset) {
      if (!wire.varint(&entry.file_offset)) return false;
      seen_offset = true;
    } else if (field == 3 && type == kLen) {  // packed additional_indexes
      Wire packed;
      if (!wire.sub(&packed)) return false;
      for (uint64_t v; packed.at < packed.end;) {
        if (!packed.varint(&v)) return false;
        out->extra.push_back(static_cast<int64_t>(v));
      }
    } else if (field == 3 && type == kVarint) {
      uint64_t v;
      if (!wire.varint(&v)) return false;
      out->extra.push_back(static_cast<int64_t>(v));
    } else {
      return false;
    }
  }
  uint64_t count = out->extra.size() - entry.extra_first;
  if (count > UINT32_MAX) return false;
  entry.extra_count = static_cast<uint32_t>(count);
  entry.timestamp_ns = to_ns(seconds, nanos);
  out->entries.push_back(entry);
  return true;
}

}  // namespace

bool decode_block_index_fast(const uint8_t* descriptor_block, size_t size, PlainBlockIndex* out) {
  *out = PlainBlockIndex();
  Wire block{descriptor_block, descriptor_block + size};
  uint32_t field, type;
  Wire sbi;
  // Exactly one field: series_block_index (3), spanning the whole block.
  if (!block.tag(&field, &type) || field != 3 || type != kLen || !block.sub(&sbi) || block.at != block.end) return false;
  out->entries.reserve(static_cast<size_t>(sbi.end - sbi.at) / 16);  // an entry is ~16-20 bytes: no regrowth
  bool seen[5] = {};
  while (sbi.at < sbi.end) {
    if (!sbi.tag(&field, &type)) return false;
    if (field == 3 && type == kLen) {
      Wire entry;
      if (!sbi.sub(&entry) || !decode_entry(entry, out)) return false;
      continue;
    }
    uint64_t v;
    if (type != kVarint || field == 0 || field > 4 || seen[field] || !sbi.varint(&v)) return false;
    seen[field] = true;
    if (field == 1) {
      if (v > UINT32_MAX) return false;
      out->series_index = static_cast<uint32_t>(v);
    } else if (field == 2) {
      out->descriptor_file_offset = v;
    } else {
      out->total_bytes = v;
    }
  }
  return true;
}

void block_index_from_message(const bosdyn::api::SeriesBlockIndex& sbi, PlainBlockIndex* out) {
  *out = PlainBlockIndex();
  out->series_index = sbi.series_index();
  out->descriptor_file_offset = sbi.descriptor_file_offset();
  out->total_bytes = sbi.total_bytes();
  out->entries.reserve(static_cast<size_t>(sbi.block_entries_size()));
  for (const auto& e : sbi.block_entries()) {
    BlockEntry entry;
    entry.timestamp_ns = to_ns(e.timestamp().seconds(), e.timestamp().nanos());
    entry.file_offset = e.file_offset();
    entry.extra_first = static_cast<uint32_t>(out->extra.size());
    entry.extra_count = static_cast<uint32_t>(e.additional_indexes_size());
    out->extra.insert(out->extra.end(), e.additional_indexes().begin(), e.additional_indexes().end());
    out->entries.push_back(entry);
  }
}

}  // namespace logscope::bddf
