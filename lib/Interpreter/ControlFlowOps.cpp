//===- ControlFlowOps.cpp - Blocks, loops, branches and calls -------------===//
//
// Runs a block op by op and the ops that hold regions or call: scf.for,
// scf.if and func.call.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interp;
using namespace mlir::tile::interp::detail;

LogicalResult Executor::execBlock(Block &block, ArrayRef<TensorRef> args,
                                  SmallVectorImpl<TensorRef> &yielded) {
  for (auto [arg, value] : llvm::zip(block.getArguments(), args))
    env[arg] = value;
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      yielded.clear();
      for (Value v : op.getOperands())
        yielded.push_back(env.lookup(v));
      return success();
    }
    if (failed(chargeStep(&op)) || failed(execOp(&op)))
      return failure();
  }
  return success();
}

LogicalResult Executor::execFor(scf::ForOp op) {
  int64_t lb = get(op.getLowerBound()).i[0];
  int64_t ub = get(op.getUpperBound()).i[0];
  int64_t step = get(op.getStep()).i[0];
  if (step <= 0)
    return error(op) << "scf.for step must be positive, got " << step;
  SmallVector<TensorRef> iter;
  for (Value v : op.getInitArgs())
    iter.push_back(env.lookup(v));
  Type ivType = op.getInductionVar().getType();
  int64_t width = bitWidth(ivType);
  int64_t count = 0;
  for (int64_t iv = lb; iv < ub;) {
    if (options.maxLoopIterations && ++count > options.maxLoopIterations)
      return error(op) << "loop ran more than " << options.maxLoopIterations
                       << " iterations; check the scalar arguments";
    auto ivValue = make(ivType);
    ivValue->i[0] = iv;
    SmallVector<TensorRef> args{ivValue};
    args.append(iter.begin(), iter.end());
    SmallVector<TensorRef> next;
    if (failed(execBlock(*op.getBody(), args, next)))
      return failure();
    iter = std::move(next);
    // The next value must not overflow the induction variable's type:
    // the GPU's loop would wrap around and never end.
    int64_t nextIv;
    if (llvm::AddOverflow(iv, step, nextIv) || wrap(width, nextIv) != nextIv)
      return error(op) << "the induction variable overflows " << ivType
                       << " after " << iv << " + " << step << " (upper bound "
                       << ub << "); the loop would not end";
    iv = nextIv;
  }
  for (auto [res, value] : llvm::zip(op.getResults(), iter))
    env[res] = value;
  return success();
}

LogicalResult Executor::execIf(scf::IfOp op) {
  bool cond = get(op.getCondition()).i[0] & 1;
  Region &region = cond ? op.getThenRegion() : op.getElseRegion();
  SmallVector<TensorRef> results;
  if (!region.empty() && failed(execBlock(region.front(), {}, results)))
    return failure();
  for (auto [res, value] : llvm::zip(op.getResults(), results))
    env[res] = value;
  return success();
}

/// Calls run the callee's body in an environment of its own, holding
/// only its arguments: with one shared environment a recursive call would
/// rebind the SSA values of the activation that is still running (its
/// arguments and everything it computed), and the caller would continue
/// with the callee's values. The caller's environment is set aside and
/// restored when the callee returns, guarded against runaway recursion.
LogicalResult Executor::execCall(func::CallOp op) {
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      op, op.getCalleeAttr());
  if (!callee || callee.isExternal())
    return error(op) << "cannot call '" << op.getCallee()
                     << "': no function body in this module";
  if (++callDepth > 64) {
    --callDepth;
    return error(op) << "call depth exceeds 64 (recursion?)";
  }
  SmallVector<TensorRef> args;
  for (Value v : op.getOperands())
    args.push_back(env.lookup(v));
  llvm::DenseMap<Value, TensorRef> callerEnv = std::move(env);
  env.clear();
  SmallVector<TensorRef> results;
  LogicalResult result = execBlock(callee.getBody().front(), args, results);
  env = std::move(callerEnv);
  --callDepth;
  if (failed(result))
    return failure();
  for (auto [res, value] : llvm::zip(op.getResults(), results))
    env[res] = value;
  return success();
}

std::optional<LogicalResult> Executor::execControlFlowOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<LogicalResult>>(op)
      .Case([&](scf::ForOp o) { return execFor(o); })
      .Case([&](scf::IfOp o) { return execIf(o); })
      .Case([&](func::CallOp o) { return execCall(o); })
      .Default([](Operation *) { return std::optional<LogicalResult>(); });
}
