#!/usr/bin/env bash
# Profiles one kernel launch with Nsight Compute (on a GPU machine) and writes
# readable text next to the report:
#   bench/scripts/profile_ncu.sh OUTDIR NAME KERNEL-REGEX -- COMMAND...
# OUTDIR/NAME.ncu-rep     the full report (ncu --set full)
# OUTDIR/NAME.details.txt every section's table and ncu's rule findings
# OUTDIR/NAME.sass.csv    per-SASS-instruction counters (stall samples,
#                         executed instructions), for the hot spots
# The clocks are left alone (--clock-control none, as the device notes ask);
# the second matching launch is profiled (the first may carry module load;
# NCU_SKIP=n profiles launch n + 1 instead).
set -euo pipefail
out=$1 name=$2 regex=$3
shift 3
[[ ${1:-} == -- ]] && shift
mkdir -p "$out"
ncu --clock-control none --set full --import-source no \
  --kernel-name "regex:$regex" --launch-skip "${NCU_SKIP:-1}" --launch-count 1 \
  -f -o "$out/$name" "$@" > "$out/$name.log" 2>&1 || {
  tail -20 "$out/$name.log"; exit 1; }
ncu -i "$out/$name.ncu-rep" --page details > "$out/$name.details.txt"
ncu -i "$out/$name.ncu-rep" --page source --print-source sass --csv \
  > "$out/$name.sass.csv" 2>&1 || true
echo "$name: $(grep -m1 -E 'Duration' "$out/$name.details.txt")"
