//===- TestAxisInfo.cpp - Report axis info as remarks ---------------------===//
//
// `-tile-test-axis-info` lets lit tests check the analysis: every integer,
// index or pointer result gets a remark with its facts, and every load and
// store one with the vector width per dimension.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
struct TestAxisInfoPass
    : public PassWrapper<TestAxisInfoPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestAxisInfoPass)

  StringRef getArgument() const final { return "tile-test-axis-info"; }
  StringRef getDescription() const final {
    return "Report the contiguity, divisibility and constancy of integer "
           "and pointer values as remarks";
  }

  void runOnOperation() override {
    getOperation().walk([](func::FuncOp func) {
      AxisInfoAnalysis analysis(func);
      func.walk([&](Operation *op) {
        for (OpResult result : op->getResults()) {
          const AxisInfo *info = analysis.lookup(result);
          if (!info)
            continue;
          std::string text;
          llvm::raw_string_ostream os(text);
          // Multi-result ops (scf.for, scf.if) say which result it is.
          if (op->getNumResults() > 1)
            os << "result #" << result.getResultNumber() << ": ";
          info->print(os);
          // At the location only: attaching the op to each of thousands of
          // remarks would print it with a fresh AsmState each time, which
          // takes time quadratic in the function's size.
          emitRemark(op->getLoc(), text);
        }
        if (auto load = dyn_cast<LoadOp>(op))
          reportVectorWidth(analysis, op, load.getPtr(), load.getMask());
        else if (auto store = dyn_cast<StoreOp>(op))
          reportVectorWidth(analysis, op, store.getPtr(), store.getMask());
      });
    });
  }

  static void reportVectorWidth(const AxisInfoAnalysis &analysis, Operation *op,
                                Value ptr, Value mask) {
    Type pointee =
        cast<PointerType>(getElementTypeOrSelf(ptr.getType())).getPointeeType();
    int64_t elemBytes = AxisInfoAnalysis::getElementBytes(pointee);
    unsigned rank = 1;
    if (auto tensor = dyn_cast<RankedTensorType>(ptr.getType()))
      rank = std::max<int64_t>(tensor.getRank(), 1);
    SmallVector<int64_t> widths;
    for (unsigned d = 0; d < rank; ++d)
      widths.push_back(analysis.getVectorWidth(ptr, mask, d, elemBytes));
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "vector width = [";
    llvm::interleaveComma(widths, os);
    os << "]";
    emitRemark(op->getLoc(), text);
  }
};
} // namespace

void mlir::tile::registerTestAxisInfoPass() {
  PassRegistration<TestAxisInfoPass>();
}
