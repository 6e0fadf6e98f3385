"""Runs a command and prints a transcript of it in the style of
docs/tools.md: a line `$ NAME` (the command's base name), everything the
command wrote to stdout and stderr (merged, in the order written), and a last
line `[exit N]` with its exit status. Always exits 0, so that a test can
check the exact exit status with FileCheck:

  RUN: %python %S/Inputs/run.py tile-run ... | FileCheck %s
  CHECK:      $ tile-run
  CHECK-NEXT: tile-run: error: ...
  CHECK-NEXT: [exit 2]

(`not` only tells zero from non-zero; tile-run's statuses 1 and 2 mean
different things.)
"""

import os
import subprocess
import sys

command = sys.argv[1:]
if not command:
    sys.exit("usage: run.py COMMAND [ARG...]")
sys.stdout.write("$ " + os.path.basename(command[0]) + "\n")
sys.stdout.flush()
result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
out = sys.stdout.buffer
out.write(result.stdout)
if result.stdout and not result.stdout.endswith(b"\n"):
    out.write(b"\n")
out.write(b"[exit %d]\n" % result.returncode)
out.flush()
