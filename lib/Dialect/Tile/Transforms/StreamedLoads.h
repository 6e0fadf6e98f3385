//===- StreamedLoads.h - Block loads a loop streams -------------*- C++ -*-===//
//
// What tile-pipeline-loops and tile-warp-specialize both look for: loads of
// blocks through loop-carried block pointers that the loop advances by
// loop-invariant offsets, how the runtime finds the integers that describe
// such an array for a TMA tensor map, and which dots read a loaded block.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DIALECT_TILE_TRANSFORMS_STREAMEDLOADS_H
#define TILE_LIB_DIALECT_TILE_TRANSFORMS_STREAMEDLOADS_H

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <string>

namespace mlir {
namespace tile {

/// A block load of a loop: the load, the index of its block pointer among
/// the loop's iter_args, and the advance that moves it.
struct StreamedLoad {
  BlockLoadOp load;
  unsigned iterArg;
  AdvanceOp advance;
};

/// The loop's streamed loads whose block type `accept` takes and that pad
/// with zero wherever they check bounds (copies zero-fill).
SmallVector<StreamedLoad>
findStreamedLoads(scf::ForOp loop,
                  llvm::function_ref<bool(RankedTensorType)> accept);

/// How the runtime finds an integer of the array a tensor map describes:
/// "argN" (the kernel's argument N, through integer casts), "gridN" (the
/// grid's size along axis N, tile.num_programs) or a decimal constant;
/// empty when it is none of these.
std::string describeHostInteger(Value v);

/// A 2-d f16, bf16 or f32 block (rows of a multiple of 16 bytes), or one
/// of rank 3 to 5 that is 1 along its leading dimensions.
bool isCopyableBlock(RankedTensorType type);

/// The `tile.tma` dictionary of the array `make` points into: shape and
/// strides of its last two dimensions, and for a higher rank the `batch`
/// entry, (stride, count) per leading dimension from the innermost out.
/// Empty, with `why` set, when the runtime cannot describe it.
DictionaryAttr describeArray(MakeBlockPtrOp make, std::string &why);

/// A `!tile.tensormap` argument appended to `func`, with `array` (as
/// describeArray gives it) as its `tile.tma` attribute, from which the
/// runtime builds the map; failure if the function takes no more.
FailureOr<Value> appendTensorMapArgument(func::FuncOp func,
                                         DictionaryAttr array);

/// The results of the dots that read `tile` (through pure single-result
/// ops such as tile.trans) in `body`.
SmallVector<Value> readingDots(Value tile, Block *body);

} // namespace tile
} // namespace mlir

#endif // TILE_LIB_DIALECT_TILE_TRANSFORMS_STREAMEDLOADS_H
