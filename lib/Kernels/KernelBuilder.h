//===- KernelBuilder.h - Shared by the kernel builders ----------*- C++ -*-===//
//
// What the files of the library kernels share: KernelBuilder, terse
// construction of tile IR, and the helpers more than one kernel family
// uses (defined in KernelHelpers.cpp, startSoftmaxMatmul in
// SoftmaxMatmul.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_KERNELS_KERNELBUILDER_H
#define TILE_LIB_KERNELS_KERNELBUILDER_H

#include "tile/Catalogue/Catalogue.h"
#include "tile/Kernels/LibraryKernels.h"

#include "mlir/IR/Builders.h"

#include <utility>

namespace mlir {
namespace tile {
namespace kernels {

/// Terse construction of tile IR.
class KernelBuilder {
public:
  KernelBuilder(ModuleOp module, StringRef name, ArrayRef<Type> argTypes,
                int64_t numWarps)
      : b(module.getContext()), loc(b.getUnknownLoc()) {
    b.setInsertionPointToEnd(module.getBody());
    func = func::FuncOp::create(b, loc, name,
                                b.getFunctionType(argTypes, TypeRange()));
    func->setAttr(TileDialect::getKernelAttrName(), b.getUnitAttr());
    func->setAttr(TileDialect::getNumWarpsAttrName(),
                  b.getI32IntegerAttr((int32_t)numWarps));
    Block *entry = func.addEntryBlock();
    b.setInsertionPointToStart(entry);
  }

  OpBuilder b;
  Location loc;
  func::FuncOp func;

  Value arg(unsigned i) { return func.getArgument(i); }
  void finish() { func::ReturnOp::create(b, loc); }

  Type i32() { return b.getI32Type(); }
  Type i64() { return b.getI64Type(); }
  Type f32() { return b.getF32Type(); }
  Type i1() { return b.getI1Type(); }

  Value ci32(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i32(), v);
  }
  Value ci64(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i64(), v);
  }
  Value cf(Type t, double v) {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, v));
  }
  RankedTensorType tensor(ArrayRef<int64_t> shape, Type elem) {
    return RankedTensorType::get(shape, elem);
  }
  Value splat(Value s, ArrayRef<int64_t> shape) {
    return SplatOp::create(b, loc, tensor(shape, s.getType()), s);
  }
  Value range(int64_t n) {
    return RangeOp::create(b, loc, tensor({n}, i32()), 0, (int32_t)n);
  }
  Value expand(Value v, int64_t axis) {
    auto t = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> shape(t.getShape());
    shape.insert(shape.begin() + axis, 1);
    return ExpandDimsOp::create(b, loc, tensor(shape, t.getElementType()), v,
                                (int32_t)axis);
  }
  Value bcast(Value v, ArrayRef<int64_t> shape) {
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getShape() == shape)
      return v;
    return BroadcastOp::create(b, loc, tensor(shape, t.getElementType()), v);
  }
  /// v [n] -> [n, 1] broadcast to `shape` (axis 1) or [1, n] (axis 0).
  Value spread(Value v, int64_t axis, ArrayRef<int64_t> shape) {
    return bcast(expand(v, axis), shape);
  }
  Value reduce(ReduceKind kind, Value v, int64_t axis) {
    auto t = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> shape(t.getShape());
    shape.erase(shape.begin() + axis);
    Type result = shape.empty() ? t.getElementType()
                                : (Type)tensor(shape, t.getElementType());
    return ReduceOp::create(b, loc, result, kind, v, (int32_t)axis);
  }
  Value extsi(Value v, Type elem) {
    Type t = v.getType();
    if (auto rt = dyn_cast<RankedTensorType>(t))
      return arith::ExtSIOp::create(b, loc, rt.clone(elem), v);
    return arith::ExtSIOp::create(b, loc, elem, v);
  }
  /// Converts a float (tile) to element type `elem`.
  Value toFloat(Value v, Type elem) {
    Type t = v.getType();
    Type from = getElementTypeOrSelf(t);
    if (from == elem)
      return v;
    Type to = elem;
    if (auto rt = dyn_cast<RankedTensorType>(t))
      to = rt.clone(elem);
    if (from.getIntOrFloatBitWidth() < elem.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b, loc, to, v);
    return arith::TruncFOp::create(b, loc, to, v);
  }
  Value ptrAdd(Value p, Value offset) {
    return AddPtrOp::create(b, loc, p.getType(), p, offset);
  }
  Value cmp(arith::CmpIPredicate pred, Value a, Value c) {
    return arith::CmpIOp::create(b, loc, pred, a, c);
  }
};

/// The builders' element type of a catalogue dtype.
ElemType toElemType(::tile::catalogue::DType t);
/// The MLIR type of an element type.
Type getElemType(MLIRContext *ctx, ElemType t);
/// Bytes of an element.
int64_t byteSize(ElemType t);
/// (y: ptr<out>, x: ptr<in>, y_row_stride: i64, x_row_stride: i64,
///  n_rows: i32, n_cols: i32), shared by both softmax kernels.
SmallVector<Type> getSoftmaxArgTypes(MLIRContext *ctx, Type in, Type out);
/// Aligned variants promise rows that start 16-byte aligned (buffers
/// 16-byte aligned, row strides multiples of 16 bytes: one 16-byte access
/// per 16 bytes of a row); the others promise only element-aligned
/// buffers.
void setSoftmaxAlignment(func::FuncOp f, bool aligned, ElemType in,
                         ElemType out, bool colsAligned = false);
/// exp for softmax weights: the `afn` flag lets the backend flush results
/// below 2^-126 to zero (a single ex2.approx.ftz), an absolute error under
/// 1.2e-38 on weights that are summed with weights up to 1.
Value softmaxExp(OpBuilder &b, Location loc, Value x);
/// m, or 0 where m is -inf (a program whose columns all lie past the
/// row's end, or a row of -inf): shifting by it gives exp(-inf) = 0, not
/// the NaN of -inf - -inf.
Value finiteShift(KernelBuilder &k, Location loc, Value m);
/// The row's shift M and 1 / L from its slices' (max, sum) pairs, merged
/// as online softmax merges blocks: M = max m_r, L = sum l_r exp(m_r - M),
/// with M replaced by 0 where it is -inf.
std::pair<Value, Value> mergeSliceStats(KernelBuilder &k, Value maxes,
                                        Value sums);
/// The softmax-matmul kernels' signature, (out, x, v: ptr<elem>, d1, d2,
/// d3: i32, the three tensors' strides: 9 x i64), with the pointers
/// assumed element-aligned only (block pointers take any strides), on a
/// new kernel named after `c`.
KernelBuilder startSoftmaxMatmul(ModuleOp module, const SoftmaxMatmulConfig &c);

} // namespace kernels
} // namespace tile
} // namespace mlir

#endif // TILE_LIB_KERNELS_KERNELBUILDER_H
