//===- SharedMemoryTest.cpp - Catalogue estimates against the lowering ----===//
//
// The catalogue admits attention kernels by an estimate of their shared
// buffers; the lowering lays out the buffers it is given. Each specialized
// kernel of the space, compiled, must take what the estimate says plus the
// lowering's barriers, and no more than a program may take.
//
//===----------------------------------------------------------------------===//

#include "tile/Catalogue/KernelBuilder.h"
#include "tile/Catalogue/Ops/Attention.h"
#include "tile/Target/Compile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include "llvm/ADT/StringRef.h"

#include <gtest/gtest.h>

using namespace tile::catalogue;

namespace {

/// The `shared_bytes` of compiled metadata, or -1.
int64_t getSharedBytes(llvm::StringRef metadata) {
  size_t at = metadata.find("\nshared_bytes ");
  if (at == llvm::StringRef::npos)
    return -1;
  int64_t bytes = -1;
  if (metadata.drop_front(at + 14)
          .take_until([](char c) { return c == '\n'; })
          .getAsInteger(10, bytes))
    return -1;
  return bytes;
}

// The lowering's barriers, 8 bytes each: 11 to 24 of them in the space's
// kernels, which otherwise take exactly the estimate.
constexpr int64_t kLoweringSlack = 256;

// f16 only: bf16 kernels lay out the same bytes.
TEST(CatalogueSharedMemory, AttentionKernelsTakeWhatTheCatalogueAdmits) {
  mlir::DialectRegistry registry;
  mlir::tile::registerCompilerDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  int compiled = 0;
  for (const KernelDesc &desc : getAttentionOp().getConfigurationSpace()) {
    AttentionKernel k = toAttentionKernel(desc);
    if (k.dtype != DType::F16 || !k.specialized)
      continue;
    std::string name = getKernelName(desc);
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::ModuleOp::create(mlir::UnknownLoc::get(&context));
    buildKernel(*module, desc);
    ASSERT_TRUE(mlir::succeeded(mlir::verify(*module))) << name;
    mlir::tile::CompileOptions opts;
    opts.chip = "sm_90a";
    mlir::FailureOr<mlir::tile::CompiledModule> out =
        mlir::tile::compileModule(*module, opts);
    ASSERT_TRUE(mlir::succeeded(out)) << name;
    int64_t bytes = getSharedBytes(out->metadata);
    int64_t estimate = getSharedBufferBytes(k);
    EXPECT_LE(bytes, getSharedBytesLimit(k)) << name;
    EXPECT_GE(bytes, estimate) << name;
    EXPECT_LE(bytes, estimate + kLoweringSlack) << name;
    ++compiled;
  }
  EXPECT_GE(compiled, 100);
}

} // namespace
