// load_msg_folder (type_library.h): apart from the library because it reads the file system, which
// only the CLI does (the wasm modules link the library without it).
#include <filesystem>
#include <fstream>
#include <iterator>

#include "cdr/type_library.h"

namespace logscope::cdr {
namespace {

constexpr uintmax_t kMaxMsgFile = 1u << 20;
constexpr size_t kMaxMsgFiles = 100000;

}  // namespace

std::shared_ptr<TypeLibrary> load_msg_folder(const std::string& folder, std::string* error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) {
    *error = folder + ": not a folder";
    return nullptr;
  }
  auto library = std::make_shared<TypeLibrary>();
  fs::path root = fs::path(folder).lexically_normal();
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
  size_t files = 0;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::path& path = it->path();
    if (path.extension() != ".msg" || !it->is_regular_file(ec)) continue;
    if (++files > kMaxMsgFiles) {
      library->warn("more than " + std::to_string(kMaxMsgFiles) + " .msg files; the rest are left out");
      break;
    }
    fs::path relative = path.lexically_relative(root);
    uintmax_t size = it->file_size(ec);
    if (ec || size > kMaxMsgFile) {
      library->warn(relative.string() + ": skipped (unreadable or over 1 MB)");
      ec.clear();
      continue;
    }
    std::ifstream in(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    add_msg_file(*library, relative.generic_string(), std::move(text), "--msg-path " + relative.string());
  }
  if (ec) {
    *error = folder + ": " + ec.message();
    return nullptr;
  }
  if (library->empty()) {
    *error = folder + ": holds no .msg file";
    return nullptr;
  }
  return library;
}

}  // namespace logscope::cdr
