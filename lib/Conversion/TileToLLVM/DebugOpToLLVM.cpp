//===- DebugOpToLLVM.cpp - tile.print and tile.assert on the GPU ----------===//
//
// tile.print:
//
// A scalar is printed once per program (by its first thread), a tile one
// line per element, by the thread that holds it, with the element's index:
//
//   [pid (x, y, z)] PREFIX 1.5                      (a scalar)
//   [pid (x, y, z)] PREFIX [i, j] 1.5               (an element of a tile)
//
// through CUDA's device vprintf(format, arguments): the format is a global
// string and the arguments a buffer on the thread's stack, laid out as C
// varargs are promoted (integers as i32 or i64, floats as f64). Lines of
// different threads come in any order; an element that several lanes or
// warps hold (a layout wider than the tile) is printed by the first.
//
// tile.assert: a thread that holds a false element of the condition calls
// CUDA's __assertfail(message, file, line, function, 1) once; the driver
// prints the message with the block and thread, and the kernel stops.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

constexpr llvm::StringLiteral kVprintf = "vprintf";
constexpr llvm::StringLiteral kAssertFail = "__assertfail";
/// The default size of the device printf buffer (cudaLimitPrintfFifoSize).
constexpr int64_t kPrintfBufferBytes = int64_t(1) << 20;

/// The declaration of the device function `name` of `module`, created on
/// first use.
LLVM::LLVMFuncOp getDeviceFunction(ConversionPatternRewriter &rewriter,
                                   ModuleOp module, StringRef name,
                                   LLVM::LLVMFunctionType type) {
  if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return fn;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(rewriter, module.getLoc(), name, type);
}

/// int vprintf(const char *format, void *arguments)
LLVM::LLVMFuncOp getVprintf(ConversionPatternRewriter &rewriter,
                            ModuleOp module) {
  auto ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
  return getDeviceFunction(
      rewriter, module, kVprintf,
      LLVM::LLVMFunctionType::get(rewriter.getI32Type(), {ptr, ptr}));
}

/// void __assertfail(const char *message, const char *file, unsigned line,
///                   const char *function, size_t charSize)
LLVM::LLVMFuncOp getAssertFail(ConversionPatternRewriter &rewriter,
                               ModuleOp module) {
  MLIRContext *ctx = rewriter.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  return getDeviceFunction(
      rewriter, module, kAssertFail,
      LLVM::LLVMFunctionType::get(
          LLVM::LLVMVoidType::get(ctx),
          {ptr, ptr, rewriter.getI32Type(), ptr, rewriter.getI64Type()}));
}

/// A pointer to the NUL-terminated global string `text` of `module` (a
/// format, a message, a file name), shared by the ops that use the same.
Value getFormatString(ConversionPatternRewriter &rewriter, Location loc,
                      ModuleOp module, StringRef text) {
  std::string bytes = text.str();
  bytes.push_back('\0');
  auto type = LLVM::LLVMArrayType::get(rewriter.getI8Type(), bytes.size());
  std::string name;
  for (int i = 0;; ++i) {
    name = llvm::formatv("tile_debug_string_{0}", i).str();
    auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
    if (!global)
      break;
    if (auto value = dyn_cast_or_null<StringAttr>(global.getValueOrNull());
        value && value.getValue() == bytes)
      return LLVM::AddressOfOp::create(rewriter, loc, global);
  }
  LLVM::GlobalOp global;
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(module.getBody());
    global = LLVM::GlobalOp::create(rewriter, loc, type, /*isConstant=*/true,
                                    LLVM::Linkage::Internal, name,
                                    rewriter.getStringAttr(bytes));
  }
  return LLVM::AddressOfOp::create(rewriter, loc, global);
}

/// The value as vprintf takes it, and its conversion.
std::pair<Value, const char *> promote(OpBuilder &b, Location loc, Value v) {
  Type t = v.getType();
  if (auto f = dyn_cast<FloatType>(t)) {
    if (!f.isF64())
      v = arith::ExtFOp::create(b, loc, b.getF64Type(), v);
    return {v, "%g"};
  }
  if (isa<LLVM::LLVMPointerType>(t))
    return {LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), v), "0x%llx"};
  unsigned width = t.getIntOrFloatBitWidth();
  if (width == 64)
    return {v, "%lld"};
  if (width < 32)
    v = width == 1 ? (Value)arith::ExtUIOp::create(b, loc, b.getI32Type(), v)
                   : (Value)arith::ExtSIOp::create(b, loc, b.getI32Type(), v);
  return {v, "%d"};
}

struct PrintOpConversion : public OpConversionPattern<PrintOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PrintOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    auto func = op->getParentOfType<func::FuncOp>();
    LLVM::LLVMFuncOp vprintf = getVprintf(rewriter, module);
    Type i32 = rewriter.getI32Type();
    Value pid[3] = {NVVM::BlockIdXOp::create(rewriter, loc, i32),
                    NVVM::BlockIdYOp::create(rewriter, loc, i32),
                    NVVM::BlockIdZOp::create(rewriter, loc, i32)};
    // The escapes a C format gives meaning to.
    std::string prefix;
    for (char ch : op.getPrefix())
      prefix += ch == '%' ? std::string("%%") : std::string(1, ch);

    // One line: the program id, the prefix, the indices, the value. Each
    // line's argument buffer is allocated in the entry block (an alloca in
    // a loop would take more stack at every iteration).
    auto printLine = [&](ArrayRef<Value> indices, Value value) {
      SmallVector<Value> args(pid, pid + 3);
      std::string format = "[pid (%d, %d, %d)] " + prefix;
      if (!indices.empty()) {
        format += " [";
        for (size_t i = 0; i < indices.size(); ++i)
          format += i ? ", %d" : "%d";
        format += "]";
        args.append(indices.begin(), indices.end());
      }
      auto [promoted, conversion] = promote(rewriter, loc, value);
      format += std::string(" ") + conversion + "\n";
      args.push_back(promoted);
      SmallVector<Type> fields;
      for (Value a : args)
        fields.push_back(a.getType());
      auto structType =
          LLVM::LLVMStructType::getLiteral(rewriter.getContext(), fields);
      Value buffer;
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(&func.getBody().front());
        buffer = LLVM::AllocaOp::create(
            rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()),
            structType, i32Constant(rewriter, loc, 1), /*alignment=*/8);
      }
      for (auto [i, a] : llvm::enumerate(args)) {
        Value field =
            LLVM::GEPOp::create(rewriter, loc, buffer.getType(), structType,
                                buffer, ArrayRef<LLVM::GEPArg>{0, (int32_t)i});
        LLVM::StoreOp::create(rewriter, loc, a, field);
      }
      LLVM::CallOp::create(
          rewriter, loc, vprintf,
          ValueRange{getFormatString(rewriter, loc, module, format), buffer});
    };

    // Scalars: the same in every thread; the first one prints them.
    auto printScalar = [&](Value value) {
      Value first =
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                NVVM::ThreadIdXOp::create(rewriter, loc, i32),
                                i32Constant(rewriter, loc, 0));
      auto ifFirst = scf::IfOp::create(rewriter, loc, first,
                                       /*withElse=*/false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifFirst.thenBlock());
      printLine({}, value);
    };
    // CUDA's device printf keeps the lines of a launch in a buffer of
    // kPrintfBufferBytes by default; lines beyond it are dropped without a
    // word. One program printing more than that certainly loses some.
    int64_t lineBytes = 24 + (int64_t)prefix.size() + 16;
    int64_t lines = 0;
    for (Value arg : op.getArgs())
      if (auto tensor = dyn_cast<RankedTensorType>(arg.getType()))
        lines += tensor.getNumElements();
      else
        ++lines;
    if (lines * lineBytes > kPrintfBufferBytes)
      op.emitWarning() << "prints " << lines << " lines per program, about "
                       << lines * lineBytes
                       << " bytes: more than CUDA's printf buffer of "
                       << kPrintfBufferBytes
                       << " bytes holds for a whole launch, so lines will "
                          "be lost (print a smaller tile, or from one "
                          "program)";
    if (op.getArgs().empty())
      printScalar(i32Constant(rewriter, loc, 0));
    for (auto [arg, parts] : llvm::zip(op.getArgs(), adaptor.getArgs())) {
      auto tensor = dyn_cast<RankedTensorType>(arg.getType());
      if (!tensor) {
        printScalar(parts[0]);
        continue;
      }
      SmallVector<SmallVector<Value>> indices =
          emitSlotIndices(rewriter, loc, tensor);
      // Where the layout repeats elements over lanes or warps, only the
      // first holder of each prints it.
      LayoutView view(tensor);
      ThreadIds ids = getThreadIds(rewriter, loc);
      Value owner =
          arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(true));
      for (unsigned rd = 0; rd < view.getRootRank(); ++rd) {
        auto below = [&](Value along, int64_t distinct) {
          owner = arith::AndIOp::create(
              rewriter, loc, owner,
              arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                    along,
                                    i32Constant(rewriter, loc, distinct)));
        };
        below(emitLaneAlong(rewriter, loc, view, rd, ids.lane),
              view.getDistinctLanes(rd));
        below(emitWarpAlong(rewriter, loc, view, rd, ids.warp),
              view.getDistinctWarps(rd));
      }
      auto ifOwner = scf::IfOp::create(rewriter, loc, owner,
                                       /*withElse=*/false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOwner.thenBlock());
      for (auto [slot, value] : llvm::enumerate(parts))
        printLine(indices[slot], value);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AssertOpConversion : public OpConversionPattern<AssertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AssertOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    auto func = op->getParentOfType<func::FuncOp>();
    // Any false element among the thread's slots. (Copies of an element
    // in other lanes are false too: each of those threads reports it.)
    Value failed;
    for (Value element : adaptor.getCondition()) {
      Value isFalse = arith::XOrIOp::create(
          rewriter, loc, element,
          arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(true)));
      failed = failed ? arith::OrIOp::create(rewriter, loc, failed, isFalse)
                      : isFalse;
    }
    std::string file = "<unknown>";
    unsigned line = 0;
    if (auto fileLoc = dyn_cast<FileLineColLoc>(getCallerOrSelf(loc))) {
      file = fileLoc.getFilename().str();
      line = fileLoc.getLine();
    }
    auto ifFailed = scf::IfOp::create(rewriter, loc, failed,
                                      /*withElse=*/false);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifFailed.thenBlock());
      LLVM::CallOp::create(
          rewriter, loc, getAssertFail(rewriter, module),
          ValueRange{getFormatString(rewriter, loc, module, op.getMessage()),
                     getFormatString(rewriter, loc, module, file),
                     i32Constant(rewriter, loc, line),
                     getFormatString(rewriter, loc, module,
                                     func ? func.getSymName() : "kernel"),
                     arith::ConstantOp::create(rewriter, loc,
                                               rewriter.getI64IntegerAttr(1))});
    }
    rewriter.eraseOp(op);
    return success();
  }

  /// The location an inlined helper's op reports: where it was written.
  static Location getCallerOrSelf(Location loc) {
    while (auto call = dyn_cast<CallSiteLoc>(loc))
      loc = call.getCallee();
    if (auto fused = dyn_cast<FusedLoc>(loc))
      for (Location inner : fused.getLocations())
        if (isa<FileLineColLoc>(inner))
          return inner;
    return loc;
  }
};

} // namespace

void mlir::tile::populateDebugOpToLLVMPatterns(TileTypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<PrintOpConversion, AssertOpConversion>(converter,
                                                      patterns.getContext());
}
