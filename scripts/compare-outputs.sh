#!/usr/bin/env bash
# Runs two logscope binaries over every sample (../shared/samples, recursive) and diffs what they
# print: info (text and --json), check --json, map --json and each format's queries (messages,
# export of the first topic / series / actor, actors, collisions, blocked, blocks). For changes
# that must not change any output, or whose every difference needs explaining.
#   scripts/compare-outputs.sh OLD_LOGSCOPE NEW_LOGSCOPE [SAMPLES_DIR] [OUT_DIR]
# Prints one line per differing output and a total; the outputs stay in OUT_DIR (old/, new/).
set -uo pipefail
old=${1:?usage: compare-outputs.sh OLD_LOGSCOPE NEW_LOGSCOPE [SAMPLES_DIR] [OUT_DIR]}
new=${2:?usage: compare-outputs.sh OLD_LOGSCOPE NEW_LOGSCOPE [SAMPLES_DIR] [OUT_DIR]}
samples=${3:-$(dirname "$0")/../../shared/samples}
out=${4:-$(mktemp -d)}
mkdir -p "$out/old" "$out/new"

# The commands for one file, one per line (arguments split on spaces; FILE is the path).
commands_for() {
  local file=$1 json kind first
  json=$("$old" info --json "$file" 2>/dev/null)
  kind=$(printf '%s' "$json" | python3 -c 'import json,sys
try: print(json.load(sys.stdin)["detection"]["family"])
except Exception: print("")')
  printf '%s\n' "info FILE" "info --json FILE" "check --json FILE" "map --json FILE"
  case $kind in
    rosbag)
      first=$(printf '%s' "$json" | python3 -c 'import json,sys
rows=[t for t in json.load(sys.stdin)["summary"]["tables"] if t["name"]=="topics"]
print(rows[0]["rows"][0][0] if rows and rows[0]["rows"] else "")')
      printf '%s\n' "messages FILE --limit 300" "messages FILE --json --limit 300"
      [[ -n $first && $first != *" "* ]] && printf '%s\n' "export FILE --topic $first --format jsonl" "export FILE --topic $first --format csv"
      ;;
    carla)
      first=$("$old" actors "$file" --json 2>/dev/null | python3 -c 'import json,sys
try:
  a=json.load(sys.stdin); rows=a["actors"] if isinstance(a,dict) else a
  print(rows[0]["id"] if rows else "")
except Exception: print("")')
      printf '%s\n' "actors FILE --json" "collisions FILE --json" "blocked FILE --json" "blocked FILE"
      [[ -n $first ]] && printf '%s\n' "export FILE --actor $first --format jsonl" "export FILE --actor $first --format csv"
      ;;
    bddf)
      printf '%s\n' "blocks FILE --json --max 300" "export FILE --series 0 --format jsonl" "export FILE --series 0 --format csv"
      ;;
  esac
}

runs=0
differ=0
while IFS= read -r -d '' file; do
  case $file in *.md | *.json | *.txt) continue ;; esac
  name=$(basename "$file")
  while IFS= read -r cmd; do
    [[ -z $cmd ]] && continue
    read -r -a words <<<"$cmd"
    args=()
    for w in "${words[@]}"; do [[ $w == FILE ]] && args+=("$file") || args+=("$w"); done
    tag="$name.$(printf '%s' "$cmd" | tr -c 'A-Za-z0-9._-' '_')"
    # stderr apart: interleaved with stdout, its place would depend on stdout's buffering.
    "$old" "${args[@]}" >"$out/old/$tag" 2>"$out/old/$tag.stderr"
    echo "exit $?" >>"$out/old/$tag.stderr"
    "$new" "${args[@]}" >"$out/new/$tag" 2>"$out/new/$tag.stderr"
    echo "exit $?" >>"$out/new/$tag.stderr"
    runs=$((runs + 1))
    for part in "$tag" "$tag.stderr"; do
      if ! cmp -s "$out/old/$part" "$out/new/$part"; then
        differ=$((differ + 1))
        echo "differs: $name: $cmd${part#"$tag"} ($(diff "$out/old/$part" "$out/new/$part" | grep -c '^<') lines)"
        break
      fi
    done
  done < <(commands_for "$file")
done < <(find "$samples" -type f -print0 | sort -z)
echo "compare-outputs: $runs outputs, $differ differ (in $out)"
