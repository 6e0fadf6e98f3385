//===- ElementwiseOps.h - The arith and math ops Tile supports --*- C++ -*-===//
//
// One table lists every arith and math op a Tile kernel may use on tiles
// or scalars, with how the GPU pipeline lowers it and how the interpreter
// computes it. The kernel checker rejects ops outside it (with the reason),
// the GPU lowering and the interpreter read it, the reference docs list it,
// and the tests run every entry through the interpreter and, on a GPU,
// compare the two.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_ELEMENTWISEOPS_H
#define TILE_DIALECT_TILE_IR_ELEMENTWISEOPS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir {
namespace tile {

/// How the GPU pipeline computes an op.
enum class GpuLowering {
  /// One or a few instructions: LLVM's lowering, or Tile's own (exp and log
  /// through the hardware's ex2/lg2 approximations).
  Native,
  /// Rewritten into other ops first (tile-expand-math).
  Expanded,
  /// A call into libdevice, the CUDA toolkit's math library (f16 and bf16
  /// computed in f32), linked when the kernel is compiled.
  LibDevice,
};

/// The element types an op takes.
enum class ElementKind { Float, Integer };

struct ElementwiseOpInfo {
  /// The op's full name, e.g. "math.erf".
  llvm::StringLiteral name;
  unsigned numOperands;
  ElementKind kind;
  GpuLowering gpu;
  /// libdevice's functions for f32 (also f16, bf16) and f64 operands. A
  /// native op may name one for f64 only (exp and log have no f64
  /// approximation in hardware).
  llvm::StringLiteral libdeviceF32, libdeviceF64;
  /// The interpreter's float64 function, for float ops of one or two
  /// operands (others are computed by the interpreter's own code).
  double (*unary)(double);
  double (*binary)(double, double);
  /// Inputs on which tests compare the GPU with the interpreter.
  double domainLo, domainHi;

  /// The libdevice function for elements of `bits` width, or "" when the
  /// op is computed without one.
  llvm::StringRef getLibDeviceFunction(unsigned bits) const {
    return bits == 64                      ? llvm::StringRef(libdeviceF64)
           : gpu == GpuLowering::LibDevice ? llvm::StringRef(libdeviceF32)
                                           : llvm::StringRef();
  }
};

/// Every supported op, math ops first.
llvm::ArrayRef<ElementwiseOpInfo> getElementwiseOps();
/// The entry of the op named `name`, or null for an op of the arith or math
/// dialect that Tile does not support.
const ElementwiseOpInfo *lookupElementwiseOp(llvm::StringRef name);
/// Why Tile does not support `name` (an arith or math op without an
/// entry), for diagnostics.
std::string getUnsupportedReason(llvm::StringRef name);

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_IR_ELEMENTWISEOPS_H
