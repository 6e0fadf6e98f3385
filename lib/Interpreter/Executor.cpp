//===- Executor.cpp - Runs one op of a program ----------------------------===//
//
// The executor's step budget and the dispatch of each op to its family:
// one file per family of ops (ControlFlowOps.cpp, ShapeOps.cpp,
// MemoryOps.cpp, ReduceOps.cpp, GridOps.cpp, DotOps.cpp, DebugOps.cpp,
// ArithOps.cpp, MathOps.cpp), each with an exec*Op that handles the ops
// of its family and declines the others. Executor.h holds what they share.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interp;
using namespace mlir::tile::interp::detail;

/// Counts `op` against the run's step budget: its result's elements, at
/// least 64 (scalar ops cost about as much time as 64 tile elements).
LogicalResult Executor::chargeStep(Operation *op) {
  if (!budget.limit)
    return success();
  int64_t steps = 64;
  if (op->getNumResults())
    if (auto tensor = dyn_cast<RankedTensorType>(op->getResult(0).getType());
        tensor && tensor.hasStaticShape())
      steps = std::max<int64_t>(steps, tensor.getNumElements());
  if (budget.used.fetch_add(steps) + steps <= budget.limit)
    return success();
  return error(op) << "the run took more than " << budget.limit
                   << " steps (elements computed, at least 64 per op); "
                      "the interpreter stops there (tile-run --max-steps)";
}

LogicalResult Executor::execOp(Operation *op) {
  using Family = std::optional<LogicalResult> (Executor::*)(Operation *);
  for (Family family :
       {&Executor::execControlFlowOp, &Executor::execShapeOp,
        &Executor::execMemoryOp, &Executor::execAtomicOp,
        &Executor::execReduceOp, &Executor::execGridOp, &Executor::execDotOp,
        &Executor::execDebugOp, &Executor::execArithOp, &Executor::execMathOp})
    if (std::optional<LogicalResult> result = (this->*family)(op))
      return *result;
  return error(op) << "the interpreter does not support '" << op->getName()
                   << "'";
}
