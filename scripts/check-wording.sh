#!/usr/bin/env bash
# Fails when a file of the source tree, by its contents or its name, speaks
# of how the project is developed rather than of the project: numbered
# periods of work, the machines and tools used to develop it, letters given
# to benchmark runs, issue numbers, internal briefs or numbered source
# documents. A measurement is named by its date, GPU and commit; a source
# by its title.
#
#   scripts/check-wording.sh [source dir]
#
# Prints each hit as path:line: text (path: file name for names) and exits
# 1 if there is any, 0 otherwise. Inside a git work tree it scans the
# tracked and the untracked, not ignored, files; elsewhere every file but
# build directories and .git.
set -euo pipefail

root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
cd "$root"
self="scripts/check-wording.sh"

# The patterns are assembled from pieces so that this file does not match
# them itself (it is also skipped by path below).
s="sess""ion"
sd="see""d"
words=(
  "${s}s? ?[-_ ]?[0-9]+"
  "(this|previous|next|last|earlier|later|current) ${s}"
  "work peri""od"
  "devi""ce tool"
  "\`devi""ce\` tool"
  "devi""ce run\\b"
  "devi""ce runs[^ a-z]"
  "(for|of|in|on|from|during|between) devi""ce runs"
  "len""t (gpu|h100|h200|machine|device)"
  "${sd}s? ?[-_ ]?0[0-9][0-9]?"
  "iss""ue #?[0-9]+"
  "iss""ues #[0-9]+"
  "the bri""ef"
  "DEVELO""PERS\\.md"
  "\\bC""EO\\b"
)
insensitive="$(IFS='|'; echo "${words[*]}")"
# Letters given to runs ("run AE", "runs J, K"): upper case only and
# followed by punctuation, a lower-case word or the line's end, so that
# "run a command" and "copies run S - 2 steps ahead" stay legal.
letters="\\b[Rr]""uns? [A-Z]{1,2}[0-9]?([,.;:)]| [a-z(]|\$)"

list_files() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -z --cached --others --exclude-standard
  else
    find . \( -name .git -o -name 'build' -o -name 'build-*' \
              -o -name 'build_*' \) -prune -o -type f -print0 |
      sed -z 's|^\./||'
  fi
}

hits=0
while IFS= read -r -d '' f; do
  [ "$f" = "$self" ] && continue
  [ -f "$f" ] || continue
  if printf '%s\n' "$f" | grep -q -i -E "$insensitive" ||
     printf '%s\n' "$f" | grep -q -E "$letters"; then
    echo "$f: file name"
    hits=1
  fi
  # -I skips binary files. Lines matching either pattern, in line order.
  out="$( { grep -n -I -i -E "$insensitive" -- "$f" || true;
            grep -n -I -E "$letters" -- "$f" || true; } |
          sort -t: -k1,1n -u)"
  if [ -n "$out" ]; then
    while IFS= read -r line; do
      echo "$f:$line"
    done <<<"$out"
    hits=1
  fi
done < <(list_files)

exit "$hits"
