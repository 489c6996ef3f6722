#!/usr/bin/env bash
# Builds protobuf (the lite runtime and the full library), Crypto++, lz4, bzip2, zstd, yaml-cpp, zlib
# and libpng for WebAssembly from Debian's
# source packages, at the same versions as the installed native -dev packages,
# into a cache outside the repo. The last line of stdout is the install prefix:
#   prefix=$(scripts/build-wasm-deps.sh | tail -1)
# Each library is cached on its own, keyed by emscripten's version, its source version and its own
# recipe (the function that builds it), so adding or changing one library rebuilds only that one;
# the prefix is those libraries' trees joined by hard links.
set -euo pipefail
shopt -s inherit_errexit

say() { echo "build-wasm-deps: [${SECONDS}s] $*" >&2; }
die() { say "ERROR: $*"; exit 1; }

# Debian's emscripten imports acorn from here.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
command -v emcc >/dev/null || die "emcc not found; run scripts/install-deps.sh"
command -v protoc >/dev/null || die "protoc not found; run scripts/install-deps.sh"

# Source package and version of each native -dev package, so wasm and native match.
names=() versions=()
for dev in libprotobuf-dev libcrypto++-dev liblz4-dev libbz2-dev libzstd-dev libyaml-cpp-dev zlib1g-dev libpng-dev; do
  [[ $(dpkg-query -W -f='${db:Status-Status}' "$dev" 2>/dev/null) == installed ]] ||
    die "$dev is not installed; run scripts/install-deps.sh"
  read -r name version < <(dpkg-query -W -f='${source:Package} ${source:Version}\n' "$dev")
  names+=("$name") versions+=("$version")
done

# Generated code must come from the same protobuf as the runtime we build.
pb_upstream=${versions[0]#*:}; pb_upstream=${pb_upstream%-*}
protoc_version=$(protoc --version | awk '{print $2}')
[[ $protoc_version == "$pb_upstream" ]] ||
  die "protoc is $protoc_version ($(command -v protoc)) but the protobuf source package is ${versions[0]}; they must match"

emver=$(tr -d '"[:space:]' 2>/dev/null <"$(dirname "$(readlink -f "$(command -v emcc)")")/emscripten-version.txt") ||
  emver=$(emcc -dumpversion)
cache="${LOGSCOPE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/logscope}/wasm-deps"
mkdir -p "$cache/lib"
flags=(-O2 -DNDEBUG)

# The recipes: each fetches its source package and installs one library into $prefix (its own
# cache entry), with scratch space under $work.
build_protobuf() {  # protobuf ${versions[0]}: libprotobuf-lite, libprotobuf
  src=$(fetch "${names[0]}" "${versions[0]}")
  run emcmake cmake -S "$src" -B "$work/pb-build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE="${flags[*]}" -DCMAKE_INSTALL_PREFIX="$prefix" \
    -Dprotobuf_BUILD_TESTS=OFF -Dprotobuf_BUILD_PROTOC_BINARIES=OFF -Dprotobuf_WITH_ZLIB=OFF
  # The lite runtime for the page's view module; the full library (descriptor pool, reflection,
  # and the .proto parser and importer of google/protobuf/compiler/, which it holds) for the full
  # module, which decodes protobuf by name. Not libprotoc: the code generators are not needed.
  # The headers component installs without building anything else.
  run cmake --build "$work/pb-build" --target libprotobuf-lite libprotobuf -j2
  run cmake --install "$work/pb-build" --component protobuf-headers
  cp "$work/pb-build/libprotobuf-lite.a" "$work/pb-build/libprotobuf.a" "$prefix/lib/"
  rm -rf "$src"
}

build_cryptopp() {  # Crypto++ ${versions[1]}: libcryptopp.a, the objects SHA1 links
  src=$(fetch "${names[1]}" "${versions[1]}")
  # The wasm modules use Crypto++ for SHA1 only (codec/core/sha1.cpp), which links these eight of
  # its ~150 objects (a link lists any other as undefined); building all of them took most of
  # this script's time on 2 cores. GNUmakefile-cross, unlike GNUmakefile, does not probe the host
  # CPU for x86 flags; its rules compile each object as for the whole library.
  local objects=(cryptlib.o cpu.o sha.o iterhash.o misc.o allocate.o algparam.o fips140.o)
  (cd "$src" && run emmake make -f GNUmakefile-cross "${objects[@]}" -j2 CXXFLAGS="${flags[*]} -DCRYPTOPP_DISABLE_ASM" &&
    run emar rcs libcryptopp.a "${objects[@]}")
  cp "$src/libcryptopp.a" "$prefix/lib/"
  # The tree has no cryptopp/ folder; give <cryptopp/sha.h> one.
  mkdir "$prefix/include/cryptopp"
  cp "$src"/*.h "$prefix/include/cryptopp/"
  rm -rf "$src"
}

build_lz4() {  # lz4 ${versions[2]}: liblz4.a
  src=$(fetch "${names[2]}" "${versions[2]}")
  (cd "$src/lib" && run emcc "${flags[@]}" -c lz4.c lz4frame.c lz4hc.c xxhash.c &&
    run emar rcs "$prefix/lib/liblz4.a" lz4.o lz4frame.o lz4hc.o xxhash.o)
  cp "$src"/lib/{lz4.h,lz4frame.h,lz4frame_static.h,lz4hc.h,xxhash.h} "$prefix/include/"
  rm -rf "$src"
}

build_bzip2() {  # bzip2 ${versions[3]}: libbz2.a
  src=$(fetch "${names[3]}" "${versions[3]}")
  (cd "$src" && run emcc "${flags[@]}" -c blocksort.c huffman.c crctable.c randtable.c compress.c decompress.c bzlib.c &&
    run emar rcs "$prefix/lib/libbz2.a" blocksort.o huffman.o crctable.o randtable.o compress.o decompress.o bzlib.o)
  cp "$src/bzlib.h" "$prefix/include/"
  rm -rf "$src"
}

build_zstd() {  # zstd ${versions[4]}: libzstd.a
  src=$(fetch "${names[4]}" "${versions[4]}")
  # The library without its x86 assembly (huf_decompress_amd64.S) and threads: plain C for wasm32.
  # Compression is built too: the MCAP writer (codec/mcap/writer.cpp) makes zstd chunks.
  (cd "$src/lib" && run emcc "${flags[@]}" -DZSTD_DISABLE_ASM -DZSTD_LEGACY_SUPPORT=0 -c common/*.c compress/*.c decompress/*.c &&
    run emar rcs "$prefix/lib/libzstd.a" ./*.o)
  cp "$src"/lib/{zstd.h,zstd_errors.h,zdict.h} "$prefix/include/"
  rm -rf "$src"
}

build_yaml_cpp() {  # yaml-cpp ${versions[5]}: libyaml-cpp.a
  src=$(fetch "${names[5]}" "${versions[5]}")
  # rosbag2's metadata.yaml, read once per bag: built for size. yaml-cpp reports bad YAML by throwing,
  # so it is compiled with Emscripten's exception catching (the codec's default leaves it off): an
  # exception unwinds through yaml-cpp's frames, running their destructors, to the catch in
  # codec/rosbag2/metadata.cpp, which is compiled the same way (CMakeLists.txt).
  run emcmake cmake -S "$src" -B "$work/yaml-build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE="-Os -DNDEBUG -sDISABLE_EXCEPTION_CATCHING=0" -DCMAKE_INSTALL_PREFIX="$prefix" \
    -DYAML_CPP_BUILD_TESTS=OFF -DYAML_CPP_BUILD_TOOLS=OFF -DYAML_CPP_BUILD_CONTRIB=OFF -DYAML_BUILD_SHARED_LIBS=OFF
  run cmake --build "$work/yaml-build" --target yaml-cpp -j2
  cp "$work/yaml-build/libyaml-cpp.a" "$prefix/lib/"
  cp -r "$src/include/yaml-cpp" "$prefix/include/"
  rm -rf "$src"
}

build_zlib() {  # zlib ${versions[6]}: libz.a (libpng's inflate and deflate)
  src=$(fetch "${names[6]}" "${versions[6]}")
  # The library alone, built for size: camera images only (no gz* file functions: no file system).
  (cd "$src" && run emcc -Os -DNDEBUG -c adler32.c crc32.c deflate.c inffast.c inflate.c inftrees.c trees.c zutil.c &&
    run emar rcs "$prefix/lib/libz.a" adler32.o crc32.o deflate.o inffast.o inflate.o inftrees.o trees.o zutil.o)
  cp "$src"/{zlib.h,zconf.h} "$prefix/include/"
  rm -rf "$src"
}

build_libpng() {  # libpng ${versions[7]}: libpng16.a (compressedDepth's 16-bit PNG, frames as PNG)
  src=$(fetch "${names[7]}" "${versions[7]}")
  # libpng's default configuration (pnglibconf.h.prebuilt), plain C (no SIMD code for wasm32),
  # built for size: one frame is decoded per request. zlib's headers come from its own entry.
  local zlib_include="$cache/lib/$(key_of zlib 6)/include"
  cp "$src/scripts/pnglibconf.h.prebuilt" "$src/pnglibconf.h"
  (cd "$src" && run emcc -Os -DNDEBUG -DPNG_ARM_NEON_OPT=0 -DPNG_POWERPC_VSX_OPT=0 -DPNG_INTEL_SSE_OPT=0 -DPNG_MIPS_MSA_OPT=0 -I. -I"$zlib_include" \
      -c png.c pngerror.c pngget.c pngmem.c pngpread.c pngread.c pngrio.c pngrtran.c pngrutil.c pngset.c pngtrans.c \
      pngwio.c pngwrite.c pngwtran.c pngwutil.c &&
    run emar rcs "$prefix/lib/libpng16.a" ./*.o)
  cp "$src"/{png.h,pngconf.h,pnglibconf.h} "$prefix/include/"
  rm -rf "$src"
}

# library, its recipe and the index of its -dev package in names/versions (zlib before libpng,
# which compiles against zlib's headers)
libs=(protobuf:0 cryptopp:1 lz4:2 bzip2:3 zstd:4 yaml_cpp:5 zlib:6 libpng:7)
key_of() {  # library name, index -> its cache key
  local k="$1-${versions[$2]}-emsdk$emver-$(declare -f "build_$1" | sha256sum | cut -c1-8)"
  tr -c 'A-Za-z0-9.+_\n-' '_' <<<"$k"
}

# The joined prefix is keyed by every library's key.
joined_key=""
for lib in "${libs[@]}"; do joined_key+="$(key_of "${lib%%:*}" "${lib#*:}")"$'\n'; done
prefix="$cache/joined-$(sha256sum <<<"$joined_key" | cut -c1-16)"
[[ -e $prefix/.complete ]] && { echo "$prefix"; exit 0; }

# One build at a time per cache; a concurrent run may have just finished it.
exec 9>"$cache/.lock"
flock 9
[[ -e $prefix/.complete ]] && { echo "$prefix"; exit 0; }

command -v dpkg-source >/dev/null || die "dpkg-source not found (apt-get source needs dpkg-dev); run scripts/install-deps.sh"

# A listed source of each library's upstream version: its own revision, or another that fetch()
# falls back to (libpng-dev 1.6.39-2+deb12u4 was installed while the archive listed only +deb12u5
# and +deb12u6 sources, on 2026-12-02).
have_sources() {
  local i
  for i in "${!names[@]}"; do
    apt-cache showsrc --only-source "${names[i]}" 2>/dev/null | sed -n 's/^Version: //p' | sed 's/-[^-]*$//' |
      grep -qxF "${versions[i]%-*}" || return 1
  done
}

log="$cache/build.log"
: >"$log"
# apt-get source needs deb-src entries: mirror the Debian deb entries of this
# release in a file of our own, once.
if ! have_sources; then
  srcfile=/etc/apt/sources.list.d/logscope-deb-src.sources
  if [[ ! -e $srcfile ]]; then
    ((EUID == 0)) || die "no deb-src entries for ${names[*]}; rerun as root to add $srcfile"
    codename=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release)
    stanzas=$(find /etc/apt/sources.list.d -maxdepth 1 -name '*.sources' ! -name "${srcfile##*/}" -exec cat {} + |
      awk -v cn="$codename" '
        function flush() { if (deb && suite && !off) print out; out = ""; deb = suite = off = 0 }
        /^[ \t]*$/ { flush(); next }
        /^#/ { next }
        /^Types:/ { deb = / deb( |$)/; out = out "Types: deb-src\n"; next }
        /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == cn || index($i, cn "-") == 1) suite = 1 }
        /^Enabled:[ \t]*[Nn]o/ { off = 1 }
        { out = out $0 "\n" }
        END { flush() }')
    [[ -n $stanzas ]] || die "found no deb822 'Types: deb' entries for $codename in /etc/apt/sources.list.d/*.sources to mirror as deb-src"
    printf '%s\n' "$stanzas" >"$srcfile"
    say "added $srcfile"
  fi
  ((EUID == 0)) || die "deb-src indexes missing; run: sudo apt-get update"
  say "apt-get update (for source indexes)"
  apt-get update -q >>"$log" 2>&1 || die "apt-get update failed, see $log"
  have_sources || die "apt has no source for one of: $(for i in "${!names[@]}"; do printf '%s=%s ' "${names[i]}" "${versions[i]}"; done)(the installed -dev packages may be outdated: apt-get upgrade)"
fi

work=$(mktemp -d "$cache/tmp.XXXXXX")
trap 'rc=$?; rm -rf "$work"; ((rc == 0)) || { say "FAILED; last lines of $log:"; tail -n 40 "$log" >&2; }' EXIT
run() { "$@" >>"$log" 2>&1; }

# Fetches and unpacks (with Debian patches) source package $1 at version $2; prints its dir.
# A security update's source can be listed yet missing from the archive (libzstd's +deb12u1 answered
# 404 on 2026-12-02): then the newest other listed revision of the same upstream version is used,
# and the build log says so.
fetch() {
  mkdir "$work/$1"
  (cd "$work/$1" && run apt-get source -q --only-source "$1=$2") && {
    find "$work/$1" -mindepth 1 -maxdepth 1 -type d
    return
  }
  local upstream=${2%-*} other
  for other in $(apt-cache showsrc --only-source "$1" | sed -n 's/^Version: //p' | sort -rV); do
    [[ $other != "$2" && ${other%-*} == "$upstream" ]] || continue
    rm -rf "${work:?}/$1" && mkdir "$work/$1"
    if (cd "$work/$1" && run apt-get source -q --only-source "$1=$other"); then
      say "WARNING: $1 $2's source could not be fetched; built from $other (same upstream version)"
      find "$work/$1" -mindepth 1 -maxdepth 1 -type d
      return
    fi
  done
  die "could not fetch the source of $1 $2"
}

for lib in "${libs[@]}"; do
  name=${lib%%:*} i=${lib#*:}
  entry="$cache/lib/$(key_of "$name" "$i")"
  [[ -e $entry/.complete ]] && continue
  say "$name ${versions[i]}"
  rm -rf "$entry"
  mkdir -p "$entry/include" "$entry/lib"
  (prefix=$entry; "build_$name")
  rm -rf "$work"/*
  date -u +%FT%TZ >"$entry/.complete"
done

rm -rf "$prefix"
mkdir -p "$prefix"
for lib in "${libs[@]}"; do
  cp -al "$cache/lib/$(key_of "${lib%%:*}" "${lib#*:}")/." "$prefix/"
done
rm -f "$prefix/.complete"
date -u +%FT%TZ >"$prefix/.complete"
say "done"
echo "$prefix"
