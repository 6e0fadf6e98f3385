//===- Finalists.h - Timing the fastest candidates again --------*- C++ -*-===//
//
// One timing per candidate ranks by whatever the GPU's clocks and
// neighbours did while it ran: on an H100, rounds of one kernel differ by
// about 5%, as much as the candidates at the top differ from each other.
// Both of tile-tune's modes (the library's kernels, a kernel's parameter
// space) time the candidates close to the fastest again, in turns, and rank
// them by the median of their timings.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TOOLS_TILE_TUNE_FINALISTS_H
#define TILE_TOOLS_TILE_TUNE_FINALISTS_H

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

#endif // TILE_TOOLS_TILE_TUNE_FINALISTS_H
