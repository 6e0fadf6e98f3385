"""The GPU's SM clock and board power sampled while a benchmark runs.

The fastest kernels can hold a GPU at its power limit, where its clock
drops well below the maximum (an H200 running attention: 1590-1650 MHz
of 1980), so a long run of calls is slower than a short one from idle;
a time is comparable with another only at a known clock.
"""

from __future__ import annotations

import atexit
import math
import statistics
import subprocess
import sys
import threading
import time


class ClockSampler:
    """nvidia-smi's SM clock (MHz) and power (W) every 20 ms, each sample
    stamped with the host's monotonic clock as it arrives."""

    def __init__(self):
        self.samples = []
        try:
            self.proc = subprocess.Popen(
                ["nvidia-smi", "--query-gpu=clocks.sm,power.draw",
                 "--format=csv,noheader,nounits", "-lms", "20"],
                stdout=subprocess.PIPE, text=True)
        except OSError as e:
            sys.exit(f"sampling clocks needs nvidia-smi ({e})")
        # nvidia-smi would outlive a script that exits without stop().
        atexit.register(self.stop)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        time.sleep(0.5)  # nvidia-smi's first sample

    def _read(self):
        for line in self.proc.stdout:
            try:
                mhz, watts = (float(x) for x in line.split(","))
            except ValueError:
                continue
            self.samples.append((time.monotonic(), mhz, watts))

    def between(self, begin, end):
        """Median MHz and W of the samples taken from begin to end (host
        monotonic times); NaN where none was."""
        inside = [s for s in list(self.samples) if begin <= s[0] <= end]
        if not inside:
            return math.nan, math.nan
        return (statistics.median(s[1] for s in inside),
                statistics.median(s[2] for s in inside))

    def stop(self):
        """Ends the sampling (again: nothing) and returns the samples."""
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait()
        self.thread.join(timeout=1)
        return self.samples
