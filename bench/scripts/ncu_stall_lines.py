#!/usr/bin/env python3
"""The SASS lines of one kernel where its warps' stall samples gather.

Reads the per-instruction CSV that bench/scripts/profile_ncu.sh writes
(NAME.sass.csv) and prints every instruction holding at least THRESHOLD
percent of the kernel's warp stall samples, in program order:

    python3 bench/scripts/ncu_stall_lines.py NAME.sass.csv [THRESHOLD]

Columns: the instruction's index in the listing, its share of the samples,
the running share up to and including it (where a kernel's prologue, loop
and epilogue begin and end), how many times warps executed it (a loop's
instructions run once per iteration), its two largest stall reasons with
their sample counts, and the instruction.
"""

import csv
import sys


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__.split("\n\n")[1])
    rows = list(csv.reader(open(argv[1])))
    header = rows[1]
    source = header.index("Source")
    executed = header.index("Instructions Executed")
    samples = header.index("Warp Stall Sampling (All Samples)")
    stalls = [(i, h) for i, h in enumerate(header)
              if h.startswith("stall_") and "Not Issued" not in h]
    lines = []
    for r in rows[2:]:
        if len(r) < len(header):
            continue
        try:
            e, w = int(r[executed]), int(r[samples])
        except ValueError:
            continue
        top = sorted(((int(r[i] or 0), h[len("stall_"):]) for i, h in stalls),
                     reverse=True)[:2]
        lines.append((r[source].strip(), e, w, top))
    total = sum(w for _, _, w, _ in lines) or 1
    threshold = float(argv[2]) if len(argv) > 2 else 0.7
    running = 0
    for index, (text, e, w, top) in enumerate(lines):
        running += w
        if 100 * w / total >= threshold:
            reasons = " ".join(f"{name}:{n}" for n, name in top)
            print(f"{index:5d} {100 * w / total:5.1f}% cum "
                  f"{100 * running / total:5.1f}% exec {e:9d} {reasons} | "
                  f"{text[:70]}")
    print("instructions", len(lines), "samples", total)


if __name__ == "__main__":
    main(sys.argv)
