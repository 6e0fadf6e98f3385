//===- Tile.h - Tile dialect ------------------------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_IR_TILE_H
#define TILE_DIALECT_TILE_IR_TILE_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tile/Support/SpecializedRegisters.h"

#include "tile/Dialect/Tile/IR/TileDialect.h.inc"
#include "tile/Dialect/Tile/IR/TileEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileAttrs.h.inc"

namespace mlir {
namespace tile {
/// For a pointer (or tensor of pointers) type, the pointee type with the same
/// shape: `!tile.ptr<f32>` -> `f32`, `tensor<4x!tile.ptr<f32>>` ->
/// `tensor<4xf32>`. Returns a null type for anything else.
Type getPointeeLikeType(Type ptrLike);
/// The mask type matching a pointer-like type: `i1` or a tensor of `i1`.
Type getMaskLikeType(Type ptrLike);
/// Whether `t` is a static tensor whose dimensions are all powers of two.
bool isPowerOfTwoTile(RankedTensorType t);
/// Tiles hold at most 2^kMaxTileElementsLog2 elements, whatever the kernel
/// check's (much lower) resource limits: element counts, offsets and byte
/// sizes derived from a tile's shape then never overflow int64.
constexpr unsigned kMaxTileElementsLog2 = 31;
/// Whether the power-of-two tile `t` holds at most 2^kMaxTileElementsLog2
/// elements.
bool hasTileElementCount(RankedTensorType t);
/// Whether `t` is a scalar type that kernels compute with: f16, bf16, f32,
/// f64, index or a signless integer of 1, 8, 16, 32 or 64 bits. The GPU
/// backend and the interpreter both support exactly these (and tiles of
/// them or of pointers); anything else in a kernel is a verifier error.
bool isKernelScalarType(Type t);
/// Operations in a kernel nest at most this many regions deep.
constexpr unsigned kMaxKernelNestingDepth = 64;
/// Verifies that `type`, if it is a tensor, is a legal tile, reporting
/// through `op`. `what` names the value ("operand #0", "result").
LogicalResult verifyTileType(Operation *op, Type type, StringRef what);
/// Rank of the tiles a layout (blocked or slice encoding) applies to.
unsigned getLayoutRank(Attribute layout);
/// Whether `func` is a tile kernel (carries the `tile.kernel` attribute).
bool isKernel(func::FuncOp func);
/// The kernel's `tile.num_warps` (4 when absent).
int64_t getNumWarps(func::FuncOp func);
/// Makes `context` attach, to the parser's "use of value ... expects
/// different type" errors, a note naming the missing tile.splat,
/// tile.broadcast, tile.expand_dims or conversion (TypeMismatchHints.cpp).
/// The dialect does so when it is loaded.
void registerTypeMismatchHints(MLIRContext *context);
} // namespace tile

namespace OpTrait {
namespace tile {
template <typename ConcreteType>
class PowerOfTwoTiles : public TraitBase<ConcreteType, PowerOfTwoTiles> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    for (auto [i, v] : llvm::enumerate(op->getOperands()))
      if (failed(::mlir::tile::verifyTileType(
              op, v.getType(), ("operand #" + llvm::Twine(i)).str())))
        return failure();
    for (auto [i, v] : llvm::enumerate(op->getResults()))
      if (failed(::mlir::tile::verifyTileType(
              op, v.getType(), ("result #" + llvm::Twine(i)).str())))
        return failure();
    return success();
  }
};
} // namespace tile
} // namespace OpTrait
} // namespace mlir

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.h.inc"

#endif // TILE_DIALECT_TILE_IR_TILE_H
