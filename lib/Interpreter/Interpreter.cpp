//===- Interpreter.cpp - Execute tile kernels on the CPU ------------------===//
//
// Each program instance runs the kernel body once; every SSA value holds a
// whole tile (or a scalar) as a host array. Floats are kept as doubles but
// rounded to their element type after every operation, so results match
// what an IEEE implementation of the element type computes, up to the order
// of reductions (which the interpreter performs in float64).
//
// This file holds the entry points (lookupKernel, runKernel) and the
// launch of a kernel's programs, one after another or on threads of their
// own (Schedulers.h). The Executor (Executor.h) runs one program; the ops
// it runs are implemented one family per file (see Executor.cpp).
//
//===----------------------------------------------------------------------===//

#include "Executor.h"
#include "Schedulers.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Interpreter/Interpreter.h"

#include "llvm/Support/FormatVariadic.h"

#include <functional>
#include <memory>
#include <thread>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interp;
using namespace mlir::tile::interp::detail;

func::FuncOp mlir::tile::interp::lookupKernel(ModuleOp module, StringRef name) {
  // Kernels are the module's own functions (not those of nested modules,
  // which a symbol lookup in this module would not find).
  SmallVector<func::FuncOp> kernels;
  for (func::FuncOp f : module.getOps<func::FuncOp>())
    if (isKernel(f))
      kernels.push_back(f);
  if (!name.empty()) {
    for (func::FuncOp f : kernels)
      if (f.getSymName() == name)
        return f;
    InFlightDiagnostic diag = module.emitError()
                              << "no tile kernel named '" << name << "'";
    if (!kernels.empty()) {
      diag << "; kernels here:";
      for (func::FuncOp f : kernels)
        diag << " " << f.getSymName();
    }
    return nullptr;
  }
  if (kernels.size() == 1)
    return kernels.front();
  if (kernels.empty()) {
    module.emitError() << "no function marked 'tile.kernel' in this module";
    return nullptr;
  }
  InFlightDiagnostic diag = module.emitError()
                            << "several kernels; choose one with --kernel:";
  for (func::FuncOp f : kernels)
    diag << " " << f.getSymName();
  return nullptr;
}

/// Programs one thread each, up to 256 resident (see GridScheduler).
static LogicalResult runWaitingPrograms(func::FuncOp kernel,
                                        ArrayRef<TensorRef> values,
                                        std::vector<Buffer> &buffers,
                                        const RunOptions &options,
                                        StepBudget &budget) {
  const int64_t *grid = options.grid;
  int64_t total = grid[0] * grid[1] * grid[2];
  GridScheduler scheduler(total, /*window=*/256);
  std::mutex threadsMutex;
  std::condition_variable threadsDone;
  std::vector<std::thread> threads;
  int64_t started = 0, ended = 0;
  bool ok = true;
  std::function<void(int64_t)> start = [&](int64_t id) {
    std::unique_lock<std::mutex> lock(threadsMutex);
    ++started;
    threads.emplace_back([&, id] {
      bool ran = false;
      if (scheduler.waitForTurn(id)) {
        Executor exec(buffers, options, budget);
        exec.setGrid(&scheduler, id, start);
        int64_t pid[3] = {id % grid[0], id / grid[0] % grid[1],
                          id / (grid[0] * grid[1])};
        ran = succeeded(exec.runProgram(kernel, values, pid));
      }
      scheduler.finish(id, ran, start);
      std::unique_lock<std::mutex> lock(threadsMutex);
      ok &= ran;
      ++ended;
      threadsDone.notify_all();
    });
  };
  scheduler.admit(start);
  {
    std::unique_lock<std::mutex> lock(threadsMutex);
    threadsDone.wait(lock, [&] {
      return ended == started && (started == total || scheduler.failed());
    });
  }
  for (std::thread &t : threads)
    t.join();
  return success(ok && started == total);
}

LogicalResult mlir::tile::interp::runKernel(func::FuncOp kernel,
                                            ArrayRef<ArgValue> args,
                                            std::vector<Buffer> &buffers,
                                            const RunOptions &options) {
  ArrayRef<Type> params = kernel.getArgumentTypes();
  if (params.size() != args.size())
    return kernel.emitError()
           << "kernel '" << kernel.getSymName() << "' takes " << params.size()
           << " arguments but " << args.size() << " were given";
  for (int a = 0; a < 3; ++a)
    if (options.grid[a] < 1)
      return kernel.emitError() << "grid dimension " << a << " is "
                                << options.grid[a] << "; it must be at least 1";

  SmallVector<TensorRef> values;
  for (auto [idx, pair] : llvm::enumerate(llvm::zip(params, args))) {
    auto [type, arg] = pair;
    auto t = std::make_shared<Tensor>();
    t->kind = kindOf(type);
    if (auto ptr = dyn_cast<PointerType>(type)) {
      if (arg.kind != ArgValue::Kind::Buffer)
        return kernel.emitError() << "argument #" << idx << " has type " << type
                                  << " and needs a buffer";
      if (arg.bufferIndex >= (int)buffers.size())
        return kernel.emitError()
               << "argument #" << idx << " refers to a missing buffer";
      if (arg.bufferIndex >= 0) {
        const Buffer &buf = buffers[arg.bufferIndex];
        auto want = dtypeOf(ptr.getPointeeType());
        if (!want || *want != buf.dtype)
          return kernel.emitError() << "argument #" << idx << " has type "
                                    << type << " but buffer '" << buf.name
                                    << "' holds " << dtypeName(buf.dtype);
      }
      t->p.push_back(Ptr{arg.bufferIndex, 0});
    } else if (isa<FloatType>(type)) {
      if (arg.kind == ArgValue::Kind::Buffer)
        return kernel.emitError() << "argument #" << idx << " has type " << type
                                  << " and needs a scalar";
      double v = arg.kind == ArgValue::Kind::Float ? arg.floatValue
                                                   : (double)arg.intValue;
      t->f.push_back(roundTo(*dtypeOf(type), v));
    } else if (isa<IntegerType>(type)) {
      if (arg.kind != ArgValue::Kind::Int)
        return kernel.emitError() << "argument #" << idx << " has type " << type
                                  << " and needs an integer";
      int64_t width = bitWidth(type);
      int64_t v = wrap(width, arg.intValue);
      if (v != arg.intValue && width > 1)
        return kernel.emitError()
               << "argument #" << idx << " value " << arg.intValue
               << " does not fit in " << type;
      t->i.push_back(v);
    } else {
      return kernel.emitError() << "argument #" << idx << " has unsupported "
                                << "type " << type;
    }
    values.push_back(t);
  }

  int64_t clusterSize = 1;
  if (auto attr = kernel->getAttrOfType<IntegerAttr>(
          TileDialect::getClusterSizeAttrName()))
    clusterSize = attr.getInt();
  if (options.grid[0] % clusterSize != 0)
    return kernel.emitError()
           << "grid dimension 0 is " << options.grid[0]
           << "; it must be a multiple of tile.cluster_size (" << clusterSize
           << ")";

  int64_t pid[3];
  // Programs that wait for one another through global memory run as a GPU
  // keeps them resident (see GridScheduler); tile.cluster_size is then 1.
  bool waits = false;
  kernel.walk([&](WaitAtLeastOp) { waits = true; });
  StepBudget budget(options.maxSteps);
  if (waits && clusterSize == 1)
    return runWaitingPrograms(kernel, values, buffers, options, budget);
  if (clusterSize == 1) {
    Executor exec(buffers, options, budget);
    for (pid[2] = 0; pid[2] < options.grid[2]; ++pid[2])
      for (pid[1] = 0; pid[1] < options.grid[1]; ++pid[1])
        for (pid[0] = 0; pid[0] < options.grid[0]; ++pid[0])
          if (failed(exec.runProgram(kernel, values, pid)))
            return failure();
    return success();
  }
  // Clusters one after another; the programs of each on threads of their
  // own, one running at a time (see ClusterScheduler).
  for (pid[2] = 0; pid[2] < options.grid[2]; ++pid[2])
    for (pid[1] = 0; pid[1] < options.grid[1]; ++pid[1])
      for (int64_t first = 0; first < options.grid[0]; first += clusterSize) {
        ClusterScheduler scheduler((int)clusterSize);
        std::vector<char> ok(clusterSize, 0);
        std::vector<std::thread> threads;
        for (int rank = 0; rank < (int)clusterSize; ++rank)
          threads.emplace_back([&, rank] {
            if (!scheduler.waitForStart(rank)) {
              scheduler.finish(rank, false);
              return;
            }
            Executor exec(buffers, options, budget);
            exec.setCluster(&scheduler, rank);
            int64_t programPid[3] = {first + rank, pid[1], pid[2]};
            ok[rank] = succeeded(exec.runProgram(kernel, values, programPid));
            scheduler.finish(rank, ok[rank]);
          });
        for (std::thread &t : threads)
          t.join();
        if (llvm::is_contained(ok, 0))
          return failure();
      }
  return success();
}
