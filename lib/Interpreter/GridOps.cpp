//===- GridOps.cpp - Program ids, cluster collectives, atomics, waits -----===//
//
// The ops through which a program meets the others of its grid:
// tile.program_id and tile.num_programs, the cluster collectives
// (tile.cluster_reduce, tile.cluster_gather, exchanged through the
// ClusterScheduler), tile.atomic_add and tile.wait_at_least (which hands
// the turn over through the GridScheduler).
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "llvm/ADT/TypeSwitch.h"

#include "Schedulers.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interp;
using namespace mlir::tile::interp::detail;

/// Every program's `values` (by rank) for the cluster op `op`; a
/// kernel without clusters (tile.cluster_size = 1) exchanges with itself.
FailureOr<std::vector<std::vector<double>>>
Executor::exchangeInCluster(Operation *op, ValueRange values) {
  std::vector<double> mine;
  for (Value v : values) {
    const Tensor &t = get(v);
    mine.push_back(t.kind == Kind::Float ? t.f[0] : (double)t.i[0]);
  }
  if (!cluster)
    return std::vector<std::vector<double>>{mine};
  std::string message;
  auto all = cluster->exchange(clusterRank, op, std::move(mine), message);
  if (all)
    return *all;
  if (!message.empty())
    return error(op) << message;
  return failure(); // another program of the cluster failed
}

/// `v` as an element of type `type` (f32 or i32).
void Executor::setElement(Tensor &t, int64_t idx, Type type, double v) {
  if (isa<FloatType>(type))
    t.f[idx] = roundTo(DType::F32, v);
  else
    t.i[idx] = wrap(32, (int64_t)v);
}

LogicalResult Executor::execAtomicAdd(AtomicAddOp op) {
  Ptr ptr = get(op.getPtr()).p[0];
  if (failed(checkAccess(op, ptr, 4, "atomic_add")))
    return failure();
  int64_t old = readInt(ptr, DType::I32);
  writeInt(ptr, DType::I32, wrap(32, old + get(op.getValue()).i[0]));
  auto r = make(op.getType());
  r->i[0] = old;
  set(op.getResult(), r);
  return success();
}

LogicalResult Executor::execWaitAtLeast(WaitAtLeastOp op) {
  Ptr ptr = get(op.getPtr()).p[0];
  if (failed(checkAccess(op, ptr, 4, "wait_at_least")))
    return failure();
  int64_t target = get(op.getTarget()).i[0];
  auto ready = [&] { return readInt(ptr, DType::I32) >= target; };
  if (ready())
    return success();
  if (!grid)
    return error(op) << "waits for the i32 at its pointer to reach " << target
                     << " (it holds " << readInt(ptr, DType::I32)
                     << ") but no other program is running";
  std::string message;
  if (grid->waitUntil(gridId, ready, startProgram, message))
    return success();
  if (!message.empty())
    return error(op) << message;
  return failure(); // another program failed
}

LogicalResult Executor::execClusterReduce(ClusterReduceOp op) {
  auto all = exchangeInCluster(op, op.getValue());
  if (failed(all))
    return failure();
  // In rank order: the same result in every program.
  double acc = (*all)[0][0];
  for (size_t r = 1; r < all->size(); ++r)
    acc = combineFloat(op.getKind(), acc, (*all)[r][0]);
  auto r = make(op.getType());
  setElement(*r, 0, op.getType(), acc);
  set(op.getResult(), r);
  return success();
}

LogicalResult Executor::execClusterGather(ClusterGatherOp op) {
  auto all = exchangeInCluster(op, op.getValues());
  if (failed(all))
    return failure();
  for (auto [k, result] : llvm::enumerate(op.getResults())) {
    auto r = make(result.getType());
    Type elem = getElementTypeOrSelf(result.getType());
    for (int64_t rank = 0, n = r->size(); rank < n; ++rank)
      setElement(*r, rank, elem, (*all)[rank][k]);
    set(result, r);
  }
  return success();
}

std::optional<LogicalResult> Executor::execGridOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<LogicalResult>>(op)
      .Case([&](ProgramIdOp o) {
        auto r = make(o.getType());
        r->i[0] = programId[o.getAxis()];
        set(o.getResult(), r);
        return success();
      })
      .Case([&](NumProgramsOp o) {
        auto r = make(o.getType());
        r->i[0] = options.grid[o.getAxis()];
        set(o.getResult(), r);
        return success();
      })
      .Case([&](ClusterReduceOp o) { return execClusterReduce(o); })
      .Case([&](AtomicAddOp o) { return execAtomicAdd(o); })
      .Case([&](WaitAtLeastOp o) { return execWaitAtLeast(o); })
      .Case([&](ClusterGatherOp o) { return execClusterGather(o); })
      // Kernels run one after another: nothing to wait for or to release.
      .Case<WaitPriorGridOp, LaunchDependentsOp>(
          [](Operation *) { return success(); })
      .Default([](Operation *) { return std::optional<LogicalResult>(); });
}
