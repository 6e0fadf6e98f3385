//===- DebugOps.cpp - tile.print and tile.assert --------------------------===//
//
// tile.print writes its values, prefixed by the program id, to
// RunOptions::printStream; tile.assert stops the run at the first program
// with a false element, naming the program and the element.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interp;
using namespace mlir::tile::interp::detail;

LogicalResult Executor::execPrint(PrintOp op) {
  if (!options.printStream)
    return success();
  llvm::raw_ostream &os = *options.printStream;
  os << "[pid (" << programId[0] << ", " << programId[1] << ", " << programId[2]
     << ")] " << op.getPrefix();
  for (Value v : op.getArgs()) {
    const Tensor &t = get(v);
    os << " ";
    if (!t.shape.empty())
      os << "[";
    for (int64_t k = 0, n = t.size(); k < n; ++k) {
      if (k)
        os << ", ";
      if (k == 64 && n > 72) {
        os << "... (" << n - 64 << " more)";
        break;
      }
      switch (t.kind) {
      case Kind::Float:
        os << formatNumber(t.f[k]);
        break;
      case Kind::Int:
        os << t.i[k];
        break;
      case Kind::Pointer:
        os << "&"
           << (t.p[k].buffer >= 0 ? buffers[t.p[k].buffer].name
                                  : std::string("null"))
           << "+" << t.p[k].offset;
        break;
      case Kind::Block:
        os << "<block ptr>";
        break;
      }
    }
    if (!t.shape.empty())
      os << "]";
  }
  os << "\n";
  return success();
}

LogicalResult Executor::execAssert(AssertOp op) {
  const Tensor &cond = get(op.getCondition());
  for (int64_t k = 0, n = cond.size(); k < n; ++k) {
    if (cond.i[k])
      continue;
    InFlightDiagnostic diag = error(op);
    diag << "assertion failed: " << op.getMessage();
    if (!cond.shape.empty()) {
      diag << " (element [";
      int64_t rest = k;
      SmallVector<int64_t> index(cond.shape.size());
      for (int64_t d = (int64_t)cond.shape.size() - 1; d >= 0; --d) {
        index[d] = rest % cond.shape[d];
        rest /= cond.shape[d];
      }
      llvm::interleaveComma(index, diag);
      diag << "] is false)";
    }
    return failure();
  }
  return success();
}

std::optional<LogicalResult> Executor::execDebugOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<LogicalResult>>(op)
      .Case([&](PrintOp o) { return execPrint(o); })
      .Case([&](AssertOp o) { return execAssert(o); })
      .Default([](Operation *) { return std::optional<LogicalResult>(); });
}
