//===- CheckCalls.cpp - Reject calls kernels cannot inline ----------------===//
//
// Kernels are compiled as single functions: the compiler inlines every call
// before anything else. A call that cannot be inlined (recursion, a callee
// without a body, a kernel) is reported here, at the call, before the
// inliner and the PTX path would fail with messages about symbols and
// materializations; so are chains of helpers deeper than the interpreter's
// call depth, which the inliner would take minutes over.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILECHECKCALLS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

/// The longest chain of calls from any function (the interpreter's call
/// depth limit too).
static constexpr size_t kMaxCallDepth = 64;

/// The calls in `f`'s body, in order.
static SmallVector<func::CallOp> callsOf(func::FuncOp f) {
  SmallVector<func::CallOp> calls;
  f.walk([&](func::CallOp call) { calls.push_back(call); });
  return calls;
}

namespace {
struct TileCheckCallsPass
    : public tile::impl::TileCheckCallsBase<TileCheckCallsPass> {
  using Base::Base;

  void runOnOperation() override {
    // Chains first, over every function: the inliner works on all of them,
    // called by a kernel or not.
    if (failed(checkChainLengths()))
      return signalPassFailure();
    if (chainsOnly)
      return;
    bool failedAny = false;
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (isKernel(func) && failed(checkCalls(func)))
        failedAny = true;
    if (failedAny)
      signalPassFailure();
  }

  /// Every chain of calls in the module, from any function, is at most
  /// kMaxCallDepth calls long (cycles are checkCalls' to report). Heights
  /// (the longest chain below a function) are computed once per function,
  /// depth-first with an explicit stack.
  LogicalResult checkChainLengths() {
    struct Frame {
      func::FuncOp func;
      SmallVector<func::CallOp> calls;
      size_t next = 0;
      size_t height = 0;
    };
    llvm::DenseMap<Operation *, size_t> heights;
    llvm::DenseSet<Operation *> onPath;
    for (auto root : getOperation().getOps<func::FuncOp>()) {
      if (root.isExternal() || heights.count(root))
        continue;
      SmallVector<Frame> stack;
      stack.push_back({root, callsOf(root)});
      onPath.insert(root);
      while (!stack.empty()) {
        Frame &top = stack.back();
        if (top.next == top.calls.size()) {
          size_t height = top.height;
          heights[top.func] = height;
          onPath.erase(top.func);
          stack.pop_back();
          if (!stack.empty())
            stack.back().height = std::max(stack.back().height, height + 1);
          continue;
        }
        func::CallOp call = top.calls[top.next];
        auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
            call, call.getCalleeAttr());
        if (callee && !callee.isExternal() && !onPath.contains(callee) &&
            !heights.count(callee)) {
          // Visit the callee first; this call is looked at again after.
          onPath.insert(callee);
          stack.push_back({callee, callsOf(callee)});
          continue;
        }
        ++top.next;
        if (!callee || callee.isExternal() || onPath.contains(callee))
          continue;
        top.height = std::max(top.height, heights[callee] + 1);
        if (top.height > kMaxCallDepth)
          return call.emitError()
                 << "calls from '" << top.func.getSymName() << "' nest deeper "
                 << "than " << kMaxCallDepth
                 << " functions; every call is inlined";
      }
    }
    return success();
  }

  /// Every call reachable from `kernel` must be inlinable: no recursion, no
  /// callee without a body, no kernel as callee.
  LogicalResult checkCalls(func::FuncOp kernel) {
    // Depth-first over the call graph with an explicit stack (call chains
    // of generated input may be long); `onPath` holds the functions of the
    // current chain.
    struct Frame {
      func::FuncOp func;
      SmallVector<func::CallOp> calls;
      size_t next = 0;
    };
    llvm::DenseSet<Operation *> onPath, done;
    SmallVector<Frame> stack;
    stack.push_back({kernel, callsOf(kernel)});
    onPath.insert(kernel);
    while (!stack.empty()) {
      Frame &top = stack.back();
      if (top.next == top.calls.size()) {
        onPath.erase(top.func);
        done.insert(top.func);
        stack.pop_back();
        continue;
      }
      func::CallOp call = top.calls[top.next++];
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (!callee || callee.isExternal())
        return call.emitError()
               << "kernel '" << kernel.getSymName() << "' calls '"
               << call.getCallee()
               << "', which has no body in this module; kernels may call "
                  "only functions defined beside them (they are inlined)";
      if (isKernel(callee))
        return call.emitError()
               << "kernel '" << kernel.getSymName() << "' calls kernel '"
               << call.getCallee() << "'; kernels are launched, not called";
      if (onPath.contains(callee))
        return call.emitError()
               << "recursive call to '" << call.getCallee() << "' from kernel '"
               << kernel.getSymName()
               << "'; calls are inlined, so kernels and their helpers "
                  "cannot recurse";
      if (done.contains(callee))
        continue;
      onPath.insert(callee);
      stack.push_back({callee, callsOf(callee)});
    }
    return success();
  }
};
} // namespace
