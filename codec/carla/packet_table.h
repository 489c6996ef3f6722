// The CARLA packet table: one entry per packet kind (id, name, release, size rule, layout, JSON,
// info text, doctor check). Decoding, the info text, the doctor, the writer and the variant
// detection all read it, so a packet kind lives in one place: its entry in a packets_*.h family.
// How to add one: docs/carla.md, "Adding a packet id".
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "carla/format.h"
#include "carla/packet_hooks.h"
#include "carla/payload.h"
#include "core/json.h"

namespace logscope::carla {

// --- What an entry says about its packet -------------------------------------------------------

// The first release whose recorder writes a packet (spec §4). Later values are later releases.
enum class Release : uint8_t { k0_9_5, k0_9_6, k0_9_10, k0_9_14, k0_9_15, kDev /* ue4-dev after 0.9.15 (Nov 2023 on), 0.9.16 */ };
const char* release_name(Release release);  // "0.9.10"; "ue4-dev" for kDev

constexpr uint8_t kNoId = 0xFF;  // "this numbering has no such packet" (user ids are never in the table)

// The id of a packet under each numbering of ids >= 21 (IdOrder). Ids 0-20 are the same in all.
struct PacketIds {
  uint8_t in[3];  // indexed by IdOrder: Release0915, DevDoors, Release0916
  uint8_t operator[](IdOrder order) const { return in[static_cast<int>(order)]; }
};
constexpr PacketIds same_id(uint8_t id) { return {{id, id, id}}; }
constexpr PacketIds ids_by_order(uint8_t release_0915, uint8_t dev_doors, uint8_t release_0916) {
  return {{release_0915, dev_doors, release_0916}};
}

// How the size of a record-carrying payload ("u16 total" + records) is checked.
struct RecordSize {
  uint16_t bytes = 0;         // fixed records: bytes besides the vectors; 0 = variable-size records
  uint8_t vectors = 0;        // FVectors per fixed record (12 bytes in UE4, 24 in UE5)
  bool vector_sized = false;  // the size depends on the FVector width
  bool wheel_sized = false;   // the records hold WheelPhysicsControl (36 or 48 bytes)
};
// Every record is `bytes` + `vectors` FVectors: the payload must be exactly 2 + total x that.
constexpr RecordSize fixed_size(uint16_t bytes, uint8_t vectors = 0) { return {bytes, vectors, vectors > 0, false}; }
// Records hold counted lists or strings: only reading them all checks the size.
enum class SizedBy { Nothing, Vectors, Wheels };
constexpr RecordSize variable_size(SizedBy by = SizedBy::Nothing) { return {0, 0, by == SizedBy::Vectors, by == SizedBy::Wheels}; }

Json vec3_json(const Vec3& v);

// --- The entry ------------------------------------------------------------------------------------

// The decoded records of one packet: a std::vector of the entry's record struct, held without its
// type (the entry knows it). Empty (false) until an entry fills it.
class RecordList {
 public:
  struct Ops {  // what a std::vector<R> needs done without knowing R
    void (*destroy)(void*);
    size_t (*size)(const void*);
    void (*resize)(void*, size_t);
  };
  RecordList() = default;
  RecordList(void* items, const Ops* ops) : items_(items), ops_(ops) {}
  RecordList(RecordList&& other) noexcept : items_(std::exchange(other.items_, nullptr)), ops_(other.ops_) {}
  RecordList& operator=(RecordList&& other) noexcept {
    std::swap(items_, other.items_), std::swap(ops_, other.ops_);
    return *this;
  }
  ~RecordList() {
    if (items_) ops_->destroy(items_);
  }
  explicit operator bool() const { return items_ != nullptr; }
  size_t size() const { return items_ ? ops_->size(items_) : 0; }
  void resize(size_t n) { ops_->resize(items_, n); }
  template <typename R>
  std::vector<R>& items() const {
    return *static_cast<std::vector<R>*>(items_);
  }

 private:
  void* items_ = nullptr;
  const Ops* ops_ = nullptr;
};

template <typename R>
struct VectorOps {
  static void destroy(void* items) { delete static_cast<std::vector<R>*>(items); }
  static size_t size(const void* items) { return static_cast<const std::vector<R>*>(items)->size(); }
  static void resize(void* items, size_t n) { static_cast<std::vector<R>*>(items)->resize(n); }
  static constexpr RecordList::Ops kOps{&destroy, &size, &resize};
};

// What every entry offers, whatever its record struct: decode.cpp, info_text.cpp, doctor.cpp and
// the variant detection use only this. Entries are constants (constexpr): built at compile time,
// with no start-up code, and their typed parts reached through function pointers (no vtables).
class PacketType {
 public:
  const char* name() const { return name_; }
  uint8_t id(IdOrder order) const { return ids_[order]; }
  Release since() const { return since_; }
  // One fixed-size payload (FrameStart, PlatformTime...) instead of "u16 total" + records.
  bool single() const { return single_; }
  size_t payload_bytes() const { return payload_bytes_; }  // single() only
  // Size of one record under a variant; 0 for variable-size records (and single payloads).
  size_t record_bytes(const Variant& v) const { return size_.bytes ? size_.bytes + size_.vectors * v.vector_bytes() : 0; }
  bool variable_size() const { return !single_ && !size_.bytes; }
  bool vector_sized() const { return size_.vector_sized; }
  bool wheel_sized() const { return size_.wheel_sized; }
  bool ue4_only() const { return ue4_only_; }  // the UE5 layout is not known: UE5 payloads stay undecoded
  bool has_text() const { return has_text_; }
  bool text_without_all() const { return text_without_all_; }  // `info` prints it, not only `info --all`
  bool has_check() const { return has_check_; }

  RecordList new_list() const { return RecordList(ops_.new_items(), ops_.list); }
  void read_record(PayloadReader& r, RecordList& list) const { ops_.read_record(*this, r, list); }  // appends one
  void record_json(Json& j, const RecordList& list, size_t i) const { ops_.record_json(*this, j, list, i); }
  void print(InfoText& t, const RecordList& list) const { ops_.print(*this, t, list); }  // an empty list: no records
  // The doctor's hook (has_check() only) on each of `total` records of `r`, read one at a time
  // into one record, the whole ones only; with no reader, on one record of zeros (decode.h check_packet).
  void check_records(PayloadReader* r, uint32_t total, ActorCheck& c) const { ops_.check_records(*this, r, total, c); }
  void write_payload(PayloadWriter& w, const RecordList& list) const { ops_.write_payload(*this, w, list); }  // what was read

 protected:
  struct Ops {
    void* (*new_items)();
    const RecordList::Ops* list;
    void (*read_record)(const PacketType&, PayloadReader&, RecordList&);
    void (*record_json)(const PacketType&, Json&, const RecordList&, size_t);
    void (*print)(const PacketType&, InfoText&, const RecordList&);
    void (*check_records)(const PacketType&, PayloadReader*, uint32_t, ActorCheck&);  // set by .check()
    void (*write_payload)(const PacketType&, PayloadWriter&, const RecordList&);
  };
  constexpr PacketType(const char* name, PacketIds ids, Release since, Ops ops) : name_(name), ids_(ids), since_(since), ops_(ops) {}
  const char* name_;
  PacketIds ids_;
  Release since_;
  Ops ops_;
  bool single_ = false;
  size_t payload_bytes_ = 0;
  RecordSize size_;
  bool ue4_only_ = false, has_text_ = false, text_without_all_ = false, has_check_ = false;
};

// The typed part of an entry with record struct R, and the steps that build it:
//   records<PositionRecord>("Position", same_id(6), Release::k0_9_5, fixed_size(4, 2))
//       .layout([](auto& io, auto& r) { io.u32(r.id), io.vec(r.location), io.vec(r.rotation); })
//       .json(...).text(...).check(...)
// Each step returns a copy with one more piece set.
template <typename Self, typename R, typename TextArg>
class EntryOf : public PacketType {
 public:
  using Record = R;
  using ToJson = void (*)(Json&, const R&);
  using Text = void (*)(InfoText&, const TextArg&);
  using Check = void (*)(ActorCheck&, const R&);

  // The fields of one record in file order, as a generic lambda (it reads and it writes).
  template <typename F>
  constexpr Self layout(F f) const {
    return with([&](Self& s) { s.read_ = f, s.write_ = f; });
  }
  // The record as a JSON object (keys in the order they are set).
  constexpr Self json(ToJson f) const {
    return with([&](Self& s) { s.json_ = f; });
  }
  // Lines of show_recorder_file_info(show_all = true). text_always: printed without show_all too.
  constexpr Self text(Text f) const {
    return with([&](Self& s) { s.text_ = f, s.has_text_ = true; });
  }
  constexpr Self text_always(Text f) const {
    return with([&](Self& s) { s.text_ = f, s.has_text_ = s.text_without_all_ = true; });
  }
  // What the doctor checks in each record (actor lives).
  constexpr Self check(Check f) const {
    return with([&](Self& s) { s.check_ = f, s.has_check_ = true, s.ops_.check_records = &check_records_of; });
  }
  constexpr Self ue4_only() const {
    return with([&](Self& s) { s.ue4_only_ = true; });
  }

  void write(PayloadWriter& w, const R& record) const { write_(w, record); }

 protected:
  constexpr EntryOf(const char* name, PacketIds ids, Release since)
      : PacketType(name, ids, since,
                   Ops{&new_items, &VectorOps<R>::kOps, &read_record_of, &record_json_of, &Self::print_of, nullptr, &Self::write_payload_of}) {}
  static const Self& self(const PacketType& type) { return static_cast<const Self&>(type); }
  static const std::vector<R>& items(const RecordList& list) { return list.items<R>(); }
  Text text_ = nullptr;

 private:
  template <typename Change>
  constexpr Self with(Change change) const {
    Self copy = static_cast<const Self&>(*this);
    change(copy);
    return copy;
  }
  static void* new_items() { return new std::vector<R>(); }
  static void read_record_of(const PacketType& type, PayloadReader& r, RecordList& list) {
    std::vector<R>& records = list.items<R>();
    records.emplace_back();
    self(type).read_(r, records.back());
  }
  static void record_json_of(const PacketType& type, Json& j, const RecordList& list, size_t i) {
    if (auto json = self(type).json_) json(j, items(list)[i]);
  }
  // Only the entries with a check have it (the page's first download counts every byte).
  static void check_records_of(const PacketType& type, PayloadReader* r, uint32_t total, ActorCheck& c) {
    if (!r) return self(type).check_(c, R{});
    R record;
    for (uint32_t i = 0; i < total && r->ok() && r->cursor().remaining() > 0; ++i) {
      record = R{};
      self(type).read_(*r, record);
      if (r->ok()) self(type).check_(c, record);
    }
  }
  void (*read_)(PayloadReader&, R&) = nullptr;
  void (*write_)(PayloadWriter&, const R&) = nullptr;
  ToJson json_ = nullptr;
  Check check_ = nullptr;
};

// A packet of "u16 total" + records of struct R.
template <typename R>
class RecordPacket final : public EntryOf<RecordPacket<R>, R, std::vector<R>> {
  using Entry = EntryOf<RecordPacket<R>, R, std::vector<R>>;
  friend Entry;

 public:
  constexpr RecordPacket(const char* name, PacketIds ids, Release since, RecordSize size) : Entry(name, ids, since) { this->size_ = size; }

 private:
  static void print_of(const PacketType& type, InfoText& t, const RecordList& list) {
    auto text = Entry::self(type).text_;
    if (!text) return;
    if (list)
      text(t, Entry::items(list));
    else
      text(t, std::vector<R>());
  }
  static void write_payload_of(const PacketType& type, PayloadWriter& w, const RecordList& list) {
    w.u16(static_cast<uint16_t>(list.size()));
    for (const R& record : Entry::items(list)) Entry::self(type).write(w, record);
  }
};

// A packet whose payload is one fixed-size struct R, without a total. Its JSON fields go straight
// into the packet's object.
template <typename R>
class SinglePacket final : public EntryOf<SinglePacket<R>, R, R> {
  using Entry = EntryOf<SinglePacket<R>, R, R>;
  friend Entry;

 public:
  constexpr SinglePacket(const char* name, PacketIds ids, Release since, size_t payload_bytes) : Entry(name, ids, since) {
    this->single_ = true;
    this->payload_bytes_ = payload_bytes;
  }

 private:
  static void print_of(const PacketType& type, InfoText& t, const RecordList& list) {
    if (auto text = Entry::self(type).text_; text && list.size()) text(t, Entry::items(list)[0]);
  }
  static void write_payload_of(const PacketType& type, PayloadWriter& w, const RecordList& list) {
    for (const R& record : Entry::items(list)) Entry::self(type).write(w, record);
  }
};

template <typename R>
constexpr RecordPacket<R> records(const char* name, PacketIds ids, Release since, RecordSize size) {
  return RecordPacket<R>(name, ids, since, size);
}
template <typename R>
constexpr SinglePacket<R> single(const char* name, PacketIds ids, Release since, size_t payload_bytes) {
  return SinglePacket<R>(name, ids, since, payload_bytes);
}

// --- The table ------------------------------------------------------------------------------------

// Every entry of the packets_*.h families (packet_table.cpp lists the families).
const std::vector<const PacketType*>& packet_types();
// The entry for an id under a variant's numbering; null for user packets (>= 100) and unknown ids.
const PacketType* packet_type(uint8_t id, const Variant& variant);

// Facts about a raw id over every numbering, for the scan, which reads before the variant is known.
bool known_in_any_order(uint8_t id);
bool order_dependent(uint8_t id);   // the numberings disagree on it (ids 21-23)
bool vector_sized_id(uint8_t id);   // its size depends on the FVector width in some numbering
bool variable_size_id(uint8_t id);  // variable-size records in some numbering
bool event_id(uint8_t id);          // records that `info` prints without --all (EventAdd ... Collision)
uint8_t highest_known_id();         // 23
// The earliest release any numbering writes this id in; false for ids no numbering knows.
bool release_of_id(uint8_t id, Release* release);
// The latest of those releases over the ids a file has packets of (0.9.5 for none).
Release latest_release(const std::array<uint64_t, 256>& packet_counts);
// "21-23": the ids whose meaning depends on the numbering.
std::string order_dependent_range();

}  // namespace logscope::carla
