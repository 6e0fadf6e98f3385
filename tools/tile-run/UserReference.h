//===- UserReference.h - tile-run's references given by the user -*- C++
//-*-===//
//
// Besides its built-in references (--check), tile-run compares a run with
//   --expect NAME=PATH   a file of the buffer's expected elements, raw
//                        little-endian values of its dtype (what --dump
//                        writes), and
//   --reference PATH     a second kernel taking the same arguments, run by
//                        the interpreter on the same inputs converted to its
//                        own pointee types (f64 pointers make it a float64
//                        reference); every buffer it writes is compared.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TOOLS_TILE_RUN_USERREFERENCE_H
#define TILE_TOOLS_TILE_RUN_USERREFERENCE_H

#include "tile/Interpreter/Interpreter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"

#include <string>
#include <vector>

namespace tilerun {
using mlir::tile::interp::ArgValue;
using mlir::tile::interp::Buffer;

/// Selects kernel `name` of `module` (its only kernel when empty) and makes
/// it what the compiler sees: the other kernels erased, helpers inlined,
/// simplified and checked (tile-kernel-check). Failure after a reported
/// error; `kernel` is null when the kernel did not survive simplification,
/// `symbol` its name.
mlir::LogicalResult prepareKernel(mlir::ModuleOp module, llvm::StringRef name,
                                  std::string &symbol,
                                  mlir::func::FuncOp &kernel);

/// The elements of the file at `path` as values of `like`'s dtype; false
/// with `error` when it cannot be read or its size is not `like`'s.
bool readExpected(llvm::StringRef path, const Buffer &like,
                  std::vector<double> &values, std::string &error);

struct ReferenceRun {
  /// The reference kernel's buffers after its run, in argument order.
  std::vector<Buffer> buffers;
  /// Whether the reference kernel changed buffer i.
  std::vector<bool> written;
};

/// Loads the kernel of `path` (its only kernel, or `kernelName`), checks it
/// as the compiler would and runs it in the interpreter on `initial` (the
/// run's buffers before it) and the run's scalar `args`, specialized with
/// `settings` ("NAME=VALUE", --reference-param; its defaults otherwise).
/// Returns 0, 2 for bad input (reported through the context's diagnostics or
/// `error`), or 1 when the interpreter fails.
int runReference(mlir::MLIRContext &context, llvm::SourceMgr &sourceMgr,
                 llvm::StringRef path, llvm::StringRef kernelName,
                 llvm::ArrayRef<std::string> settings,
                 const std::vector<Buffer> &initial,
                 const std::vector<ArgValue> &args,
                 const mlir::tile::interp::RunOptions &options,
                 ReferenceRun &out, std::string &error);

} // namespace tilerun

#endif // TILE_TOOLS_TILE_RUN_USERREFERENCE_H
