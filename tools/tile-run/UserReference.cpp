//===- UserReference.cpp - tile-run's references given by the user --------===//

#include "UserReference.h"

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Support/FileIO.h"
#include "tile/Support/KernelParameters.h"
#include "tile/Target/Compile.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interp;

namespace tilerun {

LogicalResult prepareKernel(ModuleOp module, llvm::StringRef name,
                            std::string &symbol, func::FuncOp &kernel) {
  kernel = lookupKernel(module, name);
  if (!kernel)
    return failure();
  symbol = kernel.getSymName().str();
  for (auto other : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (isKernel(other) && other.getSymName() != symbol)
      other.erase();
  PassManager pm(module.getContext());
  buildKernelCheckPipeline(pm);
  if (failed(pm.run(module)))
    return failure();
  kernel = module.lookupSymbol<func::FuncOp>(symbol);
  return success();
}

bool readExpected(llvm::StringRef path, const Buffer &like,
                  std::vector<double> &values, std::string &error) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file) {
    error = (path + ": " + file.getError().message()).str();
    return false;
  }
  if ((int64_t)(*file)->getBufferSize() != like.sizeInBytes()) {
    error = llvm::formatv("{0} has {1} bytes, but buffer '{2}' ({3} x {4}) "
                          "has {5}",
                          path, (*file)->getBufferSize(), like.name,
                          like.numElements(), dtypeName(like.dtype),
                          like.sizeInBytes())
                .str();
    return false;
  }
  Buffer expected = like;
  std::memcpy(expected.bytes.data(), (*file)->getBufferStart(),
              expected.bytes.size());
  values = expected.toDoubles();
  return true;
}

int runReference(MLIRContext &context, llvm::SourceMgr &sourceMgr,
                 llvm::StringRef path, llvm::StringRef kernelName,
                 llvm::ArrayRef<std::string> settings,
                 const std::vector<Buffer> &initial,
                 const std::vector<ArgValue> &args, const RunOptions &options,
                 ReferenceRun &out, std::string &error) {
  // The reference has parameters of its own (--reference-param).
  std::vector<KernelParameter> parameters;
  std::unique_ptr<llvm::MemoryBuffer> file =
      readKernelSource(path, settings, parameters, error);
  if (!file)
    return 2;
  // Kept in the tool's source manager, which prints its diagnostics'
  // source lines.
  llvm::StringRef text = file->getBuffer();
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, ParserConfig(&context), path);
  if (!module)
    return 2;
  if (kernelName.empty()) {
    SmallVector<std::string> names;
    for (auto f : module->getOps<func::FuncOp>())
      if (isKernel(f))
        names.push_back(f.getSymName().str());
    if (names.size() > 1) {
      error =
          ("--reference: " + path + " has several kernels (" +
           llvm::join(names, ", ") + "); choose one with --reference-kernel")
              .str();
      return 2;
    }
  }
  std::string symbol;
  func::FuncOp kernel;
  if (failed(prepareKernel(*module, kernelName, symbol, kernel)))
    return 2;
  if (!kernel || kernel.getNumArguments() != args.size()) {
    error = llvm::formatv("--reference: kernel '{0}' of {1} takes {2} "
                          "arguments; the kernel run takes {3}",
                          symbol, path, kernel ? kernel.getNumArguments() : 0,
                          args.size())
                .str();
    return 2;
  }
  // The run's buffers, converted to the reference kernel's pointee types;
  // its scalars must have the run's types.
  out.buffers.clear();
  for (auto [i, arg] : llvm::enumerate(args)) {
    Type param = kernel.getArgumentTypes()[i];
    auto ptr = dyn_cast<PointerType>(param);
    if ((arg.kind == ArgValue::Kind::Buffer) != (bool)ptr) {
      error = llvm::formatv("--reference: argument #{0} of '{1}' is {2}, "
                            "but the kernel run takes {3} there",
                            i, symbol, ptr ? "a pointer" : "a scalar",
                            ptr ? "a scalar" : "a buffer")
                  .str();
      return 2;
    }
    if (!ptr)
      continue;
    const Buffer &from = initial[arg.bufferIndex];
    std::optional<DType> dtype = dtypeOf(ptr.getPointeeType());
    if (!dtype) {
      error = llvm::formatv("--reference: argument #{0} of '{1}' points to "
                            "an unsupported type",
                            i, symbol)
                  .str();
      return 2;
    }
    Buffer to(from.name, *dtype, from.shape);
    for (int64_t k = 0, n = from.numElements(); k < n; ++k)
      to.set(k, isFloat(*dtype) ? from.get(k) : (double)from.getInt(k));
    out.buffers.push_back(std::move(to));
  }
  // The buffers are indexed by argument position, in the run's order.
  std::vector<ArgValue> refArgs = args;
  std::vector<Buffer> byIndex(initial.size());
  int next = 0;
  for (ArgValue &a : refArgs)
    if (a.kind == ArgValue::Kind::Buffer)
      byIndex[a.bufferIndex] = out.buffers[next++];
  std::vector<Buffer> before = byIndex;
  if (failed(runKernel(kernel, refArgs, byIndex, options)))
    return 1;
  out.buffers = std::move(byIndex);
  out.written.assign(out.buffers.size(), false);
  for (size_t i = 0; i < out.buffers.size(); ++i)
    out.written[i] = out.buffers[i].bytes != before[i].bytes;
  return 0;
}

} // namespace tilerun
