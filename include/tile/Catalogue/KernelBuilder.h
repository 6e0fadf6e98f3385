//===- KernelBuilder.h - A kernel description to tile IR --------*- C++ -*-===//
//
// Each operation's builder (lib/Kernels) defines, for the operation of
// lib/Catalogue/Ops/<Name>.cpp,
//
//   std::string get<Name>KernelName(const KernelDesc &k);
//   void build<Name>Kernel(mlir::ModuleOp module, const KernelDesc &k);
//
// in namespace tile::catalogue; the build lists them (KernelBuilderList.cpp)
// and the functions below call the one of the description's operation.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CATALOGUE_KERNELBUILDER_H
#define TILE_CATALOGUE_KERNELBUILDER_H

#include "tile/Catalogue/OpSpec.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace tile {
namespace catalogue {

/// The kernel's name: the symbol of its function, and what tools print;
/// distinct for distinct descriptions.
std::string getKernelName(const KernelDesc &k);

/// Appends the kernel's function to `module`.
void buildKernel(mlir::ModuleOp module, const KernelDesc &k);

/// The chip the kernel's PTX is compiled for ("sm_80", "sm_90", "sm_90a").
inline const char *getChip(const KernelDesc &k) {
  return getName(getTarget(k));
}

} // namespace catalogue
} // namespace tile

#endif // TILE_CATALOGUE_KERNELBUILDER_H
