//===- VerifyTarget.cpp - Reject targets Tile does not compile for --------===//

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/Layout.h"

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
    std::string error = verifyTarget(chip, features);
    if (!error.empty()) {
      module.emitError() << error;
      return signalPassFailure();
    }
    if (format != "isa" && format != "bin") {
      module.emitError() << "unknown output format '" << format
                         << "'; expected isa (PTX text) or bin (a cubin)";
      return signalPassFailure();
    }
  }
};
} // namespace
