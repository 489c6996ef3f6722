#include "http_source.h"

#include <curl/curl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "command.h"
#include "temp_spill.h"

namespace logscope::cli {
namespace {

std::atomic<uint64_t> g_bytes{0}, g_requests{0}, g_file_size{0};

void curl_init_once() {
  static const bool done = [] { return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK; }();
  (void)done;
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == '\n' || s.back() == ' ')) s.pop_back();
  size_t start = s.find_first_not_of(' ');
  return start == std::string::npos ? "" : s.substr(start);
}

bool starts_with_nocase(const std::string& line, const char* prefix) {
  size_t n = std::strlen(prefix);
  return line.size() >= n && ::strncasecmp(line.c_str(), prefix, n) == 0;
}

}  // namespace

bool is_url(const std::string& path) { return path.rfind("http://", 0) == 0 || path.rfind("https://", 0) == 0; }

TransferStats transfer_stats() { return {g_bytes.load(), g_requests.load(), g_file_size.load()}; }

struct HttpByteSource::Response {
  long status = 0;
  std::string content_range, content_type, etag, last_modified;
  uint8_t* destination = nullptr;
  size_t capacity = 0;
  size_t received = 0;
  bool overflow = false;  // the server sent more than asked (it ignored the Range)
  CURL* curl = nullptr;
};

static size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto* r = static_cast<HttpByteSource::Response*>(user);
  std::string line(data, size * count);
  if (line.rfind("HTTP/", 0) == 0) {  // a new response (after a redirect): forget the last one's headers
    r->content_range.clear();
    r->content_type.clear();
    r->etag.clear();
    r->last_modified.clear();
  } else if (starts_with_nocase(line, "content-range:")) r->content_range = trim(line.substr(14));
  else if (starts_with_nocase(line, "content-type:")) r->content_type = trim(line.substr(13));
  else if (starts_with_nocase(line, "etag:")) r->etag = trim(line.substr(5));
  else if (starts_with_nocase(line, "last-modified:")) r->last_modified = trim(line.substr(14));
  return size * count;
}

static size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* r = static_cast<HttpByteSource::Response*>(user);
  size_t n = size * count;
  long status = 0;
  curl_easy_getinfo(r->curl, CURLINFO_RESPONSE_CODE, &status);
  if (status != 206 || r->received + n > r->capacity) {  // a whole file or too much: stop now
    r->overflow = status == 200 || r->received + n > r->capacity;
    return 0;
  }
  std::memcpy(r->destination + r->received, data, n);
  r->received += n;
  g_bytes += n;
  return n;
}

HttpByteSource::HttpByteSource(std::string url) : url_(std::move(url)) {
  curl_init_once();
  curl_ = curl_easy_init();
}

HttpByteSource::~HttpByteSource() {
  if (curl_) curl_easy_cleanup(static_cast<CURL*>(curl_));
}

// Sets up one GET of `ranges` ("first-last", or several joined by commas) on `curl`, its answer
// going to `response`.
static void configure(CURL* curl, const std::string& url, const std::string& ranges, HttpByteSource::Response* response) {
  response->curl = curl;
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_RANGE, ranges.c_str());
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, response);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, response);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 30L);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);  // a stalled server: give up after 60 s
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, 60L);
  ++g_requests;
}

// Whether a finished GET of [first, last] was answered with those bytes; `error` says why not.
bool HttpByteSource::answered(int curl_code, uint64_t first, const Response& response, std::string* error) const {
  auto code = static_cast<CURLcode>(curl_code);
  if (response.status == 200) {
    *error = url_ + ": the server does not support Range requests (it answered 200 with the whole file); "
                    "run again with --download to read the whole file into a temporary file";
    return false;
  }
  if (code != CURLE_OK && !(code == CURLE_WRITE_ERROR && response.overflow)) {
    *error = url_ + ": " + curl_easy_strerror(code);
    return false;
  }
  if (response.status != 206 && !(response.status == 416 && first == 0)) {
    *error = url_ + ": the server answered HTTP " + std::to_string(response.status);
    return false;
  }
  if (response.overflow) {
    *error = url_ + ": the server sent more bytes than the range asked for";
    return false;
  }
  return true;
}

bool HttpByteSource::fetch(uint64_t first, uint64_t last, void* destination, size_t capacity, Response* response,
                           std::string* error) {
  CURL* curl = static_cast<CURL*>(curl_);
  if (!curl) return *error = "libcurl could not start", false;
  *response = Response{};
  response->destination = static_cast<uint8_t*>(destination);
  response->capacity = capacity;
  configure(curl, url_, std::to_string(first) + '-' + std::to_string(last), response);
  CURLcode code = curl_easy_perform(curl);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response->status);
  return answered(code, first, *response, error);
}

// "bytes 10-19/1234": the first and last byte and the total (a last before the first is the
// caller's to refuse).
static bool parse_span(const std::string& text, uint64_t* first, uint64_t* last, uint64_t* total) {
  unsigned long long a = 0, b = 0, t = 0;
  if (std::sscanf(text.c_str(), "bytes %llu-%llu/%llu", &a, &b, &t) != 3) return false;
  *first = a, *last = b, *total = t;
  return true;
}

// "bytes 0-0/1234" or "bytes */1234": the start and the total (UINT64_MAX when unknown).
static bool parse_content_range(const std::string& text, uint64_t* start, uint64_t* total) {
  uint64_t last = 0;
  if (parse_span(text, start, &last, total)) return true;
  unsigned long long t = 0;
  if (std::sscanf(text.c_str(), "bytes */%llu", &t) == 1) {
    *start = 0, *total = t;
    return true;
  }
  return false;
}

std::unique_ptr<HttpByteSource> HttpByteSource::open(const std::string& url, std::string* error, bool* no_range) {
  *no_range = false;
  std::unique_ptr<HttpByteSource> source(new HttpByteSource(url));
  uint8_t byte = 0;
  Response response;
  if (!source->fetch(0, 0, &byte, 1, &response, error)) {
    *no_range = response.status == 200;
    return nullptr;
  }
  uint64_t start = 0, total = 0;
  if (!parse_content_range(response.content_range, &start, &total)) {
    *error = url + ": the server answered 206 without a usable Content-Range (\"" + response.content_range + "\")";
    return nullptr;
  }
  source->size_ = total;
  source->etag_ = response.etag;
  source->last_modified_ = response.last_modified;
  g_file_size += total;
  return source;
}

// "" when a 206 answer to a request at `offset` is those bytes of the file first opened;
// otherwise why not.
std::string HttpByteSource::same_file(const Response& response, uint64_t offset, size_t length) const {
  uint64_t start = 0, total = 0;
  if (!parse_content_range(response.content_range, &start, &total) || start != offset)
    return url_ + ": the server answered bytes \"" + response.content_range + "\" to a request for " + std::to_string(offset) +
           "-" + std::to_string(offset + length - 1);
  if (total != size_)
    return url_ + ": the file changed while it was read (its size was " + std::to_string(size_) + " bytes, now " +
           std::to_string(total) + ")";
  if (response.etag != etag_ || response.last_modified != last_modified_)
    return url_ + ": the file changed while it was read (" +
           (response.etag != etag_ ? "ETag " + etag_ + " became " + response.etag
                                   : "Last-Modified " + last_modified_ + " became " + response.last_modified) +
           ")";
  return "";
}

size_t HttpByteSource::read(uint64_t offset, void* destination, size_t length) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!failure_.empty() || offset >= size_ || length == 0) return 0;
  length = static_cast<size_t>(std::min<uint64_t>(length, size_ - offset));
  Response response;
  std::string error;
  if (!fetch(offset, offset + length - 1, destination, length, &response, &error)) {
    failure_ = error;
    return 0;
  }
  failure_ = same_file(response, offset, length);
  if (!failure_.empty()) return 0;
  return response.received;
}

namespace {

// One part of a multipart/byteranges answer: `size` bytes of the file from `start`.
struct RangePart {
  uint64_t start = 0;
  const uint8_t* data = nullptr;
  size_t size = 0;
};

// The boundary of a "multipart/byteranges; boundary=..." Content-Type, or "" for another type.
std::string byteranges_boundary(const std::string& content_type) {
  if (!starts_with_nocase(content_type, "multipart/byteranges")) return "";
  std::string lower = content_type;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  size_t at = lower.find("boundary=");
  if (at == std::string::npos) return "";
  std::string value = content_type.substr(at + 9);
  value = value.substr(0, value.find(';'));
  value = trim(value);
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
  return value;
}

// The parts of a multipart/byteranges body (RFC 9110 14.6): false when it is not one, a part
// runs past the body, or a part's Content-Range is missing or names another file size.
bool parse_byteranges(std::string_view body, const std::string& boundary, uint64_t file_size, std::vector<RangePart>* parts) {
  const std::string delimiter = "--" + boundary;
  size_t pos = 0;
  for (;;) {
    size_t at = body.find(delimiter, pos);
    if (at == std::string_view::npos) return !parts->empty();
    size_t p = at + delimiter.size();
    if (body.substr(p, 2) == "--") return !parts->empty();  // the closing delimiter
    size_t eol = body.find("\r\n", p);
    if (eol == std::string_view::npos) return false;
    p = eol + 2;
    uint64_t first = 0, last = 0, total = 0;
    bool have_range = false;
    for (;;) {  // the part's header lines, up to an empty one
      eol = body.find("\r\n", p);
      if (eol == std::string_view::npos) return false;
      std::string line(body.substr(p, eol - p));
      p = eol + 2;
      if (line.empty()) break;
      if (starts_with_nocase(line, "content-range:")) have_range = parse_span(trim(line.substr(14)), &first, &last, &total);
    }
    if (!have_range || last < first || total != file_size || last >= file_size || last - first >= body.size() - p) return false;
    size_t length = static_cast<size_t>(last - first + 1);
    parts->push_back({first, reinterpret_cast<const uint8_t*>(body.data() + p), length});
    pos = p + length;
  }
}

}  // namespace

size_t HttpByteSource::read_scattered(const std::vector<ByteRange>& ranges, const ScatteredTake& take, uint64_t max_range) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!failure_.empty() || ranges.empty()) return 0;
  CURLM* multi = curl_multi_init();
  if (!multi) return 0;
  // One request: the ranges of `members` (indexes into `ranges`), asked as `spans` (ranges closer
  // than kMergeGap merged).
  struct Lane {
    CURL* curl = nullptr;
    Response response;
    std::vector<uint8_t> bytes;
    std::vector<size_t> members;
    std::vector<ByteRange> spans;
  };
  std::vector<Lane> lanes(kScatteredInFlight);
  std::vector<size_t> again;  // members of a multi-range request the answer did not hold
  size_t next = 0, handed = 0, running = 0;
  bool stopped = false;
  auto in_file = [&](size_t i) { return ranges[i].offset < size_ && ranges[i].length > 0; };
  auto length_of = [&](size_t i) { return std::min<uint64_t>({ranges[i].length, size_ - ranges[i].offset, max_range}); };
  // Fills `lane` with the next ranges (from `again` first, one per request); false when none is left.
  auto batch = [&](Lane& lane) {
    lane.members.clear();
    lane.spans.clear();
    uint64_t bytes = 0;
    auto add = [&](size_t i) {
      uint64_t offset = ranges[i].offset, end = offset + length_of(i);
      if (!lane.spans.empty() && offset >= lane.spans.back().offset &&
          offset <= lane.spans.back().offset + lane.spans.back().length + kMergeGap) {
        ByteRange& span = lane.spans.back();
        span.length = std::max(span.offset + span.length, end) - span.offset;
      } else {
        if (!lane.spans.empty() && (!multi_ranges_ || lane.spans.size() >= kRangesPerRequest)) return false;
        lane.spans.push_back({offset, end - offset});
      }
      lane.members.push_back(i);
      bytes += end - offset;
      return true;
    };
    if (!again.empty()) {
      add(again.back());
      again.pop_back();
      return true;
    }
    while (next < ranges.size() && bytes < kMaxScatteredRange) {
      if (!in_file(next)) {
        ++next;
        continue;
      }
      if (!add(next)) break;
      ++next;
    }
    return !lane.members.empty();
  };
  auto start = [&](Lane& lane) {
    if (stopped || !batch(lane)) return false;
    if (!lane.curl) lane.curl = curl_easy_init();
    if (!lane.curl) return false;
    std::string header;
    uint64_t capacity = 0;
    for (const ByteRange& span : lane.spans) {
      if (!header.empty()) header += ',';
      header += std::to_string(span.offset) + '-' + std::to_string(span.offset + span.length - 1);
      capacity += span.length + (lane.spans.size() > 1 ? kPartOverhead : 0);
    }
    if (lane.spans.size() > 1) capacity += kPartOverhead;  // the closing delimiter
    lane.bytes.resize(static_cast<size_t>(capacity));
    lane.response = Response{};
    lane.response.destination = lane.bytes.data();
    lane.response.capacity = lane.bytes.size();
    configure(lane.curl, url_, header, &lane.response);
    curl_easy_setopt(lane.curl, CURLOPT_PRIVATE, &lane);
    curl_multi_add_handle(multi, lane.curl);
    ++running;
    return true;
  };
  // The parts of a finished request's answer; false when it is not those bytes of this file.
  auto answer_parts = [&](CURLcode code, Lane& lane, std::vector<RangePart>* parts) {
    const Response& r = lane.response;
    std::string why;
    if (!answered(code, lane.spans.front().offset, r, &why)) return false;
    if (r.etag != etag_ || r.last_modified != last_modified_) return false;
    std::string_view body(reinterpret_cast<const char*>(lane.bytes.data()), r.received);
    std::string boundary = byteranges_boundary(r.content_type);
    if (!boundary.empty()) return parse_byteranges(body, boundary, size_, parts);
    uint64_t first = 0, last = 0, total = 0;
    if (!parse_span(r.content_range, &first, &last, &total) || last < first || total != size_ || last - first + 1 != r.received) return false;
    parts->push_back({first, lane.bytes.data(), r.received});
    return true;
  };
  for (Lane& lane : lanes)
    if (!start(lane)) break;
  while (running > 0) {
    int active = 0;
    if (curl_multi_perform(multi, &active) != CURLM_OK) break;
    int queued = 0;
    while (CURLMsg* message = curl_multi_info_read(multi, &queued)) {
      if (message->msg != CURLMSG_DONE) continue;
      Lane* lane = nullptr;
      curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, reinterpret_cast<char**>(&lane));
      curl_multi_remove_handle(multi, lane->curl);
      --running;
      curl_easy_getinfo(lane->curl, CURLINFO_RESPONSE_CODE, &lane->response.status);
      std::vector<RangePart> parts;
      bool ok = answer_parts(message->data.result, *lane, &parts);
      bool several = lane->spans.size() > 1;
      // Each range whole in one part is handed over. A single range that is not: stop (the codec
      // reads it again and meets the failure itself). Ranges of a multi-range request that the
      // answer did not hold (a server without multipart answers) go again, one per request.
      for (size_t i : lane->members) {
        if (stopped) break;
        uint64_t offset = ranges[i].offset, length = length_of(i);
        const RangePart* part = nullptr;
        for (const RangePart& p : parts)
          if (p.start <= offset && offset + length <= p.start + p.size) part = &p;
        if (part && take(offset, part->data + (offset - part->start), static_cast<size_t>(length)))
          ++handed;
        else if (part || !several)
          stopped = true;
        else {
          multi_ranges_ = false;
          again.push_back(i);
        }
      }
      if (several && !ok) multi_ranges_ = false;
      if (!stopped) start(*lane);
    }
    // Lanes left idle while others ran may have work again (ranges to ask alone).
    for (Lane& lane : lanes)
      if (!stopped && !again.empty() && lane.members.empty()) start(lane);
    if (running > 0 && curl_multi_poll(multi, nullptr, 0, 1000, nullptr) != CURLM_OK) break;
  }
  for (Lane& lane : lanes) {
    if (!lane.curl) continue;
    curl_multi_remove_handle(multi, lane.curl);
    curl_easy_cleanup(lane.curl);
  }
  curl_multi_cleanup(multi);
  return handed;
}

std::string HttpByteSource::failure() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failure_;
}

namespace {

struct DownloadState {
  FILE* out = nullptr;
  uint64_t written = 0;
  ProgressFn progress;
};

size_t on_download(char* data, size_t size, size_t count, void* user) {
  auto* d = static_cast<DownloadState*>(user);
  size_t n = std::fwrite(data, 1, size * count, d->out);
  d->written += n;
  g_bytes += n;
  return n;
}

int on_download_progress(void* user, curl_off_t total, curl_off_t now, curl_off_t, curl_off_t) {
  auto* d = static_cast<DownloadState*>(user);
  if (d->progress && total > 0) d->progress(static_cast<uint64_t>(now), static_cast<uint64_t>(total));
  return 0;
}

}  // namespace

std::unique_ptr<ByteSource> download_to_temp(const std::string& url, std::string* error) {
  curl_init_once();
  std::string path;
  int fd = make_temp_file("logscope-download-", &path, error);
  if (fd < 0) return nullptr;
  DownloadState state;
  state.out = ::fdopen(fd, "wb");
  state.progress = terminal_progress("downloading");
  CURL* curl = curl_easy_init();
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(curl, CURLOPT_FAILONERROR, 1L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_download);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &state);
  curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_download_progress);
  curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &state);
  ++g_requests;
  CURLcode code = curl_easy_perform(curl);
  curl_easy_cleanup(curl);
  bool closed = std::fclose(state.out) == 0;
  std::unique_ptr<FileByteSource> file;
  if (code == CURLE_OK && closed) file = FileByteSource::open(path, error);
  else *error = url + ": download failed: " + (code != CURLE_OK ? curl_easy_strerror(code) : "cannot write " + path);
  ::unlink(path.c_str());  // the open descriptor keeps the bytes until the file is closed
  if (file) g_file_size += file->size();
  return file;
}

}  // namespace logscope::cli
