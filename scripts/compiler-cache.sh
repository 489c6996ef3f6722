# Sourced by the build scripts: compiles go through ccache where it is installed, keyed on paths
# relative to the repository, so a second clone (CI's) or a rebuild of the same sources hits.
# Sets `launcher`, the CMake options to pass at configure time.
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD} CCACHE_NOHASHDIR=1
  # The precompiled json.h (CMakeLists.txt, LOGSCOPE_PCH): ccache caches compiles that use it only
  # with these (ccache's manual, "Precompiled headers").
  export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}
fi
