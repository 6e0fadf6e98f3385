//===- Specializations.h - Specializations in one module --------*- C++ -*-===//
//
// tile-compile --specialize NAME=V1,V2,... compiles every combination of
// the listed values (with the fixed --param settings) into one image. Each
// specialization's functions get a suffix naming its values
// (softmax__BLOCK_1024__NUM_WARPS_8); its kernels carry
// tile.specialization, from which the metadata records the source's kernel
// name and the parameters, and the runtime selects one
// (tile_module_get_specialization).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TOOLS_TILE_COMPILE_SPECIALIZATIONS_H
#define TILE_TOOLS_TILE_COMPILE_SPECIALIZATIONS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace mlir {
namespace tile {

/// At most this many specializations in one image.
constexpr size_t kMaxSpecializations = 256;

/// The module holding every specialization of the kernel source at `path`:
/// `fixed` are "NAME=VALUE" settings, `sweeps` "NAME=V1,V2,..." lists.
/// On a bad setting returns null and sets `error`; on an error in a
/// specialized source returns null with the diagnostics reported (each with
/// the note naming its specialization) and `error` empty.
OwningOpRef<ModuleOp> buildSpecializations(llvm::StringRef path,
                                           llvm::ArrayRef<std::string> fixed,
                                           llvm::ArrayRef<std::string> sweeps,
                                           MLIRContext *context,
                                           std::string &error);

} // namespace tile
} // namespace mlir

#endif // TILE_TOOLS_TILE_COMPILE_SPECIALIZATIONS_H
