#!/usr/bin/env bash
# Makes SQLite's amalgamation (sqlite3.c, sqlite3.h) and copies its recovery extension
# (ext/recover: sqlite3recover.c/.h, dbdata.c) from Debian's sqlite3 source package, at the
# version of the installed libsqlite3-dev, into a cache outside the repo. CMake compiles these
# itself, natively and for wasm, with the dbpage table that Debian's libsqlite3 lacks
# (docs/rosbag2.md). The last line of stdout is the cache folder:
#   sqlite=$(scripts/fetch-sqlite.sh | tail -1)
set -euo pipefail
shopt -s inherit_errexit

say() { echo "fetch-sqlite: [${SECONDS}s] $*" >&2; }
die() { say "ERROR: $*"; exit 1; }

dev=libsqlite3-dev
[[ $(dpkg-query -W -f='${db:Status-Status}' "$dev" 2>/dev/null) == installed ]] ||
  die "$dev is not installed; run scripts/install-deps.sh"
read -r name version < <(dpkg-query -W -f='${source:Package} ${source:Version}\n' "$dev")

# Cache key: the source version and this recipe's hash.
key="$name$version-$(sha256sum "${BASH_SOURCE[0]}" | cut -c1-8)"
key=$(tr -c 'A-Za-z0-9.+_\n-' '_' <<<"$key")
cache="${LOGSCOPE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/logscope}/sqlite"
out="$cache/$key"
log="$cache/$key.log"

[[ -e $out/.complete ]] && { echo "$out"; exit 0; }

# One run at a time per cache; a concurrent run may have just finished it.
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
[[ -e $out/.complete ]] && { echo "$out"; exit 0; }
: >"$log"

command -v dpkg-source >/dev/null || die "dpkg-source not found (apt-get source needs dpkg-dev); run scripts/install-deps.sh"
command -v tclsh >/dev/null || die "tclsh not found (SQLite's amalgamation is made by Tcl scripts); run scripts/install-deps.sh"
command -v cc >/dev/null || die "no C compiler (the amalgamation's generators are C programs); run scripts/install-deps.sh"

have_source() {
  apt-cache showsrc --only-source "$name" 2>/dev/null | grep -qxF "Version: $version"
}

# apt-get source needs deb-src entries: the same file of our own that
# scripts/build-wasm-deps.sh writes (the Debian deb entries of this release, as deb-src).
if ! have_source; then
  srcfile=/etc/apt/sources.list.d/logscope-deb-src.sources
  if [[ ! -e $srcfile ]]; then
    ((EUID == 0)) || die "no deb-src entries for $name; rerun as root to add $srcfile"
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
  have_source || die "apt has no source for $name=$version (the installed $dev may be outdated: apt-get upgrade)"
fi

work=$(mktemp -d "$cache/tmp.XXXXXX")
trap 'rc=$?; rm -rf "$work"; ((rc == 0)) || { say "FAILED; last lines of $log:"; tail -n 40 "$log" >&2; }' EXIT
run() { "$@" >>"$log" 2>&1; }

say "sqlite3 $version: apt-get source"
(cd "$work" && run apt-get source -q --only-source "$name=$version")
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d)
[[ -f $src/ext/recover/sqlite3recover.c ]] || die "$name $version has no ext/recover (SQLite 3.40 or newer is needed)"

say "amalgamation (configure; make sqlite3.c)"
mkdir "$work/build"
(cd "$work/build" && run "$src/configure" --disable-tcl && run make sqlite3.c)

rm -rf "$out"
mkdir -p "$out/recover"
cp "$work/build"/{sqlite3.c,sqlite3.h,sqlite3ext.h} "$out/"
cp "$src"/ext/recover/{sqlite3recover.c,sqlite3recover.h,dbdata.c} "$out/recover/"
cp "$src/LICENSE.md" "$out/" 2>/dev/null || true
echo "$name $version" >"$out/VERSION"
date -u +%FT%TZ >"$out/.complete"
say "done"
echo "$out"
