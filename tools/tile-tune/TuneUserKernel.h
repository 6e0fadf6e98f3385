//===- TuneUserKernel.h - tile-tune for parameterized kernels ---*- C++ -*-===//
//
//   tile-tune --space BLOCK_M=64,128 --space GROUP_M=1,8 --cache tuned.json \
//       -- kernel.mlir --grid '${cdiv(4096, BLOCK_M) * cdiv(4096, BLOCK_N)}' \
//          --arg a=f16[4096x4096] ... [--check 'c=matmul(a,b)']
//
// Every setting of the space (the product of the --space lists) runs through
// tile-run with the arguments after `--`: compiled for this GPU, launched,
// compared with the interpreter (and the run's --check or --reference), and
// timed (--bench). A setting that does not compile for the GPU is skipped
// with its reason; one that computes a wrong result is rejected. The
// settings timed close to the fastest run again in rounds (--finalists,
// --finalist-margin, --rounds), ranked by the median of their timings. The
// fastest correct setting is written into the cache under the key tile-run
// reports (GPU, kernel source, problem); `tile-run --tuned CACHE` with the same
// arguments then runs it. An entry already in the cache is reused unless
// --retune.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TOOLS_TILE_TUNE_TUNEUSERKERNEL_H
#define TILE_TOOLS_TILE_TUNE_TUNEUSERKERNEL_H

#include <string>
#include <vector>

struct UserTuneOptions {
  std::vector<std::string> spaces; ///< NAME=V1,V2,...
  std::string cache;
  std::vector<std::string> runArgs; ///< tile-run's arguments
  std::string runner;               ///< tile-run; "" = next to tile-tune
  unsigned benchIters = 100;
  /// Seconds one setting's tile-run may take before it is stopped (0: no
  /// limit): a kernel that hangs on the GPU does not hang the tuner.
  unsigned candidateTimeout = 300;
  bool retune = false;
  /// The settings timed within finalistMargin of the fastest (at most
  /// `finalists`; fewer than 2: none) run again `rounds` times, in turns,
  /// and are ranked by the median of their timings.
  int finalists = 4;
  double finalistMargin = 0.15;
  int rounds = 3;
  const char *argv0 = nullptr;
};

/// Tunes; returns the exit status (0 success, 1 no correct setting or a
/// failed measurement, 2 bad input).
int tuneUserKernel(const UserTuneOptions &options);

#endif // TILE_TOOLS_TILE_TUNE_TUNEUSERKERNEL_H
