#include "ulog/reader.h"

#include <algorithm>
#include <cstring>

#include "ulog/values.h"

namespace logscope::ulog {

MessageWalker::MessageWalker(ByteSource& source, uint64_t begin, uint64_t end)
    : source_(source), mapped_(source.mapped_data()), buffer_offset_(begin), position_(begin), end_(std::min(end, source.size())) {}

bool MessageWalker::ensure(size_t n) {
  if (mapped_) return position_ + n <= source_.size();
  if (position_ >= buffer_offset_ && position_ + n <= buffer_offset_ + buffer_length_) return true;
  // Keep what is left of the window, then read on from its end.
  size_t keep = 0;
  if (position_ >= buffer_offset_ && position_ < buffer_offset_ + buffer_length_) {
    keep = static_cast<size_t>(buffer_offset_ + buffer_length_ - position_);
    std::memmove(buffer_.data(), buffer_.data() + (position_ - buffer_offset_), keep);
  }
  size_t capacity = std::max(kWindow, n);
  if (buffer_.size() < capacity) buffer_.resize(capacity);
  buffer_offset_ = position_;
  uint64_t from = position_ + keep;
  uint64_t want = std::min<uint64_t>(capacity - keep, end_ > from ? end_ - from : 0);
  size_t got = want ? source_.read(from, buffer_.data() + keep, static_cast<size_t>(want)) : 0;
  buffer_length_ = keep + got;
  return n <= buffer_length_;
}

bool MessageWalker::next(RawMessage* out) {
  if (position_ >= end_) return false;
  uint64_t left = end_ - position_;
  if (left < kMessageHeader || !ensure(kMessageHeader)) {
    cut_ = true;
    declared_ = -1;
    present_ = left;
    return false;
  }
  const uint8_t* p = data();
  uint16_t size = static_cast<uint16_t>(p[0] | (p[1] << 8));
  if (kMessageHeader + size > left || !ensure(kMessageHeader + size)) {
    cut_ = true;
    declared_ = size;
    present_ = left;
    return false;
  }
  p = data();
  out->offset = position_;
  out->type = p[2];
  out->size = size;
  out->body = p + kMessageHeader;
  position_ += kMessageHeader + size;
  return true;
}

bool FlagBits::unknown_incompatible() const {
  if (incompat[0] & ~kIncompatDataAppended) return true;
  for (int i = 1; i < 8; ++i)
    if (incompat[i]) return true;
  return false;
}

const Subscription* FileModel::subscription(const std::string& name, uint8_t multi_id) const {
  for (const Subscription& s : subscriptions)
    if (s.name == name && s.multi_id == multi_id) return &s;
  return nullptr;
}

std::optional<Json> FileModel::info(const std::string& name) const {
  for (const KeyValue& kv : infos)
    if (kv.name == name) return kv.value;
  return std::nullopt;
}

std::string FileModel::info_text(const std::string& name) const {
  std::optional<Json> v = info(name);
  return v ? value_text(*v) : std::string();
}

namespace {

uint16_t u16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
uint64_t u64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// A repeated finding is one problem at its first offset, its count added at the end.
struct Repeats {
  std::map<std::string, std::pair<size_t, uint64_t>> seen;  // code -> (problem index, count)
  void add(FileModel* m, Severity severity, uint64_t offset, const std::string& code, const std::string& message) {
    auto it = seen.find(code);
    if (it != seen.end()) {
      ++it->second.second;
      return;
    }
    seen.emplace(code, std::make_pair(m->problems.size(), uint64_t{1}));
    m->problems.push_back(Problem{severity, offset, code, message});
  }
  void finish(FileModel* m) {
    for (auto& [code, at] : seen)
      if (at.second > 1) m->problems[at.first].message += " (" + std::to_string(at.second) + " times in all; the first is shown)";
  }
};

class Pass {
 public:
  Pass(ByteSource& source, FileModel* m, const ProgressFn& progress) : source_(source), m_(m), ticker_(progress, source.size()) {
    active_.assign(65536, -1);
  }

  void run();

 private:
  // One message; false stops the section (unknown incompatible flags).
  bool handle(const RawMessage& msg, size_t section);
  void key_value(const RawMessage& msg, size_t skip, KeyValue* out, bool* ok);
  void data(const RawMessage& msg);
  void subscribe(const RawMessage& msg);
  void enter_data(uint64_t offset) {
    if (!in_data_) {
      in_data_ = true;
      m_->definitions_end = offset;
    }
    if (dirty_) m_->formats.resolve(), dirty_ = false;
  }
  void note_time(uint64_t t) {
    if (!m_->min_us || t < *m_->min_us) m_->min_us = t;
    if (!m_->max_us || t > *m_->max_us) m_->max_us = t;
  }
  void walk_section(size_t k);
  // A hostile file of small messages must not fill memory: past kMaxKept items of one kind,
  // they are counted and not kept (one warning says so).
  bool room(size_t kept, uint64_t offset, const char* what) {
    if (kept < kMaxKept) return true;
    repeats_.add(m_, Severity::Warning, offset, "ulog.read.not_kept", std::string("more than ") + std::to_string(kMaxKept) + " " + what + ": the rest are counted, not kept");
    return false;
  }
  static constexpr size_t kMaxKept = 1 << 20;

  ByteSource& source_;
  FileModel* m_;
  ProgressTicker ticker_;
  Repeats repeats_;
  std::vector<int32_t> active_;  // msg_id -> subscription index
  std::map<uint16_t, uint64_t> unknown_ids_;  // msg_id -> first data message that used it undeclared
  bool in_data_ = false;
  bool dirty_ = false;
  bool stop_ = false;
  uint64_t last_us_ = 0;
};

void Pass::key_value(const RawMessage& msg, size_t skip, KeyValue* out, bool* ok) {
  *ok = false;
  if (msg.size < skip + 1) return;
  size_t key_len = msg.body[skip];
  if (skip + 1 + key_len > msg.size) return;
  std::string key(reinterpret_cast<const char*>(msg.body + skip + 1), key_len);
  if (!split_key(key, &out->type, &out->name)) return;
  size_t value_at = skip + 1 + key_len;
  out->value = typed_value(out->type, msg.body + value_at, msg.size - value_at);
  out->offset = msg.offset;
  out->in_data = in_data_;
  out->timestamp_us = last_us_;
  *ok = true;
}

void Pass::subscribe(const RawMessage& msg) {
  enter_data(msg.offset);
  if (msg.size < 4) {
    repeats_.add(m_, Severity::Error, msg.offset, "ulog.subscription.malformed", "an add-subscription message of " + std::to_string(msg.size) + " bytes (at least 4)");
    return;
  }
  Subscription s;
  s.multi_id = msg.body[0];
  s.msg_id = u16(msg.body + 1);
  s.name = char_string(msg.body + 3, msg.size - 3);
  s.offset = msg.offset;
  auto it = m_->formats.by_name.find(s.name);
  if (it == m_->formats.by_name.end()) {
    repeats_.add(m_, Severity::Error, msg.offset, "ulog.subscription.unknown_format",
                 "subscription " + std::to_string(s.msg_id) + " names '" + s.name + "', which no format defines: its data cannot be decoded");
  } else {
    s.format = static_cast<int>(it->second);
    const Format& f = m_->formats.formats[it->second];
    if (!f.resolved)
      repeats_.add(m_, Severity::Error, msg.offset, "ulog.format.unresolved", "subscription '" + s.name + "': " + f.error);
  }
  if (active_[s.msg_id] >= 0)
    repeats_.add(m_, Severity::Warning, msg.offset, "ulog.subscription.msg_id_reused",
                 "msg_id " + std::to_string(s.msg_id) + " is subscribed again without a remove message; the newer subscription wins");
  auto early = unknown_ids_.find(s.msg_id);
  if (early != unknown_ids_.end()) {
    m_->problems.push_back(Problem{Severity::Error, early->second, "ulog.subscription.used_before_declared",
                                   "data with msg_id " + std::to_string(s.msg_id) + " at byte " + std::to_string(early->second) +
                                       " came before its subscription ('" + s.name + "') at byte " + std::to_string(msg.offset) +
                                       ": those messages cannot be assigned"});
    unknown_ids_.erase(early);
  }
  if (!room(m_->subscriptions.size(), msg.offset, "subscriptions")) return;
  active_[s.msg_id] = static_cast<int32_t>(m_->subscriptions.size());
  m_->subscriptions.push_back(std::move(s));
}

void Pass::data(const RawMessage& msg) {
  if (msg.size < 2) {
    repeats_.add(m_, Severity::Error, msg.offset, "ulog.data.malformed", "a data message of " + std::to_string(msg.size) + " bytes (no msg_id)");
    return;
  }
  uint16_t id = u16(msg.body);
  int32_t k = active_[id];
  if (k < 0) {
    unknown_ids_.emplace(id, msg.offset);
    repeats_.add(m_, Severity::Error, msg.offset, "ulog.data.unknown_subscription",
                 "data with msg_id " + std::to_string(id) + ", which no subscription declares here: skipped");
    return;
  }
  Subscription& s = m_->subscriptions[static_cast<size_t>(k)];
  ++m_->data_messages;
  ++s.messages;
  size_t payload = msg.size - 2u;
  s.bytes += payload;
  if (s.format < 0) return;
  const Format& f = m_->formats.formats[static_cast<size_t>(s.format)];
  if (!f.resolved) return;
  if (payload < f.data_size || payload > f.size) {
    ++s.bad_size;
    repeats_.add(m_, payload < f.data_size ? Severity::Error : Severity::Warning, msg.offset, "ulog.data.size_mismatch",
                 "a '" + s.name + "' message of " + std::to_string(payload) + " bytes does not fit its format (" + std::to_string(f.data_size) +
                     (f.data_size != f.size ? " to " + std::to_string(f.size) : std::string()) + " bytes)");
  }
  if (f.timestamp_field < 0) return;
  const Field& tf = f.fields[static_cast<size_t>(f.timestamp_field)];
  if (tf.offset + 8u > payload) return;
  uint64_t t = u64(msg.body + 2 + tf.offset);
  if (s.last_us && t < *s.last_us) {
    ++s.backwards;
    repeats_.add(m_, Severity::Warning, msg.offset, "ulog.data.time_backwards",
                 "'" + s.name + "' (multi_id " + std::to_string(s.multi_id) + ") goes back in time: " + std::to_string(t) + " µs after " +
                     std::to_string(*s.last_us) + " µs");
  }
  if (!s.first_us) s.first_us = t;
  s.last_us = t;
  if (!s.min_us || t < *s.min_us) s.min_us = t;
  if (!s.max_us || t > *s.max_us) s.max_us = t;
  note_time(t);
  last_us_ = t;
}

bool Pass::handle(const RawMessage& msg, size_t section) {
  ++m_->type_counts[msg.type];
  switch (msg.type) {
    case 'D':
      data(msg);
      break;
    case 'B': {
      if (m_->messages != 1 || section != 0)
        repeats_.add(m_, Severity::Warning, msg.offset, "ulog.flags.not_first", "a flag-bits message that is not the first message: ignored");
      else if (msg.size < kFlagBitsSize)
        m_->problems.push_back(Problem{Severity::Error, msg.offset, "ulog.flags.malformed",
                                       "the flag-bits message has " + std::to_string(msg.size) + " bytes (40 expected): ignored"});
      else {
        FlagBits& b = m_->flags;
        b.present = true;
        b.offset = msg.offset;
        std::memcpy(b.compat, msg.body, 8);
        std::memcpy(b.incompat, msg.body + 8, 8);
        for (int i = 0; i < 3; ++i) b.appended[i] = u64(msg.body + 16 + 8 * i);
        if (b.unknown_incompatible()) {
          m_->problems.push_back(Problem{Severity::Error, msg.offset, "ulog.flags.unknown_incompatible",
                                         "incompatible flag bits this reader does not know are set: the file's data cannot be read safely, "
                                         "so reading stops after the flag bits"});
          return false;
        }
      }
      break;
    }
    case 'F': {
      Format f;
      std::string why;
      if (!parse_format(std::string_view(reinterpret_cast<const char*>(msg.body), msg.size), &f, &why)) {
        repeats_.add(m_, Severity::Error, msg.offset, "ulog.format.malformed", "a format message that does not parse: " + why);
        break;
      }
      f.offset = msg.offset;
      if (!m_->formats.find(f.name) && !room(m_->formats.formats.size(), msg.offset, "formats")) break;
      m_->formats.add(std::move(f));
      dirty_ = true;
      if (in_data_) m_->formats.resolve(), dirty_ = false;
      break;
    }
    case 'I':
    case 'P': {
      KeyValue kv;
      bool ok;
      key_value(msg, 0, &kv, &ok);
      if (!ok) {
        repeats_.add(m_, Severity::Error, msg.offset, "ulog.info.malformed", "an " + type_name(msg.type) + " message whose key does not fit it");
        break;
      }
      std::vector<KeyValue>& list = msg.type == 'I' ? m_->infos : m_->parameters;
      if (room(list.size(), msg.offset, "info or parameter messages")) list.push_back(std::move(kv));
      break;
    }
    case 'Q': {
      KeyValue kv;
      bool ok;
      key_value(msg, 1, &kv, &ok);
      if (!ok) {
        repeats_.add(m_, Severity::Error, msg.offset, "ulog.info.malformed", "a default parameter message whose key does not fit it");
        break;
      }
      kv.default_types = msg.body[0];
      if (room(m_->defaults.size(), msg.offset, "default parameter messages")) m_->defaults.push_back(std::move(kv));
      break;
    }
    case 'M': {
      KeyValue kv;
      bool ok;
      key_value(msg, 1, &kv, &ok);
      if (!ok) {
        repeats_.add(m_, Severity::Error, msg.offset, "ulog.info.malformed", "an info multiple message whose key does not fit it");
        break;
      }
      bool continued = msg.body[0] != 0;
      auto it = std::find_if(m_->multi_infos.begin(), m_->multi_infos.end(), [&](const MultiInfo& x) { return x.name == kv.name; });
      if (!room(m_->multi_values, msg.offset, "info multiple values")) break;
      ++m_->multi_values;
      if (it == m_->multi_infos.end()) it = m_->multi_infos.insert(m_->multi_infos.end(), MultiInfo{kv.name, kv.type, {}, {}});
      if (continued && !it->values.empty() && it->values.back().is_string() && kv.value.is_string()) {
        it->values.back() = Json(it->values.back().as_string() + kv.value.as_string());
      } else if (continued && !it->values.empty()) {
        Json joined = it->values.back();
        if (!joined.is_array()) {
          joined = Json::array();
          joined.push_back(it->values.back());
        }
        joined.push_back(kv.value);
        it->values.back() = std::move(joined);
      } else {
        it->values.push_back(std::move(kv.value));
        it->offsets.push_back(msg.offset);
      }
      break;
    }
    case 'A':
      subscribe(msg);
      break;
    case 'R': {
      enter_data(msg.offset);
      if (msg.size < 2) break;
      uint16_t id = u16(msg.body);
      if (active_[id] >= 0) m_->subscriptions[static_cast<size_t>(active_[id])].removed = true;
      active_[id] = -1;
      break;
    }
    case 'L':
    case 'C': {
      enter_data(msg.offset);
      bool tagged = msg.type == 'C';
      size_t head = tagged ? 11 : 9;
      if (msg.size < head) {
        repeats_.add(m_, Severity::Error, msg.offset, "ulog.string.malformed", "a logged string message of " + std::to_string(msg.size) + " bytes");
        break;
      }
      LoggedString s;
      s.level = msg.body[0];
      s.tagged = tagged;
      if (tagged) s.tag = u16(msg.body + 1);
      s.timestamp_us = u64(msg.body + (tagged ? 3 : 1));
      s.text = std::string(reinterpret_cast<const char*>(msg.body + head), msg.size - head);
      s.offset = msg.offset;
      ++m_->string_count;
      if (room(m_->strings.size(), msg.offset, "logged strings")) m_->strings.push_back(std::move(s));
      break;
    }
    case 'S':
      enter_data(msg.offset);
      if (msg.size < 8 || std::memcmp(msg.body, kSyncMagic, 8) != 0)
        repeats_.add(m_, Severity::Warning, msg.offset, "ulog.sync.bad_magic", "a sync message without the sync magic");
      ++m_->syncs;
      break;
    case 'O': {
      enter_data(msg.offset);
      if (msg.size < 2) break;
      Dropout d{msg.offset, u16(msg.body), last_us_};
      if (room(m_->dropouts.size(), msg.offset, "dropouts")) m_->dropouts.push_back(d);
      repeats_.add(m_, Severity::Warning, msg.offset, "ulog.data.dropout",
                   "the logger dropped messages for " + std::to_string(d.duration_ms) + " ms (its buffer was full)");
      break;
    }
    default:
      repeats_.add(m_, Severity::Warning, msg.offset, "ulog.message.unknown_type",
                   "a message of unknown type " + std::to_string(msg.type) + " (" + std::to_string(msg.size) + " bytes): skipped by its length");
      break;
  }
  return true;
}

void Pass::walk_section(size_t k) {
  Section& section = m_->sections[k];
  MessageWalker walker(source_, section.begin, section.end);
  RawMessage msg;
  while (!stop_ && walker.next(&msg)) {
    if (m_->messages % kCheckpointEvery == 0) m_->checkpoints.push_back(Checkpoint{m_->messages, msg.offset, k});
    ++m_->messages;
    ++section.messages;
    if (!handle(msg, k)) {
      stop_ = true;
      section.walked_to = walker.position();
      return;
    }
    // The flag bits name where appended data starts: the main section ends there.
    if (k == 0 && msg.type == 'B' && m_->flags.present && m_->flags.offset == msg.offset && m_->flags.data_appended()) {
      uint64_t first = UINT64_MAX;
      for (uint64_t off : m_->flags.appended)
        if (off > msg.end() && off < first) first = off;
      if (first != UINT64_MAX) section.end = std::min(first, section.end), walker.set_end(section.end);
    }
    if (!ticker_.update(msg.end())) {
      stop_ = true;
      m_->problems.push_back(Problem{Severity::Warning, msg.end(), "ulog.read.cancelled", "reading was cancelled"});
      break;
    }
  }
  section.walked_to = walker.position();
  if (walker.cut()) {
    uint64_t at = walker.position();
    bool into_next = section.end < m_->file_size;
    std::string what = walker.declared() < 0 ? "inside a message header (" + std::to_string(walker.present()) + " bytes left)"
                                             : "inside a message that declares " + std::to_string(walker.declared()) + " bytes (" +
                                                   std::to_string(walker.present() - std::min<uint64_t>(walker.present(), kMessageHeader)) + " present)";
    if (into_next)
      m_->problems.push_back(Problem{Severity::Error, at, "ulog.appended.past_offset",
                                     "a message runs past the appended-data offset " + std::to_string(section.end) + ": the section ends " + what});
    else
      m_->problems.push_back(Problem{Severity::Error, at, "ulog.file.truncated",
                                     "the file ends " + what + ": every complete message before byte " + std::to_string(at) + " is kept"});
    m_->damaged.emplace_back(at, section.end);
    if (!m_->recovery.performed) {
      m_->recovery.performed = true;
      m_->recovery.reason = into_next ? "cut_at_appended_offset" : "cut_in_message";
      m_->recovery.message = into_next ? "A message crosses the appended-data offset; the messages before it are kept."
                                       : "The file is cut short inside a message; every complete message before the cut is kept.";
      m_->recovery.ends_at = at;
    }
  }
}

void Pass::run() {
  FileModel& m = *m_;
  m.file_size = source_.size();
  uint8_t head[kHeaderSize];
  size_t got = source_.read(0, head, kHeaderSize);
  if (got < kHeaderSize || std::memcmp(head, kMagic, kMagicSize) != 0) {
    m.problems.push_back(Problem{Severity::Error, 0, "ulog.header.truncated",
                                 got < kHeaderSize ? "the file is shorter than the 16-byte ULog header" : "the file does not start with the ULog magic"});
    m.recovery = Recovery{true, "no_header", "The ULog header could not be read; nothing was recovered.", 0, {}};
    return;
  }
  m.header_ok = true;
  m.version = head[kMagicSize];
  m.header_timestamp_us = u64(head + 8);
  if (m.version > 1)
    m.problems.push_back(Problem{Severity::Warning, 7, "ulog.header.version", "ULog version " + std::to_string(m.version) + " (1 is the newest this reader knows)"});

  m.sections.push_back(Section{kHeaderSize, m.file_size, kHeaderSize, 0, false});
  walk_section(0);
  if (dirty_) m.formats.resolve(), dirty_ = false;

  // Appended data (incompat DATA_APPENDED): each offset starts a section up to the next one.
  if (!stop_ && m.flags.present) {
    std::vector<uint64_t> offsets;
    for (uint64_t off : m.flags.appended)
      if (off) offsets.push_back(off);
    std::sort(offsets.begin(), offsets.end());
    offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
    if (!m.flags.data_appended()) {
      if (!offsets.empty())
        m.problems.push_back(Problem{Severity::Warning, m.flags.offset, "ulog.flags.offsets_without_flag",
                                     "the flag bits give appended-data offsets but do not set the data-appended flag: the offsets are ignored"});
    } else {
      for (size_t i = 0; i < offsets.size(); ++i) {
        uint64_t begin = offsets[i];
        if (begin >= m.file_size) {
          m.problems.push_back(Problem{Severity::Error, m.flags.offset, "ulog.appended.offset_past_end",
                                       "appended data is said to start at byte " + std::to_string(begin) + ", past the end of the file (" +
                                           std::to_string(m.file_size) + " bytes): it is missing"});
          continue;
        }
        if (begin <= m.sections[0].begin) continue;
        uint64_t end = i + 1 < offsets.size() ? std::min(offsets[i + 1], m.file_size) : m.file_size;
        m.sections.push_back(Section{begin, end, begin, 0, true});
        walk_section(m.sections.size() - 1);
        if (stop_) break;
      }
    }
  }
  repeats_.finish(m_);
  for (uint32_t id = 0; id < 65536; ++id)
    if (active_[id] >= 0) m.active[static_cast<uint16_t>(id)] = static_cast<size_t>(active_[id]);
  if (m.recovery.performed) {
    m.recovery.recovered = {{"messages", m.messages}, {"data_messages", m.data_messages}};
  } else {
    m.recovery.ends_at = m.file_size;
  }
  std::stable_sort(m.problems.begin(), m.problems.end(), [](const Problem& a, const Problem& b) { return a.offset < b.offset; });
}

}  // namespace

void open_file(ByteSource& source, FileModel* model, const ProgressFn& progress) {
  *model = FileModel();
  Pass(source, model, progress).run();
}

}  // namespace logscope::ulog
