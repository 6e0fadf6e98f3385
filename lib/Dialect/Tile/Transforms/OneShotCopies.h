//===- OneShotCopies.h - Blocks the producer copies once --------*- C++ -*-===//
//
// The blocks that tile-warp-specialize's producer copies once per program
// (or per tile of a persistent program) instead of through a ring: which
// stores they replace, and where the program is done with their buffers.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DIALECT_TILE_TRANSFORMS_ONESHOTCOPIES_H
#define TILE_LIB_DIALECT_TILE_TRANSFORMS_ONESHOTCOPIES_H

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <utility>

namespace mlir {
namespace tile {

/// A block stored, as loaded, into a shared buffer before the first marked
/// loop in its block: the producer copies it with TMA once, into `store`'s
/// buffer. In a loop over tiles a buffer of n stages holds n tiles' blocks
/// in turn (tile i's in stage i mod n), so that the producer can copy the
/// next tile's block while this tile still uses its own.
struct OneShotCopy {
  LocalStoreOp store;
  BlockLoadOp load;
  ReshapeOp reshape; ///< null for a 2-d block
  MakeBlockPtrOp make;
  DictionaryAttr array;
  int64_t stages = 1;
};

/// The one-shot copies of the ops before `loop` in its block: each
/// `tile.local_store` of a `tile.block_load` (through one `tile.reshape`
/// for rank > 2, each used once) of a copyable block, from a block pointer
/// made by `tile.make_block_ptr` from values the producer can recompute
/// (isScalarSlice; `tiles` is the loop over tiles, or null), into an array
/// TMA can describe, into a buffer that no other op writes before it (a
/// later store in the same block, say a rewrite in place, may). The buffer
/// has one stage or, in a loop over tiles, several, each op of the
/// program's that reads or writes it then a `tile.local_load` or
/// `tile.local_store` of stage 0 after the copy's store in its block
/// (tile-warp-specialize moves them to the tile's stage).
SmallVector<OneShotCopy> findOneShotCopies(scf::ForOp loop, func::FuncOp func,
                                           scf::ForOp tiles);

/// Where the program is done with a one-shot copy's buffer in `block` (the
/// copy's): after the last op there that reads or writes it, or holds an
/// op that does; and the values whose computation must be complete first
/// (the dots that read it, the results of a region that uses it).
std::pair<Operation *, SmallVector<Value>> getLastUse(Value buffer,
                                                      Block *block);

} // namespace tile
} // namespace mlir

#endif // TILE_LIB_DIALECT_TILE_TRANSFORMS_ONESHOTCOPIES_H
