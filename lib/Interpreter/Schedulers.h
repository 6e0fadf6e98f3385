//===- Schedulers.h - Programs that run in turns ----------------*- C++ -*-===//
//
// The interpreter runs the programs of a cluster, and those of a grid that
// waits on global memory, on threads of their own, one at a time: the
// schedulers below hand the turn over at their cluster ops and waits.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_INTERPRETER_SCHEDULERS_H
#define TILE_LIB_INTERPRETER_SCHEDULERS_H

#include "mlir/IR/Operation.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mlir {
namespace tile {
namespace interp {
namespace detail {

/// Runs the programs of one cluster (tile.cluster_size) one at a time, each
/// on a thread of its own: a program runs until it reaches a cluster op
/// (tile.cluster_reduce, tile.cluster_gather) or ends, then hands over to
/// the next program of the cluster. An exchange completes once every
/// program has contributed, so the programs see the same collectives as on
/// the GPU, in a fixed order (the results do not depend on thread timing).
/// Only the thread holding the turn runs; every hand-over goes through the
/// mutex.
class ClusterScheduler {
public:
  explicit ClusterScheduler(int size)
      : size(size), finished(size, false), nextCollective(size, 0) {}

  /// Blocks until `rank` may run its program.
  bool waitForStart(int rank) {
    std::unique_lock<std::mutex> lock(mutex);
    cv.wait(lock, [&] { return turn == rank || aborted; });
    return !aborted;
  }

  /// Marks `rank`'s program as ended (or failed, which stops the cluster).
  void finish(int rank, bool ok) {
    std::unique_lock<std::mutex> lock(mutex);
    finished[rank] = true;
    if (!ok)
      aborted = true;
    passTurn(rank);
    cv.notify_all();
  }

  /// Contributes `values` from `rank` to its next exchange, `op` (a cluster
  /// op), and returns every program's contribution, by rank; std::nullopt
  /// (with `error` set when this program should report it) when the
  /// cluster cannot complete the exchange.
  std::optional<std::vector<std::vector<double>>>
  exchange(int rank, Operation *op, std::vector<double> values,
           std::string &error) {
    std::unique_lock<std::mutex> lock(mutex);
    size_t k = nextCollective[rank]++;
    if (k == collectives.size())
      collectives.push_back({op, std::vector<std::vector<double>>(size), 0});
    if (collectives[k].op != op) {
      error = "the programs of a cluster reached different cluster ops (on "
              "a GPU the cluster would deadlock)";
      aborted = true;
      cv.notify_all();
      return std::nullopt;
    }
    collectives[k].values[rank] = std::move(values);
    ++collectives[k].contributed;
    while (collectives[k].contributed < size) {
      for (int r = 0; r < size; ++r)
        if (finished[r] && nextCollective[r] <= k) {
          error = "program " + std::to_string(r) +
                  " of this cluster ended without reaching this op (on a "
                  "GPU the cluster would deadlock)";
          aborted = true;
          cv.notify_all();
          return std::nullopt;
        }
      passTurn(rank);
      cv.notify_all();
      cv.wait(lock, [&] { return turn == rank || aborted; });
      if (aborted)
        return std::nullopt;
    }
    return collectives[k].values;
  }

private:
  struct Collective {
    Operation *op;
    std::vector<std::vector<double>> values; // by rank, then value
    int contributed;
  };

  /// Hands the turn to the next program after `rank` that has not ended.
  void passTurn(int rank) {
    for (int s = 1; s <= size; ++s) {
      int r = (rank + s) % size;
      if (!finished[r]) {
        turn = r;
        return;
      }
    }
  }

  std::mutex mutex;
  std::condition_variable cv;
  int size;
  int turn = 0;
  bool aborted = false;
  std::vector<bool> finished;
  std::vector<size_t> nextCollective;
  std::vector<Collective> collectives;
};

/// Runs the programs of a kernel that waits on global memory
/// (tile.wait_at_least) as a GPU keeps programs resident: up to `window`
/// at once, each on a thread of its own, started in program order as
/// others end. One program runs at a time; it hands the turn to the next
/// live program (in program order, wrapping) when it ends or waits for a
/// value not yet written. When every live program waits and no other can
/// start, no program can write what they wait for: a deadlock, reported
/// (on a GPU the kernel would hang).
class GridScheduler {
public:
  GridScheduler(int64_t total, int64_t window) : total(total), window(window) {}

  /// Starts programs (calling `start(id)`, which must launch a thread that
  /// runs `id`) while fewer than `window` live; the first takes the turn.
  template <typename Start> void admit(Start start) {
    std::unique_lock<std::mutex> lock(mutex);
    admitLocked(start);
  }

  /// Blocks until program `id` holds the turn; false once aborted.
  bool waitForTurn(int64_t id) {
    std::unique_lock<std::mutex> lock(mutex);
    cv.wait(lock, [&] { return turn == id || aborted; });
    return !aborted;
  }

  /// Program `id` has ended (or failed, which stops the grid).
  template <typename Start> void finish(int64_t id, bool ok, Start start) {
    std::unique_lock<std::mutex> lock(mutex);
    live.erase(id);
    waiting.clear();
    if (!ok)
      aborted = true;
    admitLocked(start);
    passTurn(id);
    cv.notify_all();
  }

  /// Program `id` waits until `ready()` (read under the turn) holds; false
  /// with `error` set when every live program waits (a deadlock) or the
  /// grid was aborted.
  template <typename Ready, typename Start>
  bool waitUntil(int64_t id, Ready ready, Start start, std::string &error) {
    std::unique_lock<std::mutex> lock(mutex);
    while (!ready()) {
      waiting.insert(id);
      admitLocked(start);
      if (waiting.size() == live.size()) {
        error = "every running program (" + std::to_string(live.size()) +
                ", at most " + std::to_string(window) +
                " at once) waits in tile.wait_at_least for a value no "
                "program has written (on a GPU the kernel would hang)";
        aborted = true;
        cv.notify_all();
        return false;
      }
      passTurn(id);
      cv.notify_all();
      cv.wait(lock, [&] { return turn == id || aborted; });
      if (aborted)
        return false;
    }
    // Progress: the others' values may have changed too.
    waiting.clear();
    return true;
  }

  /// (Lock-free: called under the caller's own lock, which start() takes.)
  bool failed() const { return aborted; }

private:
  template <typename Start> void admitLocked(Start start) {
    while ((int64_t)live.size() < window && next < total) {
      live.insert(next);
      if (turn < 0)
        turn = next;
      start(next++);
    }
  }

  /// Hands the turn to the next live program after `id`, in program order.
  void passTurn(int64_t id) {
    if (live.empty()) {
      turn = -1;
      return;
    }
    auto it = live.upper_bound(id);
    turn = it == live.end() ? *live.begin() : *it;
  }

  std::mutex mutex;
  std::condition_variable cv;
  int64_t total, window;
  int64_t next = 0, turn = -1;
  std::atomic<bool> aborted{false};
  std::set<int64_t> live, waiting;
};

} // namespace detail
} // namespace interp
} // namespace tile
} // namespace mlir

#endif // TILE_LIB_INTERPRETER_SCHEDULERS_H
