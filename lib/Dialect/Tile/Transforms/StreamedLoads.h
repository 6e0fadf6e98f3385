//===- StreamedLoads.h - Block loads a loop streams -------------*- C++ -*-===//
//
// What tile-pipeline-loops and tile-warp-specialize both look for: loads of
// blocks through loop-carried block pointers that the loop advances by
// loop-invariant offsets, and how the runtime finds the integers that
// describe such an array for a TMA tensor map.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DIALECT_TILE_TRANSFORMS_STREAMEDLOADS_H
#define TILE_LIB_DIALECT_TILE_TRANSFORMS_STREAMEDLOADS_H

#include "tile/Dialect/Tile/IR/Tile.h"

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

} // namespace tile
} // namespace mlir

#endif // TILE_LIB_DIALECT_TILE_TRANSFORMS_STREAMEDLOADS_H
