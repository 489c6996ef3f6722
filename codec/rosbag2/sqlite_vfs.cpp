// The ByteSource VFS (sqlite_vfs.h). SQLite opens files by name; names map to sources registered
// by SqliteReader::open ("/logscope/<n>/db" and its "-wal", "-journal"...). A name that is not
// registered does not exist: SQLite then sees no hot journal and, for the WAL, an empty file.
#include "rosbag2/sqlite_vfs.h"

#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <random>
#include <thread>

namespace logscope::rosbag2 {
namespace {

struct Registered {
  ByteSource* db = nullptr;
  ByteSource* wal = nullptr;
};

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, Registered>& registry() {
  static std::map<std::string, Registered> r;
  return r;
}

// Which source a file name means: the database, its WAL, or none.
ByteSource* source_for(const std::string& name) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto& r = registry();
  if (auto it = r.find(name); it != r.end()) return it->second.db;
  const std::string wal_suffix = "-wal";
  if (name.size() > wal_suffix.size() && name.compare(name.size() - wal_suffix.size(), wal_suffix.size(), wal_suffix) == 0) {
    if (auto it = r.find(name.substr(0, name.size() - wal_suffix.size())); it != r.end()) return it->second.wal;
  }
  return nullptr;
}

bool is_wal_name(const char* name) {
  size_t n = std::strlen(name);
  return n > 4 && std::strcmp(name + n - 4, "-wal") == 0;
}

struct File {
  sqlite3_file base;  // first: SQLite sees a sqlite3_file*
  ByteSource* source;  // null: an empty file (a WAL that is not there)
};

int file_close(sqlite3_file*) { return SQLITE_OK; }

int file_read(sqlite3_file* f, void* out, int amount, sqlite3_int64 offset) {
  File* file = reinterpret_cast<File*>(f);
  if (amount < 0 || offset < 0) return SQLITE_IOERR_READ;
  size_t got = 0;
  if (file->source) got = file->source->read(static_cast<uint64_t>(offset), out, static_cast<size_t>(amount));
  if (got < static_cast<size_t>(amount)) {
    // SQLite requires the rest zeroed on a short read.
    std::memset(static_cast<uint8_t*>(out) + got, 0, static_cast<size_t>(amount) - got);
    return SQLITE_IOERR_SHORT_READ;
  }
  return SQLITE_OK;
}

int file_write(sqlite3_file*, const void*, int, sqlite3_int64) { return SQLITE_READONLY; }
int file_truncate(sqlite3_file*, sqlite3_int64) { return SQLITE_READONLY; }
int file_sync(sqlite3_file*, int) { return SQLITE_OK; }
int file_size(sqlite3_file* f, sqlite3_int64* size) {
  File* file = reinterpret_cast<File*>(f);
  uint64_t n = file->source ? file->source->size() : 0;
  *size = n > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<sqlite3_int64>(n);
  return SQLITE_OK;
}
// One reader, nothing writes: every lock is granted.
int file_lock(sqlite3_file*, int) { return SQLITE_OK; }
int file_unlock(sqlite3_file*, int) { return SQLITE_OK; }
int file_check_reserved(sqlite3_file*, int* out) {
  *out = 0;
  return SQLITE_OK;
}
int file_control(sqlite3_file*, int, void*) { return SQLITE_NOTFOUND; }
int file_sector_size(sqlite3_file*) { return 4096; }
int file_device_characteristics(sqlite3_file*) { return 0; }

// Version 1: no shared memory, so the WAL index lives in the heap (exclusive locking mode).
const sqlite3_io_methods kFileMethods = {
    1, file_close, file_read, file_write, file_truncate, file_sync, file_size, file_lock, file_unlock,
    file_check_reserved, file_control, file_sector_size, file_device_characteristics,
    nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};

int vfs_open(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* f, int flags, int* out_flags) {
  File* file = reinterpret_cast<File*>(f);
  file->base.pMethods = nullptr;
  if (!name) return SQLITE_CANTOPEN;  // a temporary file: SQLITE_TEMP_STORE=3 keeps them in memory
  ByteSource* source = source_for(name);
  // A WAL that is not there opens empty (SQLite opens one for a WAL-mode header); nothing else
  // that is not registered exists.
  if (!source && !((flags & SQLITE_OPEN_WAL) || is_wal_name(name))) return SQLITE_CANTOPEN;
  file->source = source;
  file->base.pMethods = &kFileMethods;
  if (out_flags) *out_flags = (flags & ~(SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)) | SQLITE_OPEN_READONLY;
  return SQLITE_OK;
}

int vfs_delete(sqlite3_vfs*, const char*, int) { return SQLITE_IOERR_DELETE; }

int vfs_access(sqlite3_vfs*, const char* name, int flags, int* out) {
  ByteSource* source = source_for(name);
  // An empty WAL counts as none (SQLite treats a 0-byte -wal so too).
  *out = source && (flags != SQLITE_ACCESS_EXISTS || source->size() > 0) && flags != SQLITE_ACCESS_READWRITE;
  return SQLITE_OK;
}

int vfs_full_pathname(sqlite3_vfs*, const char* name, int size, char* out) {
  sqlite3_snprintf(size, out, "%s", name);
  return SQLITE_OK;
}

int vfs_randomness(sqlite3_vfs*, int size, char* out) {
  static std::mt19937 generator(20240615u);  // reproducible: nothing secret is made
  for (int i = 0; i < size; ++i) out[i] = static_cast<char>(generator());
  return size;
}

int vfs_sleep(sqlite3_vfs*, int microseconds) {
#ifndef __EMSCRIPTEN__
  std::this_thread::sleep_for(std::chrono::microseconds(microseconds));
#endif
  return microseconds;
}

int vfs_current_time_int64(sqlite3_vfs*, sqlite3_int64* out) {
  using namespace std::chrono;
  // Julian day number in ms, as SQLite wants it.
  *out = 210866760000000LL + duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
  return SQLITE_OK;
}

int vfs_current_time(sqlite3_vfs* vfs, double* out) {
  sqlite3_int64 ms = 0;
  vfs_current_time_int64(vfs, &ms);
  *out = static_cast<double>(ms) / 86400000.0;
  return SQLITE_OK;
}

int vfs_last_error(sqlite3_vfs*, int, char*) { return 0; }

sqlite3_vfs make_vfs() {
  sqlite3_vfs v{};
  v.iVersion = 2;
  v.szOsFile = sizeof(File);
  v.mxPathname = 512;
  v.zName = "logscope-bytes";
  v.xOpen = vfs_open;
  v.xDelete = vfs_delete;
  v.xAccess = vfs_access;
  v.xFullPathname = vfs_full_pathname;
  v.xRandomness = vfs_randomness;
  v.xSleep = vfs_sleep;
  v.xCurrentTime = vfs_current_time;
  v.xGetLastError = vfs_last_error;
  v.xCurrentTimeInt64 = vfs_current_time_int64;
  return v;
}

sqlite3_vfs& the_vfs() {
  static sqlite3_vfs vfs = make_vfs();
  return vfs;
}

void register_vfs() {
#ifndef __EMSCRIPTEN__
  static std::once_flag once;
  std::call_once(once, [] { sqlite3_vfs_register(&the_vfs(), 0); });
#else
  sqlite3_initialize();  // sqlite3_os_init below registers it
#endif
}

}  // namespace

const char* byte_source_vfs_name() { return "logscope-bytes"; }

std::unique_ptr<SqliteReader> SqliteReader::open(ByteSource& db, ByteSource* wal, std::string* error) {
  register_vfs();
  static std::atomic<uint64_t> next_id{0};
  std::unique_ptr<SqliteReader> reader(new SqliteReader());
  reader->name_ = "/logscope/" + std::to_string(++next_id) + "/db";
  {
    std::lock_guard<std::mutex> lock(registry_mutex());
    registry()[reader->name_] = Registered{&db, wal};
  }
  int rc = sqlite3_open_v2(reader->name_.c_str(), &reader->db_, SQLITE_OPEN_READONLY, byte_source_vfs_name());
  auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return nullptr;
  };
  if (rc != SQLITE_OK) return fail(reader->db_ ? sqlite3_errmsg(reader->db_) : sqlite3_errstr(rc));
  // Exclusive before the first read: the WAL index is then built in the heap, no -shm. No
  // checkpoint on close: the files are never written.
  sqlite3_db_config(reader->db_, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
  // writable_schema: a database cut short (its header counts more pages than the file holds) is
  // otherwise refused whole; with it SQLite reads what is there, the integrity check and the row
  // reads report what is missing, and ext/recover (which sets it too) can salvage. Nothing is
  // written through it: query_only, and the VFS refuses every write.
  char* message = nullptr;
  rc = sqlite3_exec(reader->db_,
                    "PRAGMA locking_mode=EXCLUSIVE; PRAGMA query_only=1; PRAGMA trusted_schema=0; PRAGMA writable_schema=ON;",
                    nullptr, nullptr, &message);
  if (rc != SQLITE_OK) {
    std::string why = message ? message : sqlite3_errstr(rc);
    sqlite3_free(message);
    return fail(why);
  }
  // Reading the schema is the first read: a file that is no database fails here.
  rc = sqlite3_exec(reader->db_, "SELECT count(*) FROM sqlite_schema", nullptr, nullptr, &message);
  if (rc != SQLITE_OK) {
    std::string why = message ? message : sqlite3_errstr(rc);
    sqlite3_free(message);
    return fail(why);
  }
  return reader;
}

SqliteReader::~SqliteReader() {
  if (db_) sqlite3_close_v2(db_);
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry().erase(name_);
}

std::string SqliteReader::last_error() const { return db_ ? sqlite3_errmsg(db_) : "no database"; }

}  // namespace logscope::rosbag2

#ifdef __EMSCRIPTEN__
// SQLITE_OS_OTHER: SQLite has no VFS of its own in wasm; this one is the default.
extern "C" int sqlite3_os_init(void) { return sqlite3_vfs_register(&logscope::rosbag2::the_vfs(), 1); }
extern "C" int sqlite3_os_end(void) { return SQLITE_OK; }
#endif
