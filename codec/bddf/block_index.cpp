#include "bddf/block_index.h"

#include "bddf/format.h"
#include "core/sequential.h"

namespace logscope::bddf {
namespace {

enum WireType : uint32_t { kVarint = 0, kLen = 2 };

// Inlined whole into the loop: in wasm, a cursor that a call sees lives in memory; with these as
// calls, decoding a 50 GB file's index (8.3 M entries) took 3.5 times native's time.
#define HOT [[gnu::always_inline]] inline

// A cursor over wire bytes: every read checks the bytes that remain.
struct Wire {
  const uint8_t* at;
  const uint8_t* end;

  // Most of an index is varints: a one-byte one inline, one with ten bytes left unrolled without
  // checking the end, only the last few of a view byte by byte.
  HOT bool varint(uint64_t* value) {
    if (at < end && *at < 0x80) {
      *value = *at++;
      return true;
    }
    return end - at >= 10 ? varint_unchecked(value) : varint_checked(value);
  }
  HOT bool varint_unchecked(uint64_t* value) {
    uint64_t v = 0;
    // Not unrolled: unrolled at every varint it grew the page's first visit by 1.1 KB, no faster.
#ifdef __clang__
#pragma clang loop unroll(disable)
#endif
    for (int i = 0; i < 10; ++i) {
      uint8_t byte = at[i];
      v |= uint64_t{byte & 0x7fu} << (7 * i);
      if (!(byte & 0x80)) {
        if (i == 9 && byte > 1) return false;  // more than 64 bits: let protobuf judge it
        at += i + 1;
        *value = v;
        return true;
      }
    }
    return false;
  }
  HOT bool varint_checked(uint64_t* value) {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at == end) return false;
      uint8_t byte = *at++;
      if (shift == 63 && byte > 1) return false;
      v |= uint64_t{byte & 0x7fu} << shift;
      if (!(byte & 0x80)) {
        *value = v;
        return true;
      }
    }
    return false;
  }
  HOT bool tag(uint32_t* field, uint32_t* type) {
    uint64_t t;
    if (!varint(&t) || t > UINT32_MAX) return false;
    *field = static_cast<uint32_t>(t >> 3);
    *type = static_cast<uint32_t>(t & 7);
    return *field != 0;
  }
  HOT bool sub(Wire* inner) {
    uint64_t length;
    if (!varint(&length) || length > static_cast<uint64_t>(end - at)) return false;
    *inner = Wire{at, at + length};
    at += length;
    return true;
  }
};

HOT bool decode_timestamp(Wire wire, int64_t* seconds, int32_t* nanos) {
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

HOT bool decode_entry(Wire wire, PlainBlockIndex* out, std::vector<int64_t>& extra, bool keep) {
  extra.clear();
  uint64_t offset = 0;
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
      if (!wire.varint(&offset)) return false;
      seen_offset = true;
    } else if (field == 3 && type == kLen) {  // packed additional_indexes
      Wire packed;
      if (!wire.sub(&packed)) return false;
      for (uint64_t v; packed.at < packed.end;) {
        if (!packed.varint(&v)) return false;
        extra.push_back(static_cast<int64_t>(v));
      }
    } else if (field == 3 && type == kVarint) {
      uint64_t v;
      if (!wire.varint(&v)) return false;
      extra.push_back(static_cast<int64_t>(v));
    } else {
      return false;
    }
  }
  if (extra.size() > UINT32_MAX) return false;
  if (keep) out->entries.push_back(to_ns(seconds, nanos), offset, extra.data(), extra.size());
  return true;
}

// Bytes a field's tag and length (or value) take at most: two 10-byte varints.
constexpr size_t kFieldHead = 20;
// An entry longer than this is not the plain encoding's (a few dozen bytes): protobuf judges it.
constexpr size_t kMaxEntry = 1u << 20;
constexpr size_t kSpan = 1u << 20;  // bytes decoded per view

// What decoding the index's fields carries from one view to the next.
struct IndexFields {
  PlainBlockIndex* out = nullptr;
  bool keep_entries = true;
  bool seen[5] = {};
  std::vector<int64_t> extra;
  size_t need = 0;  // bytes the next view must hold for the field where the last one stopped
};

// The fields wholly inside one view, and how many bytes they took. A call per view, not one loop
// for the whole index: V8 runs each call of a wasm function in the code it had when the call
// began, and a first call in its baseline code; one call per series kept a 50 GB file's biggest
// series there to its end (the page's summary took 560 ms, 480-500 ms with a call per megabyte).
bool decode_view(const uint8_t* data, size_t span, bool last, IndexFields& state, size_t* consumed) {
  Wire sbi{data, data + span};
  state.need = 0;
  uint32_t field, type;
  while (sbi.at < sbi.end) {
    const uint8_t* start = sbi.at;
    size_t left = static_cast<size_t>(sbi.end - start);
    if (!last && left < kFieldHead) {  // the tag and length may run past the view
      state.need = kFieldHead;
      break;
    }
    if (!sbi.tag(&field, &type)) return false;
    if (field == 3 && type == kLen) {
      uint64_t entry_length;
      if (!sbi.varint(&entry_length) || entry_length > kMaxEntry) return false;
      if (entry_length > static_cast<uint64_t>(sbi.end - sbi.at)) {
        if (last) return false;
        sbi.at = start;
        state.need = static_cast<size_t>(entry_length) + kFieldHead;
        break;
      }
      Wire entry{sbi.at, sbi.at + entry_length};
      sbi.at += entry_length;
      if (!decode_entry(entry, state.out, state.extra, state.keep_entries)) return false;
      continue;
    }
    uint64_t v;
    if (type != kVarint || field == 0 || field > 4 || state.seen[field] || !sbi.varint(&v)) return false;
    state.seen[field] = true;
    if (field == 1) {
      if (v > UINT32_MAX) return false;
      state.out->series_index = static_cast<uint32_t>(v);
    } else if (field == 2) {
      state.out->descriptor_file_offset = v;
    } else {
      state.out->total_bytes = v;
    }
  }
  *consumed = static_cast<size_t>(sbi.at - data);
  return true;
}

#undef HOT
}  // namespace

bool decode_block_index_fast(ByteSource& source, uint64_t offset, uint64_t size, PlainBlockIndex* out, bool keep_entries) {
  *out = PlainBlockIndex();
  if (size == 0) return false;
  // The reader's windows (read_once) pass a cache by without filling it: in 4 MiB windows, then
  // kept, the index filled the page's 64 MiB cache with bytes never read again, beside the 91 MiB
  // of entries at 100 GB. Its default window (8 MiB) keeps requests as large as the cache's.
  SequentialReader reader(source, offset, offset + size);
  // Exactly one field: series_block_index (3), spanning the whole block.
  size_t head_size = static_cast<size_t>(std::min<uint64_t>(kFieldHead, size));
  const uint8_t* head = reader.view(offset, head_size);
  if (!head) return false;
  Wire block{head, head + head_size};
  uint32_t field, type;
  uint64_t length;
  if (!block.tag(&field, &type) || field != 3 || type != kLen || !block.varint(&length)) return false;
  uint64_t begin = offset + static_cast<uint64_t>(block.at - head), end = offset + size;
  if (length != end - begin) return false;

  IndexFields state;
  state.out = out;
  state.keep_entries = keep_entries;
  // Called through a pointer no optimizer sees through: wasm-opt inlines a function called from
  // one place (noinline is not passed on to it), which put the loop back into one long call.
  static bool (*volatile const decode_view_call)(const uint8_t*, size_t, bool, IndexFields&, size_t*) = decode_view;
  uint64_t pos = begin;
  while (pos < end) {
    size_t span = static_cast<size_t>(std::min<uint64_t>(std::max(kSpan, state.need), end - pos));
    bool last = pos + span == end;  // a field cut here is cut for good
    const uint8_t* data = reader.view(pos, span);
    if (!data) return false;
    size_t consumed;
    if (!decode_view_call(data, span, last, state, &consumed)) return false;
    if (consumed == 0 && state.need <= span) state.need = span + kFieldHead;  // nothing fitted: a larger view
    pos += consumed;
  }
  return true;
}

bool decode_block_index_fast(const std::string& descriptor_block, PlainBlockIndex* out) {
  MemoryByteSource source(reinterpret_cast<const uint8_t*>(descriptor_block.data()), descriptor_block.size());
  return decode_block_index_fast(source, 0, descriptor_block.size(), out);
}

void block_index_from_message(const bosdyn::api::SeriesBlockIndex& sbi, PlainBlockIndex* out) {
  *out = PlainBlockIndex();
  out->series_index = sbi.series_index();
  out->descriptor_file_offset = sbi.descriptor_file_offset();
  out->total_bytes = sbi.total_bytes();
  for (const auto& e : sbi.block_entries())
    out->entries.push_back(to_ns(e.timestamp().seconds(), e.timestamp().nanos()), e.file_offset(),
                           e.additional_indexes().data(), static_cast<size_t>(e.additional_indexes_size()));
}

}  // namespace logscope::bddf
