//===- Finalists.h - Timing the fastest candidates again --------*- C++ -*-===//
//
// One timing per candidate ranks by whatever the GPU's clocks and
// neighbours did while it ran: on an H100, rounds of one kernel differ by
// about 5%, as much as the candidates at the top differ from each other.
// Both of tile-tune's modes (the library's kernels, a kernel's parameter
// space) time the candidates close to the fastest again and rank them by
// the median of their timings. A kernel's parameter space is timed in
// rounds of whole runs of tile-run (retimeFinalists); the library's kernels,
// launched in one process, call by call in turns (interleaveFinalists), so
// that all of them run at the same clocks: a GPU at its power limit slows
// down and speeds up over seconds, and finalists timed one after another
// would be ranked by the clocks the ones before them left.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TOOLS_TILE_TUNE_FINALISTS_H
#define TILE_TOOLS_TILE_TUNE_FINALISTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstddef>
#include <optional>
#include <vector>

/// The indices of the entries of `ms` timed within `margin` of the smallest
/// (0.15: 15% slower), fastest first (ties in index order), at most `count`
/// of them; none when fewer than two qualify.
std::vector<size_t> chooseFinalists(const std::vector<double> &ms, int count,
                                    double margin);

/// Times each finalist again `rounds` times, taking turns in an order that
/// rotates each round, through `time(index)`, and sets its entry of `ms` to
/// the median of all its timings. A finalist whose timing fails (nullopt)
/// is timed no more and gets +inf.
void retimeFinalists(std::vector<double> &ms,
                     const std::vector<size_t> &finalists, int rounds,
                     llvm::function_ref<std::optional<double>(size_t)> time);

/// The kernels of `n` finalists' interleaved timing, call by call: `calls`
/// rounds, each of which runs every finalist once, round r starting with
/// finalist r mod n (so that no finalist always follows the same one).
std::vector<size_t> getInterleavedOrder(size_t n, int calls);

/// Times `finalists` call by call in turns, `calls` calls each: `timeCalls`
/// runs finalist order[0], order[1], ... (getInterleavedOrder; indices into
/// `finalists`), each call timed on its own, and writes each call's
/// milliseconds into `times` (as long as `order`). Each finalist's entry of
/// `ms` becomes the median of its calls.
void interleaveFinalists(
    std::vector<double> &ms, const std::vector<size_t> &finalists, int calls,
    llvm::function_ref<void(llvm::ArrayRef<size_t> order,
                            llvm::MutableArrayRef<float> times)>
        timeCalls);

/// The candidates' indices in ranking order once `finalists` were timed
/// again: the finalists first, by their new times (those that failed,
/// +inf, after every other candidate), then the rest by their first
/// times; ties in index order. A candidate left out of the finalists was
/// timed slower than each of them in the same first timing, and their new
/// times come from another timing (in turns, or a median over rounds),
/// whose numbers a first timing does not compare with: ranked by time
/// alone, a candidate timed once could come first because the finalists'
/// second timing ran at other clocks.
std::vector<size_t> rankAfterFinalists(const std::vector<double> &ms,
                                       const std::vector<size_t> &finalists);

#endif // TILE_TOOLS_TILE_TUNE_FINALISTS_H
