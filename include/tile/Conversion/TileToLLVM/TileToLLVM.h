//===- TileToLLVM.h - Lower laid-out tile kernels to LLVM/NVVM --*- C++ -*-===//
//
// After layout assignment every tile has a thread layout, so each thread's
// share of a tile is a fixed list of scalars ("slots", see Layout.h). The
// conversion replaces each tile value by its slots (a 1:N type conversion),
// each tile op by per-thread scalar code (LLVM, NVVM, arith, math, scf),
// and data exchanges between threads by warp shuffles and shared memory.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETOLLVM_TILETOLLVM_H
#define TILE_CONVERSION_TILETOLLVM_TILETOLLVM_H

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir {
namespace tile {

/// Converts `!tile.ptr<T>` to `!llvm.ptr<1>`, a laid-out tile to one value
/// per slot, and a block pointer to (base, shape..., strides...,
/// offsets...). Other types are unchanged.
class TileTypeConverter : public TypeConverter {
public:
  explicit TileTypeConverter(MLIRContext *ctx);
};

/// How a load/store accesses memory, chosen before the conversion from the
/// axis analysis: `width` consecutive slots form one vector access; when
/// the mask is not provably uniform over a vector, each vector checks that
/// all its lanes are enabled and otherwise falls back to element accesses.
///
/// For a tile.block_load/block_store, `width` elements along `alignedDim`
/// are provably one aligned vector wherever the block starts (stride 1
/// there, every other stride and the offset along it multiples of `width`,
/// the base aligned to the vector); -1 when only known at run time.
struct VectorAccess {
  unsigned width = 1;
  bool maskUniform = true;
  int alignedDim = -1;
};
using VectorWidthMap = llvm::DenseMap<Operation *, VectorAccess>;

void populateElementwiseOpToLLVMPatterns(TileTypeConverter &converter,
                                         RewritePatternSet &patterns);
void populateViewOpToLLVMPatterns(TileTypeConverter &converter,
                                  RewritePatternSet &patterns);
void populateMemoryOpToLLVMPatterns(TileTypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    const VectorWidthMap &vectorWidths);
void populateClusterOpToLLVMPatterns(TileTypeConverter &converter,
                                     RewritePatternSet &patterns);
/// Brackets a kernel that uses cluster ops with the exchange protocol's
/// first arrival (at entry) and last wait (before each return); see
/// ClusterOpToLLVM.cpp.
void addClusterExchangeBoundaries(func::FuncOp kernel);
/// Whether `kernel`'s programs fill or release each other's barriers
/// (tile.tma_copy multicast, tile.mbarrier_arrive cluster).
bool sharesClusterBarriers(func::FuncOp kernel);
/// Brackets such a kernel with a cluster barrier once its mbarriers are
/// initialized (no peer uses them before) and one before each return (no
/// program exits while a peer may still arrive on its barriers); see
/// ClusterOpToLLVM.cpp. Fails if the kernel also exchanges values.
LogicalResult addClusterBarrierBoundaries(func::FuncOp kernel);
/// tile.wait_prior_grid and tile.launch_dependents
/// (GridDependencyOpToLLVM.cpp).
void populateGridDependencyOpToLLVMPatterns(TileTypeConverter &converter,
                                            RewritePatternSet &patterns);
/// tile.atomic_add and tile.wait_at_least (GridSyncOpToLLVM.cpp).
void populateGridSyncOpToLLVMPatterns(TileTypeConverter &converter,
                                      RewritePatternSet &patterns);
void populateReduceOpToLLVMPatterns(TileTypeConverter &converter,
                                    RewritePatternSet &patterns);
void populateScanOpToLLVMPatterns(TileTypeConverter &converter,
                                  RewritePatternSet &patterns);
/// tile.atomic_rmw and tile.atomic_cas (AtomicOpToLLVM.cpp).
void populateAtomicOpToLLVMPatterns(TileTypeConverter &converter,
                                    RewritePatternSet &patterns);
void populateDotOpToLLVMPatterns(TileTypeConverter &converter,
                                 RewritePatternSet &patterns);
void populateAsyncCopyOpToLLVMPatterns(TileTypeConverter &converter,
                                       RewritePatternSet &patterns);
void populateTmaOpToLLVMPatterns(TileTypeConverter &converter,
                                 RewritePatternSet &patterns);
/// tile.wait_turn and tile.pass_turn (WarpSpecializeOpToLLVM.cpp).
void populateWarpSpecializeOpToLLVMPatterns(TileTypeConverter &converter,
                                            RewritePatternSet &patterns);
/// tile.print through CUDA's vprintf and tile.assert through its
/// __assertfail (DebugOpToLLVM.cpp).
void populateDebugOpToLLVMPatterns(TileTypeConverter &converter,
                                   RewritePatternSet &patterns);
/// Scalar math ops computed by libdevice become calls of its functions
/// (LibDeviceOpToLLVM.cpp), which declareLibDeviceFunctions declares.
void populateLibDeviceOpToLLVMPatterns(TileTypeConverter &converter,
                                       RewritePatternSet &patterns);
/// The libdevice function that computes `op` (a math op on scalars or
/// tiles of its element type), or "" when the op needs none.
llvm::StringRef getLibDeviceFunction(Operation *op);
/// Declares, at the top of `module`, the libdevice functions the math ops
/// of `kernel` call.
void declareLibDeviceFunctions(ModuleOp module, func::FuncOp kernel);

/// Name of the dynamic shared-memory array every kernel addresses. The
/// decisions the pass records on the IR before its patterns run (the bytes
/// of that array a kernel needs, each buffer's offset in it, the swizzled
/// layouts of the buffers wgmma reads, the dots lowered to wgmma) are
/// discardable attributes of the tile dialect: see TileDialect.td.
constexpr llvm::StringLiteral kSharedMemoryName = "tile_smem";

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETOLLVM_TILETOLLVM_H
