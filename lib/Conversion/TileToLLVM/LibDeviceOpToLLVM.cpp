//===- LibDeviceOpToLLVM.cpp - math ops as libdevice calls ----------------===//
//
// The math ops that have no instruction (erf, sin, powf, ...) and the f64
// exponentials and logarithms are computed by libdevice, the CUDA toolkit's
// math library, as other NVIDIA GPU compilers do: each scalar op becomes a
// call of its __nv_* function (the table in ElementwiseOps.h names it),
// f16 and bf16 through the f32 function. The functions are declared in the
// module before the conversion; tile-outline-kernels moves them with the
// kernels, and gpu-module-to-binary links libdevice's bitcode, from which
// LLVM inlines them.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "tile/Dialect/Tile/IR/ElementwiseOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::tile;

StringRef mlir::tile::getLibDeviceFunction(Operation *op) {
  if (!isa<math::MathDialect>(op->getDialect()) || op->getNumResults() != 1)
    return "";
  auto type = dyn_cast<FloatType>(getElementTypeOrSelf(op->getResult(0)));
  const ElementwiseOpInfo *info =
      lookupElementwiseOp(op->getName().getStringRef());
  if (!type || !info)
    return "";
  return info->getLibDeviceFunction(type.getWidth());
}

void mlir::tile::declareLibDeviceFunctions(ModuleOp module,
                                           func::FuncOp kernel) {
  OpBuilder b(module.getBodyRegion());
  kernel.walk([&](Operation *op) {
    StringRef name = getLibDeviceFunction(op);
    if (name.empty() || module.lookupSymbol(name))
      return;
    Type type = getElementTypeOrSelf(op->getResult(0));
    if (!type.isF64())
      type = b.getF32Type();
    auto fnType = LLVM::LLVMFunctionType::get(
        type, SmallVector<Type>(op->getNumOperands(), type));
    b.setInsertionPointToStart(module.getBody());
    LLVM::LLVMFuncOp::create(b, module.getLoc(), name, fnType);
  });
}

namespace {

/// A scalar math op whose table entry names a libdevice function.
struct LibDeviceCallConversion : public ConversionPattern {
  LibDeviceCallConversion(TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef name = getLibDeviceFunction(op);
    if (name.empty() || isa<RankedTensorType>(op->getResult(0).getType()))
      return failure();
    auto fn = SymbolTable::lookupNearestSymbolFrom<LLVM::LLVMFuncOp>(
        op, rewriter.getStringAttr(name));
    if (!fn)
      return op->emitError("libdevice's ")
             << name << " is not declared: tile-convert-to-llvm declares it";
    Location loc = op->getLoc();
    auto type = cast<FloatType>(op->getResult(0).getType());
    Type callType = fn.getFunctionType().getReturnType();
    SmallVector<Value> args;
    for (Value v : operands)
      args.push_back(
          type == callType
              ? v
              : arith::ExtFOp::create(rewriter, loc, callType, v).getResult());
    Value result = LLVM::CallOp::create(rewriter, loc, fn, args).getResult();
    if (type != callType)
      result = arith::TruncFOp::create(rewriter, loc, type, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::tile::populateLibDeviceOpToLLVMPatterns(
    TileTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<LibDeviceCallConversion>(converter, patterns.getContext());
}
