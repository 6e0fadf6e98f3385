#!/usr/bin/env bash
# Builds Tile and runs every test: the lit suite (IR, passes, tools, bad
# input) and the GoogleTest suites through ctest. Ends with the counts;
# exits non-zero when anything fails.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TILE_BUILD_DIR:-$root/build}"

"$root/scripts/install-deps.sh" || exit 1
"$root/scripts/build.sh" || exit 1

log="$build/test-log.txt"
: > "$log"
echo "== lit"
/usr/lib/llvm-22/bin/lit -sv "$build/test" 2>&1 | tee -a "$log"
lit_rc=${PIPESTATUS[0]}
echo "== ctest (GoogleTest)"
(cd "$build" && ctest --output-on-failure -j 2 -E '^lit$') 2>&1 | tee -a "$log"
ctest_rc=${PIPESTATUS[0]}

echo "== pytest (python/tests, the tile package)"
# Debian's python3 (with python3-pytest, python3-torch and, for the wheel's
# test, python3-pip, python3-setuptools and python3-wheel), not another
# interpreter first on PATH. test_gpu.py skips without a CUDA device.
py=/usr/bin/python3
py_rc=0
if "$py" -c "import pytest" 2>/dev/null; then
  TILE_LIBRARY="$build/lib/libtile.so" "$py" -m pytest -q -p no:cacheprovider \
    "$root/python/tests" 2>&1 | tee "$build/pytest-log.txt"
  py_rc=${PIPESTATUS[0]}
  py_line=$(tail -1 "$build/pytest-log.txt")
else
  py_line="not run (no pytest for $py)"
fi

lit_pass=$(grep -Eo 'Passed *: *[0-9]+' "$log" | grep -Eo '[0-9]+' | tail -1)
lit_fail=$(grep -Eo 'Failed *: *[0-9]+' "$log" | grep -Eo '[0-9]+' | tail -1)
ctest_line=$(grep -E 'tests passed, [0-9]+ tests failed out of' "$log" | tail -1)
echo
echo "== summary"
echo "lit:   ${lit_pass:-0} passed, ${lit_fail:-0} failed"
echo "gtest: ${ctest_line:-no result}"
echo "pytest: ${py_line}"
if [ "$lit_rc" -ne 0 ] || [ "$ctest_rc" -ne 0 ] || [ "$py_rc" -ne 0 ]; then
  echo "RESULT: FAIL"
  exit 1
fi
echo "RESULT: PASS"
