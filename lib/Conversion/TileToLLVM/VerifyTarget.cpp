//===- VerifyTarget.cpp - Reject targets Tile does not compile for --------===//

#include "Utility.h"

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/Layout.h"
#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEVERIFYTARGET
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {
struct TileVerifyTargetPass
    : public tile::impl::TileVerifyTargetBase<TileVerifyTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The errors are about the whole module; a module the parser made
    // implicitly has no line of its own (file:0:0), so they point at its
    // first operation instead.
    Location loc = module.getLoc();
    if (auto file = dyn_cast<FileLineColLoc>(loc);
        file && file.getLine() == 0 && !module.getBody()->empty())
      loc = module.getBody()->front().getLoc();
    std::string error = verifyTarget(chip, features);
    if (!error.empty()) {
      emitError(loc) << error;
      return signalPassFailure();
    }
    // bf16 atomic additions exist from sm_90 on.
    unsigned version = getSMVersion(chip);
    WalkResult walk = module.walk([&](AtomicRMWOp op) {
      if (op.getKind() != AtomicKind::Add || version >= 90 ||
          !getElementTypeOrSelf(op.getVal().getType()).isBF16())
        return WalkResult::advance();
      op.emitError() << "an atomic add of bf16 needs sm_90 or newer; the "
                        "target is "
                     << chip;
      return WalkResult::interrupt();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    // The tensor memory accelerator (cp.async.bulk.tensor, its proxy
    // fences and transaction counts) exists from sm_90 on.
    walk = module.walk([&](Operation *op) {
      if (version >= 90 || !isa<TmaCopyOp, TmaPrefetchOp, TmaStoreOp>(op))
        return WalkResult::advance();
      op->emitError() << op->getName()
                      << " needs sm_90 or newer (the tensor memory "
                         "accelerator); the target is "
                      << chip;
      return WalkResult::interrupt();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    // A producer warpgroup gives its registers back with setmaxnreg, which
    // only the arch-specific Hopper target has.
    walk = module.walk([&](WarpSpecializeOp op) {
      if (version >= 90 && StringRef(chip).ends_with("a"))
        return WalkResult::advance();
      op.emitError() << "tile.warp_specialize needs sm_90a (setmaxnreg); the "
                        "target is "
                     << chip;
      return WalkResult::interrupt();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    if (format != "isa" && format != "bin") {
      emitError(loc) << "unknown output format '" << format
                     << "'; expected isa (PTX text) or bin (a cubin)";
      return signalPassFailure();
    }
  }
};
} // namespace
