#!/usr/bin/env bash
# Installs the Debian packages logscope needs (only the missing ones), then
# builds the WebAssembly dependencies; the last line of stdout is their prefix.
set -euo pipefail

pkgs=(
  g++ cmake make ccache protobuf-compiler libprotobuf-dev libcrypto++-dev doctest-dev liblz4-dev libbz2-dev libzstd-dev  # native
  libprotoc-dev    # the .proto parser's headers (codec/protobuf; its code is in libprotobuf)
  nlohmann-json3-dev  # JSON (header-only: the wasm build compiles the same headers)
  libyaml-cpp-dev  # rosbag2's metadata.yaml (codec/rosbag2/metadata.cpp); its source package is built for wasm
  libcurl4-openssl-dev  # the CLI's remote files (HTTP Range)
  emscripten       # WebAssembly (only Suggests make, listed above)
  chromium         # browser tests
  firefox-esr webkit2gtk-driver xvfb  # cross-browser tests (tests/browsers/): Firefox over WebDriver BiDi, WebKitWebDriver + MiniBrowser under Xvfb
  python3-rosbag python3-roslz4  # reference reader
  dpkg-dev         # apt-get source, for the wasm builds of the libraries
  python3-zstandard  # the rosbag2 reference reader (tests/reference/rosbag2_reference.py): per-message zstd
  libsqlite3-dev tcl  # SQLite's version to build (scripts/fetch-sqlite.sh); tclsh makes its amalgamation
  clang-14 libclang-rt-14-dev  # sanitizer build and libFuzzer harnesses (scripts/sanitize.sh, scripts/fuzz.sh)
  lld              # native links (CMakeLists.txt uses ld.lld where it is found: a third of ld.bfd's time)
  libpng-dev       # camera images: compressedDepth's 16-bit PNG, frames written as PNG (codec/views/image_png.cpp)
  libjpeg62-turbo-dev  # `logscope frames --png`: JPEG frames to PNG (cli/frames_jpeg.cpp), the CLI only
  python3-pil      # the frames test reads the written PNGs with PIL (tests/reference/image_frames_reference.py)
  python3-numpy python3-opencv  # the image reference (tests/reference/image_reference.py): cv2.cvtColor as cv_bridge
  ffmpeg           # the CompressedVideo test makes an H.264 stream and decodes it to PNG (tests/reference/video_reference.py)
)

# dpkg -s also succeeds for removed packages that left config files; ask for the real state.
missing=()
for p in "${pkgs[@]}"; do
  [[ $(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null) == installed ]] || missing+=("$p")
done

if ((${#missing[@]})); then
  install=(apt-get install -y -q "${missing[@]}")
  if ((EUID != 0)); then
    printf 'install-deps: missing %s; as root run:\n  apt-get update\n  DEBIAN_FRONTEND=noninteractive %s\n' "${missing[*]}" "${install[*]}" >&2
    exit 1
  fi
  echo "install-deps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  # Package lists may be absent or stale on a fresh machine.
  apt-get update -q >&2
  "${install[@]}" >&2
fi

"$(dirname "${BASH_SOURCE[0]}")/fetch-sqlite.sh" >/dev/null
exec "$(dirname "${BASH_SOURCE[0]}")/build-wasm-deps.sh"
