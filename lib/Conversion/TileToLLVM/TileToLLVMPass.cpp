//===- TileToLLVMPass.cpp - The tile-convert-to-llvm pass -----------------===//

#include "Utility.h"

#include "tile/Analysis/AxisInfo.h"
#include "tile/Conversion/Passes.h"
#include "tile/Conversion/TileToLLVM/TileToLLVM.h"
#include "tile/Dialect/Tile/IR/ElementwiseOps.h"
#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILECONVERTTOLLVM
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

/// The last op of `kernel`'s body that uses a software pipeline's shared
/// buffer (or contains such a use: the pipelined loop): a copy or a store
/// into it, a read (a tile.local_load, or an op using one's result, such as a
/// dot reading the stage itself) or a wait for its copies or for the wgmma
/// reading it. Null when the kernel allocates no buffer. The ops after it
/// leave the buffers' bytes free for their own scratch space.
static Operation *getLastBufferUse(func::FuncOp kernel) {
  Block &body = kernel.getBody().front();
  bool anyBuffer = false;
  kernel.walk([&](AllocSharedOp) { anyBuffer = true; });
  if (!anyBuffer)
    return nullptr;
  Operation *last = nullptr;
  for (Operation &top : body) {
    bool uses = false;
    top.walk([&](Operation *op) {
      if (isa<AsyncCopyOp, AsyncCommitOp, AsyncWaitOp, TmaCopyOp, TmaStoreOp,
              MBarrierWaitOp, LocalLoadOp, LocalStoreOp, WarpgroupMmaWaitOp>(
              op) ||
          // Dots read their operands' stages directly (see DotOpToLLVM).
          llvm::any_of(op->getOperands(), [](Value v) {
            return isa_and_nonnull<AllocSharedOp, LocalLoadOp>(
                v.getDefiningOp());
          }))
        uses = true;
    });
    if (uses)
      last = &top;
  }
  return last;
}

/// Whether the blocks that `blockPtr` (made by a tile.make_block_ptr) points
/// to are read and written with aligned 16-byte vectors wherever they start:
/// the base is 16-byte aligned and, along one dimension of stride 1 whose
/// offset is a multiple of the vector, every other stride is a multiple of
/// it too. Then no run-time alignment test is needed (see MemoryOpToLLVM).
static std::optional<VectorAccess>
getAlignedBlockAccess(const AxisInfoAnalysis &axis, Value blockPtr) {
  auto make = blockPtr.getDefiningOp<MakeBlockPtrOp>();
  if (!make)
    return std::nullopt;
  auto type = cast<BlockPointerType>(make.getType()).getBlockType();
  int64_t bytes = AxisInfoAnalysis::getElementBytes(type.getElementType());
  int64_t width = 16 / bytes;
  if (width < 2)
    return std::nullopt;
  auto divisibility = [&](Value v) -> int64_t {
    const AxisInfo *info = axis.lookup(v);
    return info ? info->getDivisibility(0) : 1;
  };
  if (divisibility(make.getBase()) < 16)
    return std::nullopt;
  int alignedDim = -1;
  for (auto [d, stride] : llvm::enumerate(make.getStrides())) {
    if (divisibility(stride) % width == 0)
      continue;
    const AxisInfo *info = axis.lookup(stride);
    bool unit = info && info->getConstantValue() == 1;
    if (!unit || alignedDim >= 0 ||
        divisibility(make.getOffsets()[d]) % width != 0)
      return std::nullopt;
    alignedDim = d;
  }
  if (alignedDim < 0)
    return std::nullopt;
  return VectorAccess{(unsigned)width, /*maskUniform=*/true, alignedDim};
}

TileTypeConverter::TileTypeConverter(MLIRContext *ctx) {
  addConversion([](Type type) { return type; });
  addConversion([ctx](PointerType) -> Type {
    return LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/1);
  });
  addConversion([this](RankedTensorType type, SmallVectorImpl<Type> &results)
                    -> std::optional<LogicalResult> {
    if (!type.getEncoding())
      return failure();
    Type elem = convertType(type.getElementType());
    results.append(LayoutView(type).getNumSlots(), elem);
    return success();
  });
  addConversion([ctx](BlockPointerType type, SmallVectorImpl<Type> &results)
                    -> std::optional<LogicalResult> {
    unsigned rank = type.getBlockType().getRank();
    results.push_back(LLVM::LLVMPointerType::get(ctx, 1));
    results.append(2 * rank, IntegerType::get(ctx, 64)); // shape, strides
    results.append(rank, IntegerType::get(ctx, 32));     // offsets
    return success();
  });
  addConversion([ctx](SharedBufferType) -> Type {
    return LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/3);
  });
  addConversion([ctx](MBarriersType) -> Type {
    return LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/3);
  });
  // The generic address of the kernel parameter (__grid_constant__).
  addConversion(
      [ctx](TensorMapType) -> Type { return LLVM::LLVMPointerType::get(ctx); });
}

/// A copy through tensor-map argument `index` of `kernel` (all of a map's
/// copies fill the same buffer, so any one gives its box), or null.
static TmaCopyOp getTmaCopy(func::FuncOp kernel, unsigned index) {
  for (Operation *user : kernel.getArgument(index).getUsers())
    if (auto copy = dyn_cast<TmaCopyOp>(user))
      return copy;
  return {};
}

/// A store through tensor-map argument `index` of `kernel` (maps that no
/// copy fills from take their box from it), or null.
static TmaStoreOp getTmaStore(func::FuncOp kernel, unsigned index) {
  for (Operation *user : kernel.getArgument(index).getUsers())
    if (auto store = dyn_cast<TmaStoreOp>(user))
      return store;
  return {};
}

/// The runtime's description of a kernel (see runtime/include/tile_runtime.h).
static std::string buildMetadata(func::FuncOp kernel, int64_t sharedBytes) {
  std::string text;
  llvm::raw_string_ostream os(text);
  int64_t warps = getNumWarps(kernel);
  if (getWarpSpecialize(kernel))
    warps += WarpSpecializeOp::kProducerWarps;
  os << "tile-kernel v1\nname " << kernel.getSymName() << "\nnum_warps "
     << warps << "\nshared_bytes " << sharedBytes << "\n";
  if (auto cluster = kernel->getAttrOfType<IntegerAttr>(
          TileDialect::getClusterSizeAttrName());
      cluster && cluster.getInt() > 1)
    os << "cluster_size " << cluster.getInt() << "\n";
  // A kernel that waits for its predecessor may be launched to overlap it.
  if (kernel.walk([](WaitPriorGridOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    os << "waits_for_prior_grid\n";
  // A specialization: the source's kernel name and the parameters' values,
  // by which the runtime selects it.
  if (auto spec = kernel->getAttrOfType<DictionaryAttr>(
          TileDialect::getSpecializationAttrName())) {
    os << "base " << spec.getAs<StringAttr>("kernel").getValue() << "\n";
    for (NamedAttribute p : spec.getAs<DictionaryAttr>("parameters")) {
      os << "param " << p.getName().getValue() << " ";
      if (auto flag = dyn_cast<BoolAttr>(p.getValue()))
        os << (flag.getValue() ? "true" : "false");
      else
        os << cast<IntegerAttr>(p.getValue()).getInt();
      os << "\n";
    }
  }
  std::string maps;
  llvm::raw_string_ostream ms(maps);
  for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    if (isa<TensorMapType>(type)) {
      // Not passed by the caller: the runtime encodes it from the arguments
      // the map names (see TmaOpToLLVM.cpp and tile_runtime.h).
      auto array = kernel.getArgAttrOfType<DictionaryAttr>(
          i, TileDialect::getTmaAttrName());
      TmaCopyOp copy = getTmaCopy(kernel, i);
      TmaStoreOp store = copy ? TmaStoreOp() : getTmaStore(kernel, i);
      if (!array || (!copy && !store))
        continue;
      SharedLayout layout =
          getSharedLayout(copy ? copy.getBuffer() : store.getBuffer());
      TmaBox box = copy ? getTmaBox(copy) : getTmaBox(store);
      auto strings = [&](StringRef key) {
        std::string out;
        for (Attribute a : cast<ArrayAttr>(array.get(key)))
          out += " " + cast<StringAttr>(a).str();
        return out;
      };
      ms << "tma arg" << cast<IntegerAttr>(array.get("base")).getInt() << " "
         << layout.type.getElementType() << " shape" << strings("shape")
         << " strides" << strings("strides") << " box " << box.rows << " "
         << box.cols << " swizzle " << layout.swizzleBytes << " groups "
         << box.groups;
      if (array.get("batch"))
        ms << " batch" << strings("batch");
      ms << "\n";
      continue;
    }
    if (auto ptr = dyn_cast<PointerType>(type)) {
      std::string pointee;
      llvm::raw_string_ostream ps(pointee);
      ps << ptr.getPointeeType();
      // The axis analysis assumes 16-byte aligned buffers unless the
      // argument says otherwise; the runtime checks it at launch.
      int64_t align = 16;
      if (auto attr =
              kernel.getArgAttrOfType<IntegerAttr>(i, "tile.divisibility"))
        align = attr.getInt();
      os << "arg ptr " << pointee << " " << align << "\n";
      continue;
    }
    if (type.isInteger(32) || type.isInteger(64)) {
      int64_t div = 1;
      if (auto attr = kernel.getArgAttrOfType<IntegerAttr>(
              i, "tile.divisibility"))
        div = attr.getInt();
      os << "arg " << (type.isInteger(32) ? "i32" : "i64") << " " << div
         << "\n";
      continue;
    }
    if (type.isF32())
      os << "arg f32\n";
    else if (type.isF64())
      os << "arg f64\n";
    else
      os << "arg i1\n";
  }
  os << maps << "end\n";
  return text;
}

/// Elements one thread can move with a single access through the tile of
/// pointers `ptr`: runs of consecutive slots along the layout's fastest
/// dimension whose addresses the axis analysis proves consecutive and
/// aligned (and whose mask is uniform), at most 16 bytes.
static unsigned getVectorWidth(const AxisInfoAnalysis &axis, Value ptr,
                               Value mask) {
  auto type = dyn_cast<RankedTensorType>(ptr.getType());
  if (!type || !type.getEncoding())
    return 1;
  Type pointee = cast<PointerType>(type.getElementType()).getPointeeType();
  if (pointee.isInteger(1))
    return 1;
  int64_t bytes = AxisInfoAnalysis::getElementBytes(pointee);
  LayoutView view(type);
  unsigned fast = view.getFastRootDim();
  std::optional<unsigned> dim = view.getFastTensorDim();
  if (!dim)
    return 1;
  int64_t spt = view.getSizePerThread(fast);
  int64_t w = std::min<int64_t>({axis.getVectorWidth(ptr, mask, *dim, bytes),
                                 spt, 16 / bytes, type.getDimSize(*dim)});
  // A power of two dividing the run of consecutive slots.
  int64_t width = 1;
  while (width * 2 <= w && spt % (width * 2) == 0)
    width *= 2;
  return (unsigned)width;
}

namespace {

struct TileConvertToLLVMPass
    : public tile::impl::TileConvertToLLVMBase<TileConvertToLLVMPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    TileDialect::SharedBytesAttrHelper sharedBytes(ctx);
    TileDialect::SharedOffsetAttrHelper sharedOffset(ctx);
    TileDialect::SwizzleBytesAttrHelper swizzleBytes(ctx);

    SmallVector<func::FuncOp> kernels;
    module.walk([&](func::FuncOp f) {
      if (isKernel(f))
        kernels.push_back(f);
    });
    if (kernels.empty())
      return;

    // Before sm_90 no launch overlaps another kernel: the grid dependency
    // ops have nothing to wait for or to release.
    if (getSMVersion(chip) < 90)
      module.walk([](Operation *op) {
        if (isa<WaitPriorGridOp, LaunchDependentsOp>(op))
          op->erase();
      });

    // Everything the patterns cannot lower is reported here, at the op,
    // rather than as a backend failure later.
    bool unsupported = false;
    for (func::FuncOp kernel : kernels)
      kernel.walk([&](Operation *op) {
        for (Type t : op->getResultTypes())
          if (auto tensor = dyn_cast<RankedTensorType>(t);
              tensor && !tensor.getEncoding()) {
            op->emitError("tile ")
                << t << " has no layout; run tile-assign-layouts first";
            unsupported = true;
            return;
          }
        if (!isa<math::MathDialect>(op->getDialect()))
          return;
        StringRef name = op->getName().getStringRef();
        const ElementwiseOpInfo *info = lookupElementwiseOp(name);
        if (!info) {
          op->emitError() << "'" << name << "' is not supported by Tile: "
                          << getUnsupportedReason(name);
          unsupported = true;
        } else if (info->gpu == GpuLowering::Expanded) {
          op->emitError() << "'" << name
                          << "' is rewritten by tile-expand-math, which the "
                             "GPU pipeline runs before this pass";
          unsupported = true;
        }
      });
    if (unsupported)
      return signalPassFailure();

    // Vector width of every tile load and store, from the axis analysis of
    // the kernel before it is rewritten (and while it is still a kernel:
    // the analysis trusts kernel buffers to be 16-byte aligned).
    VectorWidthMap widths;
    for (func::FuncOp kernel : kernels) {
      AxisInfoAnalysis axis(kernel);
      kernel.walk([&](Operation *op) {
        Value ptr, mask;
        if (isa<BlockLoadOp, BlockStoreOp>(op)) {
          if (std::optional<VectorAccess> access =
                  getAlignedBlockAccess(axis, op->getOperand(0)))
            widths[op] = *access;
          return;
        }
        if (auto load = dyn_cast<LoadOp>(op)) {
          ptr = load.getPtr();
          mask = load.getMask();
        } else if (auto store = dyn_cast<StoreOp>(op)) {
          ptr = store.getPtr();
          mask = store.getMask();
        } else {
          return;
        }
        // The width comes from the addresses alone; a mask that may differ
        // within a vector is handled at run time (see MemoryOpToLLVM).
        unsigned w = getVectorWidth(axis, ptr, Value());
        if (w > 1)
          widths[op] = {w, !mask || getVectorWidth(axis, ptr, mask) >= w};
      });
    }

    // Dots that become wgmma, and the layouts of the buffers they read.
    bool warpgroupMma = targetHasWarpgroupMma(chip);
    if (warpgroupMma)
      for (func::FuncOp kernel : kernels)
        planWarpgroupMma(kernel);
    // TMA writes and reads swizzled rows: a buffer that TMA fills or
    // stores from and that no wgmma claimed (read only by tile.local_load,
    // which addresses through any layout) gets the widest swizzle its rows
    // allow.
    for (func::FuncOp kernel : kernels)
      kernel.walk([&](Operation *op) {
        Value buffer;
        if (auto copy = dyn_cast<TmaCopyOp>(op))
          buffer = copy.getBuffer();
        else if (auto store = dyn_cast<TmaStoreOp>(op))
          buffer = store.getBuffer();
        auto alloc =
            buffer ? buffer.getDefiningOp<AllocSharedOp>() : AllocSharedOp();
        if (!alloc || swizzleBytes.isAttrPresent(alloc))
          return;
        auto type = cast<SharedBufferType>(alloc.getType());
        int64_t rowBytes =
            type.getBlockType().getDimSize(1) * type.getElementBytes();
        if (rowBytes >= 32)
          swizzleBytes.setAttr(
              alloc, IntegerAttr::get(IntegerType::get(ctx, 64),
                                      std::min<int64_t>(rowBytes, 128)));
      });

    // Shared memory each kernel needs, and its metadata, before the
    // signatures lose their pointee types.
    for (func::FuncOp kernel : kernels) {
      // Scratch space (from offset 0) of the ops that run while buffers of
      // software pipelines are in use, and of those after the last use
      // (an epilogue's layout conversion, say), which may reuse the
      // buffers' bytes: see getLastBufferUse.
      Operation *lastBufferUse = getLastBufferUse(kernel);
      int64_t bytes = 0, afterBuffers = 0;
      for (Operation &top : kernel.getBody().front()) {
        bool after = lastBufferUse && lastBufferUse->isBeforeInBlock(&top);
        top.walk([&](Operation *op) {
          int64_t &need = after ? afterBuffers : bytes;
          need = std::max(need, getSharedMemoryBytes(op));
        });
      }
      // Buffers keep their contents across the other ops: they go after
      // the scratch space those share, 128-byte aligned (1024 for swizzled
      // ones, see SharedLayout).
      kernel.walk([&](AllocSharedOp alloc) {
        SharedLayout layout = getSharedLayout(alloc.getResult());
        bytes = llvm::alignTo(bytes, layout.isSwizzled() ? 1024 : 128);
        sharedOffset.setAttr(
            alloc, IntegerAttr::get(IntegerType::get(ctx, 64), bytes));
        bytes += layout.getBufferBytes();
      });
      kernel.walk([&](AllocMBarriersOp alloc) {
        bytes = llvm::alignTo(bytes, 8);
        sharedOffset.setAttr(
            alloc, IntegerAttr::get(IntegerType::get(ctx, 64), bytes));
        bytes += 8 * cast<MBarriersType>(alloc.getType()).getCount();
      });
      if (afterBuffers) {
        // Copies issued ahead of steps that never came may still land in
        // the buffers: wait for every one (the wait's barrier also ends
        // all reads) before the scratch space overlaps them.
        OpBuilder b(lastBufferUse->getContext());
        b.setInsertionPointAfter(lastBufferUse);
        AsyncWaitOp::create(b, lastBufferUse->getLoc(), 0);
        bytes = std::max(bytes, afterBuffers);
      }
      // Values exchanged by cluster ops get words of their own (a peer may
      // read them while this program's other ops use the scratch space);
      // the exchanges take turns on them (see ClusterOpToLLVM.cpp).
      // A cluster of one program exchanges nothing.
      SmallVector<Operation *> clusterOps;
      int64_t clusterWords = 0;
      auto clusterSize = kernel->getAttrOfType<IntegerAttr>(
          TileDialect::getClusterSizeAttrName());
      if (clusterSize && clusterSize.getInt() > 1)
        kernel.walk([&](Operation *op) {
          if (!isa<ClusterReduceOp, ClusterGatherOp>(op))
            return;
          clusterOps.push_back(op);
          clusterWords =
              std::max<int64_t>(clusterWords, (int64_t)op->getNumOperands());
        });
      if (!clusterOps.empty()) {
        bytes = llvm::alignTo(bytes, 16);
        for (Operation *op : clusterOps)
          sharedOffset.setAttr(
              op, IntegerAttr::get(IntegerType::get(ctx, 64), bytes));
        bytes += 4 * clusterWords;
        addClusterExchangeBoundaries(kernel);
      }
      if (sharesClusterBarriers(kernel) &&
          failed(addClusterBarrierBoundaries(kernel)))
        return signalPassFailure();
      sharedBytes.setAttr(kernel,
                          IntegerAttr::get(IntegerType::get(ctx, 64), bytes));
      kernel->setAttr("tile.metadata",
                      StringAttr::get(ctx, buildMetadata(kernel, bytes)));
      // Tensor maps are 128-byte, 64-byte aligned parameters passed by
      // value, read in place by the copies (tile-outline-kernels makes
      // them __grid_constant__).
      for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes())) {
        if (!isa<TensorMapType>(type))
          continue;
        kernel.removeArgAttr(i, TileDialect::getTmaAttrName());
        // Two maps where the copies also take a whole-block one (see
        // TmaBox::groups).
        TmaCopyOp copy = getTmaCopy(kernel, i);
        int64_t maps = copy && getTmaBox(copy).groups ? 2 : 1;
        kernel.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                          TypeAttr::get(LLVM::LLVMArrayType::get(
                              IntegerType::get(ctx, 8), 128 * maps)));
        kernel.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                          IntegerAttr::get(IntegerType::get(ctx, 64), 64));
      }
      // From here on the function is per-thread code, no longer a tile
      // kernel (whose arguments must be tile types); tile.metadata marks it.
      kernel->removeAttr(TileDialect::getKernelAttrName());
    }
    if (!module.lookupSymbol(kSharedMemoryName)) {
      OpBuilder b(module.getBodyRegion());
      auto arrayType =
          LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), /*numElements=*/0);
      LLVM::GlobalOp::create(b, module.getLoc(), arrayType,
                             /*isConstant=*/false, LLVM::Linkage::External,
                             kSharedMemoryName, Attribute(),
                             /*alignment=*/warpgroupMma ? 1024 : 16,
                             /*addrSpace=*/3);
    }

    TileTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    ConversionTarget target(*ctx);
    target.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect>();
    target.addIllegalDialect<TileDialect>();
    auto hasTiles = [](Operation *op) {
      auto isTile = [](Type t) {
        return isa<RankedTensorType, PointerType, BlockPointerType>(t);
      };
      return llvm::any_of(op->getOperandTypes(), isTile) ||
             llvm::any_of(op->getResultTypes(), isTile);
    };
    target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect>(
        [&](Operation *op) { return !hasTiles(op); });
    // The fast exp/log lowerings (f64: libdevice) replace these even on
    // scalars, as the libdevice calls replace the ops that need them.
    target.addIllegalOp<math::ExpOp, math::Exp2Op, math::LogOp, math::Log2Op>();
    target.addDynamicallyLegalDialect<math::MathDialect>([&](Operation *op) {
      return !hasTiles(op) && getLibDeviceFunction(op).empty();
    });
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp f) {
      return converter.isSignatureLegal(f.getFunctionType()) &&
             converter.isLegal(&f.getBody());
    });
    target.addDynamicallyLegalOp<func::ReturnOp>(
        [&](func::ReturnOp op) { return converter.isLegal(op); });

    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    populateElementwiseOpToLLVMPatterns(converter, patterns);
    populateViewOpToLLVMPatterns(converter, patterns);
    populateMemoryOpToLLVMPatterns(converter, patterns, widths);
    populateReduceOpToLLVMPatterns(converter, patterns);
    populateScanOpToLLVMPatterns(converter, patterns);
    populateAtomicOpToLLVMPatterns(converter, patterns);
    populateClusterOpToLLVMPatterns(converter, patterns);
    populateGridSyncOpToLLVMPatterns(converter, patterns);
    populateGridDependencyOpToLLVMPatterns(converter, patterns);
    populateDotOpToLLVMPatterns(converter, patterns);
    populateAsyncCopyOpToLLVMPatterns(converter, patterns);
    populateTmaOpToLLVMPatterns(converter, patterns);
    populateWarpSpecializeOpToLLVMPatterns(converter, patterns);
    populateLibDeviceOpToLLVMPatterns(converter, patterns);
    populateDebugOpToLLVMPatterns(converter, patterns);

    for (func::FuncOp kernel : kernels)
      declareLibDeviceFunctions(module, kernel);
    // A producer region's ops are converted in place; the region is split
    // off after (see lowerWarpSpecialize), so that they still know they
    // run on the producer's warp.
    target.addLegalOp<WarpSpecializeOp>();
    FrozenRewritePatternSet frozen(std::move(patterns));
    for (func::FuncOp kernel : kernels) {
      bool turns = false;
      kernel.walk([&](WaitTurnOp) { turns = true; });
      bool clusterExit = sharesClusterBarriers(kernel);
      if (failed(applyPartialConversion(kernel, target, frozen)))
        return signalPassFailure();
      lowerWarpSpecialize(kernel, turns, clusterExit);
    }
  }
};

} // namespace
