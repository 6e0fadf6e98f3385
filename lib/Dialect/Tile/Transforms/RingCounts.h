//===- RingCounts.h - Stages and barrier phases of a ring -------*- C++ -*-===//
//
// The arithmetic tile-warp-specialize emits to find a ring's stage and its
// barriers' phase from a loop's iteration, and to carry a ring's count of
// iterations out of the ifs inside a loop over tiles.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DIALECT_TILE_TRANSFORMS_RINGCOUNTS_H
#define TILE_LIB_DIALECT_TILE_TRANSFORMS_RINGCOUNTS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include <tuple>

namespace mlir {
namespace tile {

/// `v` (i32 or index) as i32.
Value toI32(OpBuilder &b, Location loc, Value v);

/// Iteration i = base + (iv - lb) / step of `loop` as i32 (base: the
/// iterations the ring served before the loop's first, null for none), its
/// stage i mod S and the parity (i / S) mod 2 of that stage's barriers.
std::tuple<Value, Value> emitStageAndParity(OpBuilder &b, Location loc,
                                            Value iv, Value lb, Value step,
                                            int64_t stages, Value base);

/// The stage i mod S of use `i` (i32) of an S-stage ring and the parity
/// (i / S) mod 2 of that stage's barriers.
std::tuple<Value, Value> emitStageAndParityOfUse(OpBuilder &b, Location loc,
                                                 Value i, int64_t stages);

/// Iterations of a loop from `lb` to `ub` by `step` (> 0) as i32: 0 when
/// ub <= lb.
Value emitTripCount(OpBuilder &b, Location loc, Value lb, Value ub, Value step);

/// Rebuilds `ifOp` with more i32 results: `counts` (defined in the region
/// `inThen` selects, before its yield) from that region, 0s from the other.
/// Returns the new op.
scf::IfOp appendCountResults(scf::IfOp ifOp, bool inThen, ValueRange counts);

} // namespace tile
} // namespace mlir

#endif // TILE_LIB_DIALECT_TILE_TRANSFORMS_RINGCOUNTS_H
