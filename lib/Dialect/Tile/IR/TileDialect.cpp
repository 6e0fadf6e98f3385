//===- TileDialect.cpp - Tile dialect, types and attributes ---------------===//

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

#include "tile/Dialect/Tile/IR/TileDialect.cpp.inc"
#include "tile/Dialect/Tile/IR/TileEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileTypes.cpp.inc"

/// `, warpOrder = [...]` and `, warpSlices = [...]`, each optional, in
/// that order, after #tile.blocked's `order`.
static ParseResult parseWarpPlacement(AsmParser &parser,
                                      SmallVector<unsigned> &warpOrder,
                                      SmallVector<unsigned> &warpSlices) {
  auto parseList = [&](SmallVector<unsigned> &into) -> ParseResult {
    if (parser.parseEqual() || parser.parseLSquare())
      return failure();
    if (succeeded(parser.parseOptionalRSquare()))
      return success();
    if (parser.parseCommaSeparatedList([&]() -> ParseResult {
          unsigned v;
          if (parser.parseInteger(v))
            return failure();
          into.push_back(v);
          return success();
        }))
      return failure();
    return parser.parseRSquare();
  };
  bool any = false;
  while (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&key))
      return failure();
    if (key == "warpOrder" && !any && warpOrder.empty()) {
      if (parseList(warpOrder))
        return failure();
    } else if (key == "warpSlices" && warpSlices.empty()) {
      if (parseList(warpSlices))
        return failure();
      any = true;
    } else {
      return parser.emitError(loc, "expected 'warpOrder' or 'warpSlices' "
                                   "(in that order), got '")
             << key << "'";
    }
  }
  return success();
}

static void printWarpPlacement(AsmPrinter &printer,
                               ArrayRef<unsigned> warpOrder,
                               ArrayRef<unsigned> warpSlices) {
  auto printList = [&](StringRef key, ArrayRef<unsigned> values) {
    if (values.empty())
      return;
    printer << ", " << key << " = [";
    llvm::interleaveComma(values, printer);
    printer << "]";
  };
  printList("warpOrder", warpOrder);
  printList("warpSlices", warpSlices);
}

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileAttrs.cpp.inc"

namespace {
/// Prints layouts as `#blocked`, `#blocked1`, `#slice`, ... aliases so that
/// tensor types stay readable.
struct TileOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedEncodingAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<SliceEncodingAttr>(attr)) {
      os << "slice";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};

/// Every tile op may be inlined: none refers to its enclosing function.
struct TileInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void TileDialect::initialize() {
  addInterfaces<TileOpAsmInterface, TileInlinerInterface>();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tile/Dialect/Tile/IR/TileTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tile/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
  registerTypeMismatchHints(getContext());
}

Operation *TileDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

static bool isMemoryElementType(Type t) {
  return t.isF16() || t.isBF16() || t.isF32() || t.isF64() ||
         t.isSignlessInteger(1) || t.isSignlessInteger(8) ||
         t.isSignlessInteger(16) || t.isSignlessInteger(32) ||
         t.isSignlessInteger(64);
}

LogicalResult
PointerType::verify(function_ref<InFlightDiagnostic()> emitError,
                    Type pointee) {
  if (!isMemoryElementType(pointee))
    return emitError() << "pointee type must be f16, bf16, f32, f64 or a "
                          "signless integer of 1 to 64 bits, got "
                       << pointee;
  return success();
}

LogicalResult
BlockPointerType::verify(function_ref<InFlightDiagnostic()> emitError,
                         RankedTensorType block) {
  if (!isMemoryElementType(block.getElementType()))
    return emitError() << "block element type must be f16, bf16, f32, f64 or "
                          "a signless integer, got "
                       << block.getElementType();
  if (!isPowerOfTwoTile(block))
    return emitError() << "block shape must be static with power-of-two "
                          "dimensions, got "
                       << block;
  if (!hasTileElementCount(block))
    return emitError() << "block " << block
                       << " has more elements than a tile may hold (2^"
                       << kMaxTileElementsLog2 << ")";
  return success();
}

LogicalResult
SharedBufferType::verify(function_ref<InFlightDiagnostic()> emitError,
                         RankedTensorType block, int64_t stages, int64_t pad) {
  Type elem = block.getElementType();
  if (!elem.isF16() && !elem.isBF16() && !elem.isF32() &&
      !elem.isInteger(32))
    return emitError() << "shared buffer element type must be f16, bf16, "
                          "f32 or i32, got "
                       << elem;
  if (block.getRank() != 2 || !isPowerOfTwoTile(block))
    return emitError() << "shared buffer blocks must be 2-d with static "
                          "power-of-two dimensions, got "
                       << block;
  if (!hasTileElementCount(block))
    return emitError() << "shared buffer block " << block
                       << " has more elements than a tile may hold (2^"
                       << kMaxTileElementsLog2 << ")";
  if (stages < 1 || stages > 8)
    return emitError() << "shared buffer stages must be 1 to 8, got "
                       << stages;
  int64_t bytes = elem.getIntOrFloatBitWidth() / 8;
  if (pad < 0 || ((block.getDimSize(1) + pad) * bytes) % 16 != 0 ||
      (block.getDimSize(1) * bytes) % 16 != 0)
    return emitError() << "shared buffer rows must be multiples of 16 bytes "
                          "with and without the pad, got "
                       << block.getDimSize(1) << " + " << pad << " elements of "
                       << bytes << " bytes";
  return success();
}

LogicalResult
MBarriersType::verify(function_ref<InFlightDiagnostic()> emitError,
                      int64_t count, int64_t arrivals) {
  if (count < 1 || count > 8)
    return emitError() << "mbarriers count must be 1 to 8, got " << count;
  // The arrival count field of an mbarrier holds up to 2^20 - 1.
  if (arrivals < 1 || arrivals >= (1 << 20))
    return emitError() << "mbarriers arrivals must be 1 to 2^20 - 1, got "
                       << arrivals;
  return success();
}

//===----------------------------------------------------------------------===//
// Layout encodings
//===----------------------------------------------------------------------===//

unsigned BlockedEncodingAttr::getNumWarps() const {
  unsigned n = 1;
  for (unsigned w : getWarpsPerCTA())
    n *= w;
  return n;
}

LogicalResult BlockedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError,
    ArrayRef<unsigned> sizePerThread, ArrayRef<unsigned> threadsPerWarp,
    ArrayRef<unsigned> warpsPerCTA, ArrayRef<unsigned> order,
    ArrayRef<unsigned> warpOrder, ArrayRef<unsigned> warpSlices) {
  size_t rank = order.size();
  if (rank == 0 || sizePerThread.size() != rank ||
      threadsPerWarp.size() != rank || warpsPerCTA.size() != rank)
    return emitError() << "blocked layout fields must all have the same, "
                          "non-zero length";
  unsigned lanes = 1, warps = 1;
  SmallVector<bool> seen(rank, false);
  for (size_t d = 0; d < rank; ++d) {
    for (unsigned v : {sizePerThread[d], threadsPerWarp[d], warpsPerCTA[d]})
      if (v == 0 || !llvm::isPowerOf2_32(v))
        return emitError() << "blocked layout sizes must be powers of two";
    lanes *= threadsPerWarp[d];
    warps *= warpsPerCTA[d];
    if (order[d] >= rank || seen[order[d]])
      return emitError() << "blocked layout order must be a permutation of "
                            "0.."
                         << rank - 1;
    seen[order[d]] = true;
  }
  if (!warpOrder.empty()) {
    if (warpOrder.size() != rank)
      return emitError() << "blocked layout warpOrder must have the rank's "
                            "length";
    SmallVector<bool> seenWarp(rank, false);
    for (unsigned d : warpOrder) {
      if (d >= rank || seenWarp[d])
        return emitError() << "blocked layout warpOrder must be a permutation "
                              "of 0.."
                           << rank - 1;
      seenWarp[d] = true;
    }
  }
  for (auto [i, d] : llvm::enumerate(warpSlices))
    if (d >= rank || (i > 0 && warpSlices[i - 1] >= d))
      return emitError() << "blocked layout warpSlices must list dimensions "
                            "below "
                         << rank << " in increasing order";
  if (lanes != 32)
    return emitError() << "threadsPerWarp must multiply to 32, got " << lanes;
  if (warps > 32)
    return emitError() << "warpsPerCTA multiplies to " << warps
                       << "; at most 32 warps";
  return success();
}

LogicalResult
SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          unsigned dim, Attribute parent) {
  unsigned rank;
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(parent))
    rank = blocked.getRank();
  else if (auto slice = dyn_cast<SliceEncodingAttr>(parent))
    rank = getLayoutRank(slice);
  else
    return emitError() << "slice parent must be a blocked or slice layout";
  if (rank < 2)
    return emitError() << "slice parent must have rank at least 2";
  if (dim >= rank)
    return emitError() << "slice dim " << dim << " out of range for a parent "
                       << "of rank " << rank;
  return success();
}

unsigned mlir::tile::getLayoutRank(Attribute layout) {
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(layout))
    return blocked.getRank();
  if (auto slice = dyn_cast<SliceEncodingAttr>(layout))
    return getLayoutRank(slice.getParent()) - 1;
  return 0;
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

Type mlir::tile::getPointeeLikeType(Type ptrLike) {
  if (auto ptr = dyn_cast<PointerType>(ptrLike))
    return ptr.getPointeeType();
  if (auto tensor = dyn_cast<RankedTensorType>(ptrLike))
    if (auto ptr = dyn_cast<PointerType>(tensor.getElementType()))
      return tensor.clone(ptr.getPointeeType());
  return Type();
}

Type mlir::tile::getMaskLikeType(Type ptrLike) {
  Type i1 = IntegerType::get(ptrLike.getContext(), 1);
  if (auto tensor = dyn_cast<RankedTensorType>(ptrLike))
    return tensor.clone(i1);
  return i1;
}

bool mlir::tile::isPowerOfTwoTile(RankedTensorType t) {
  return t.hasStaticShape() &&
         llvm::all_of(t.getShape(), [](int64_t d) {
           return d > 0 && llvm::isPowerOf2_64(d);
         });
}

bool mlir::tile::hasTileElementCount(RankedTensorType t) {
  // Dimensions are powers of two: the count is 2^(sum of the exponents),
  // which is how it is computed without overflowing.
  unsigned log2 = 0;
  for (int64_t d : t.getShape())
    log2 += llvm::Log2_64(d);
  return log2 <= kMaxTileElementsLog2;
}

bool mlir::tile::isKernelScalarType(Type t) {
  return t.isF16() || t.isBF16() || t.isF32() || t.isF64() || t.isIndex() ||
         t.isSignlessInteger(1) || t.isSignlessInteger(8) ||
         t.isSignlessInteger(16) || t.isSignlessInteger(32) ||
         t.isSignlessInteger(64);
}

/// Whether a value of type `t` may appear in a kernel: a scalar or pointer,
/// a tile of those, or one of the dialect's own types (block pointers,
/// shared buffers, barriers, tensor maps), whose verifiers restrict their
/// element types themselves.
static bool isKernelValueType(Type t) {
  if (auto tensor = dyn_cast<RankedTensorType>(t))
    t = tensor.getElementType();
  return isKernelScalarType(t) || isa<TileDialect>(t.getDialect());
}

LogicalResult mlir::tile::verifyTileType(Operation *op, Type type,
                                         StringRef what) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return success();
  if (!isPowerOfTwoTile(tensor))
    return op->emitOpError() << what << " must be a tile with static "
                             << "power-of-two dimensions, got " << type;
  if (!hasTileElementCount(tensor))
    return op->emitOpError() << what << " " << type
                             << " has more elements than a tile may hold (2^"
                             << kMaxTileElementsLog2 << ")";
  if (Attribute enc = tensor.getEncoding()) {
    if (!isa<BlockedEncodingAttr, SliceEncodingAttr>(enc))
      return op->emitOpError() << what << " has an encoding that is not a "
                               << "tile layout: " << enc;
    if (getLayoutRank(enc) != tensor.getRank())
      return op->emitOpError() << what << " has a layout of rank "
                               << getLayoutRank(enc) << " for a tile of rank "
                               << tensor.getRank();
  }
  return success();
}

bool mlir::tile::isKernel(func::FuncOp func) {
  return func->hasAttr(TileDialect::getKernelAttrName());
}

int64_t mlir::tile::getNumWarps(func::FuncOp func) {
  if (auto attr = func->getAttrOfType<IntegerAttr>(
          TileDialect::getNumWarpsAttrName()))
    return attr.getInt();
  return 4;
}

//===----------------------------------------------------------------------===//
// Kernel attributes
//===----------------------------------------------------------------------===//

/// A `!tile.tensormap` kernel argument (added by tile-pipeline-loops or a
/// library kernel's builder) must say which array it maps: `tile.tma =
/// {base = N, shape = [2 x "argK" or constant], strides = [...]}`, N a
/// pointer argument before it, and for a batch of matrices `batch =
/// [stride, count]` (the count may be "gridK", the launch grid's size
/// along K), up to three such pairs for an array of rank 3 to 5 (innermost
/// dimension first).
static LogicalResult verifyTensorMapArg(func::FuncOp func, unsigned index) {
  auto error = [&]() {
    return func.emitError() << "tile kernel '" << func.getSymName()
                            << "' argument #" << index << " (!tile.tensormap) ";
  };
  auto array = func.getArgAttrOfType<DictionaryAttr>(
      index, TileDialect::getTmaAttrName());
  if (!array)
    return error() << "needs a 'tile.tma' dictionary naming its array";
  auto base = array.getAs<IntegerAttr>("base");
  if (!base || base.getInt() < 0 || base.getInt() >= (int64_t)index ||
      !isa<PointerType>(func.getArgumentTypes()[base.getInt()]))
    return error() << "must name an earlier pointer argument as its base";
  for (StringRef key : {"shape", "strides", "batch"}) {
    auto values = array.getAs<ArrayAttr>(key);
    if (key == "batch" && !array.get(key))
      continue; // a 2-d array
    bool pairs = key == "batch" && values && values.size() % 2 == 0 &&
                 values.size() <= 6;
    if (!values || (values.size() != 2 && !pairs) ||
        !llvm::all_of(values, [](Attribute a) {
          auto s = dyn_cast<StringAttr>(a);
          return s && !s.empty();
        }))
      return error() << "needs '" << key
                     << (key == "batch" ? "' as one to three pairs of strings"
                                        : "' as two strings")
                     << " (\"argN\" or a constant)";
  }
  return success();
}

static bool isKernelArgType(Type t) {
  return isa<PointerType>(t) || t.isSignlessInteger(32) ||
         t.isSignlessInteger(64) || t.isF32() || t.isF64() ||
         t.isSignlessInteger(1);
}

/// The first op that writes memory through a pointer derived from `root`
/// (a store, block store or atomic), following the ops that pass pointers
/// on: pointer arithmetic, shape ops, selects, block pointers and the
/// loop-carried and yielded values of scf.for / scf.if.
static Operation *findWriteThrough(Value root) {
  SmallVector<Value> worklist{root};
  llvm::DenseSet<Value> seen{root};
  auto follow = [&](Value v) {
    if (seen.insert(v).second)
      worklist.push_back(v);
  };
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      unsigned index = use.getOperandNumber();
      if ((isa<StoreOp, AtomicRMWOp, AtomicCASOp, AtomicAddOp, BlockStoreOp>(
              user)) &&
          index == 0)
        return user;
      if (isa<AddPtrOp, SplatOp, BroadcastOp, ExpandDimsOp, ReshapeOp, TransOp,
              ConvertLayoutOp, OptimizationBarrierOp, arith::SelectOp,
              MakeBlockPtrOp, AdvanceOp>(user)) {
        for (Value result : user->getResults())
          follow(result);
      } else if (auto loop = dyn_cast<scf::ForOp>(user)) {
        unsigned iter = index - loop.getNumControlOperands();
        if (index >= loop.getNumControlOperands() &&
            iter < loop.getRegionIterArgs().size() &&
            iter < loop.getNumResults()) {
          follow(loop.getRegionIterArgs()[iter]);
          follow(loop.getResult(iter));
        }
      } else if (auto yield = dyn_cast<scf::YieldOp>(user)) {
        // (The IR may not be verified yet: counts are checked.)
        Operation *parent = yield->getParentOp();
        if (index < parent->getNumResults())
          follow(parent->getResult(index));
        auto loop = dyn_cast<scf::ForOp>(parent);
        if (loop && index < loop.getRegionIterArgs().size())
          follow(loop.getRegionIterArgs()[index]);
      }
    }
  }
  return nullptr;
}

LogicalResult TileDialect::verifyRegionArgAttribute(Operation *op,
                                                    unsigned regionIndex,
                                                    unsigned argIndex,
                                                    NamedAttribute attr) {
  if (attr.getName() != getReadOnlyAttrName())
    return success();
  auto func = dyn_cast<func::FuncOp>(op);
  if (!func || regionIndex != 0 || !isa<UnitAttr>(attr.getValue()))
    return op->emitError() << "'" << getReadOnlyAttrName()
                           << "' is a unit attribute of a function argument";
  if (func.isExternal())
    return success();
  BlockArgument arg = func.getArgument(argIndex);
  if (!isa<PointerType>(arg.getType()))
    return op->emitError() << "'" << getReadOnlyAttrName() << "' on argument #"
                           << argIndex << " of type " << arg.getType()
                           << "; it marks pointer arguments";
  if (Operation *writer = findWriteThrough(arg))
    return writer->emitError()
           << "'" << writer->getName() << "' writes through argument #"
           << argIndex << " of '" << func.getSymName() << "', which is marked '"
           << getReadOnlyAttrName() << "'";
  return success();
}

LogicalResult TileDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == getKernelAttrName()) {
    auto func = dyn_cast<func::FuncOp>(op);
    if (!func)
      return op->emitError() << "'" << name
                             << "' may only be attached to a func.func";
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a unit attribute";
    // Dialect attributes are verified before the op's own invariants: the
    // checks below read the function's name and type.
    if (!func.getSymNameAttr() || !func.getFunctionTypeAttr())
      return op->emitError()
             << "'" << name << "' on a func.func without a name or type";
    if (func.isExternal())
      return op->emitError() << "tile kernel '" << func.getSymName()
                             << "' must have a body";
    // An entry point: a private one could be dropped as unused.
    if (!func.isPublic())
      return op->emitError() << "tile kernel '" << func.getSymName()
                             << "' must be public (it is launched from the "
                                "host)";
    // The name becomes the PTX entry's (and the runtime's lookup key); LLVM
    // aborts on names that are not PTX identifiers.
    StringRef symbol = func.getSymName();
    if (symbol.empty() || llvm::isDigit(symbol.front()) ||
        !llvm::all_of(symbol,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; }))
      return op->emitError() << "tile kernel name '" << symbol
                             << "' is not an identifier (letters, digits and "
                                "'_', not starting with a digit)";
    if (func.getFunctionType().getNumResults() != 0)
      return op->emitError() << "tile kernel '" << func.getSymName()
                             << "' must not return values (write results "
                                "through pointers)";
    bool anyMap = false;
    for (auto [i, t] : llvm::enumerate(func.getArgumentTypes())) {
      if (isa<TensorMapType>(t)) {
        anyMap = true;
        if (failed(verifyTensorMapArg(func, i)))
          return failure();
        continue;
      }
      if (anyMap)
        return op->emitError()
               << "tile kernel '" << func.getSymName() << "' argument #" << i
               << " follows a !tile.tensormap; tensor maps come last";
      if (!isKernelArgType(t))
        return op->emitError()
               << "tile kernel '" << func.getSymName() << "' argument #" << i
               << " has type " << t
               << "; kernel arguments are !tile.ptr<T>, i1, i32, i64, f32 or "
                  "f64";
    }
    // A layout distributes a tile over warpsPerCTA warps; code generation
    // launches tile.num_warps warps per program, so any other count would
    // leave elements without a thread (or threads without elements). A
    // num_warps that is itself invalid is reported by its own verification
    // (below), and no layout is compared with it.
    std::optional<unsigned> numWarps;
    auto numWarpsAttr =
        func->getAttrOfType<IntegerAttr>(getNumWarpsAttrName());
    if (!func->hasAttr(getNumWarpsAttrName()))
      numWarps = 4;
    else if (numWarpsAttr && numWarpsAttr.getInt() >= 1 &&
             numWarpsAttr.getInt() <= 32 &&
             llvm::isPowerOf2_64(numWarpsAttr.getInt()))
      numWarps = (unsigned)numWarpsAttr.getInt();
    auto verifyLayoutWarps = [&](Operation *inner, Type type,
                                 StringRef what) -> LogicalResult {
      if (!numWarps)
        return success();
      // The layout of a tile, or of the block a block pointer addresses.
      Type tileType = type;
      if (auto bp = dyn_cast<BlockPointerType>(type))
        tileType = bp.getBlockType();
      auto tensor = dyn_cast<RankedTensorType>(tileType);
      if (!tensor)
        return success();
      // A slice distributes its elements like the root of its chain.
      Attribute layout = tensor.getEncoding();
      while (auto slice = dyn_cast_or_null<SliceEncodingAttr>(layout))
        layout = slice.getParent();
      auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(layout);
      if (!blocked || blocked.getNumWarps() == *numWarps)
        return success();
      return inner->emitOpError()
             << what << " has a layout whose warpsPerCTA multiply to "
             << blocked.getNumWarps() << ", but tile kernel '"
             << func.getSymName() << "' has tile.num_warps = " << *numWarps
             << ": " << type;
    };
    // Both the GPU backend and the interpreter compute with the scalar
    // types of isKernelScalarType only: any other type (complex, f8, i128,
    // ...) is rejected here rather than miscompiled, or crashing, later.
    auto verifyValueType = [&](Operation *inner, Type type,
                               StringRef what) -> LogicalResult {
      if (isKernelValueType(type))
        return success();
      return inner->emitOpError()
             << what << " has type " << type << ", which tile kernel '"
             << func.getSymName()
             << "' cannot compute with; kernels use f16, bf16, f32, f64, i1, "
                "i8, i16, i32, i64, index, !tile.ptr<T> and tiles of these";
    };
    // Every tensor in the body is a tile: static, power-of-two dimensions,
    // with a layout (if any) for the kernel's warps.
    // Pre-order: the first op past the nesting limit is the one reported.
    WalkResult result = func.walk<WalkOrder::PreOrder>([&](Operation *inner) {
      for (Type t : inner->getResultTypes())
        if (failed(verifyValueType(inner, t, "result")) ||
            failed(verifyTileType(inner, t, "result")) ||
            failed(verifyLayoutWarps(inner, t, "result")))
          return WalkResult::interrupt();
      if (inner->getNumRegions() == 0)
        return WalkResult::advance();
      // Deeply nested regions are almost always generated input; passes
      // and analyses recurse over regions, so bound the depth here.
      unsigned depth = 1;
      for (Operation *parent = inner->getParentOp();
           parent && parent != func.getOperation();
           parent = parent->getParentOp())
        ++depth;
      if (depth > kMaxKernelNestingDepth) {
        inner->emitOpError()
            << "is nested " << depth << " regions deep in tile kernel '"
            << func.getSymName() << "'; the limit is "
            << kMaxKernelNestingDepth;
        return WalkResult::interrupt();
      }
      for (Region &region : inner->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            if (failed(
                    verifyValueType(inner, arg.getType(), "region argument")) ||
                failed(
                    verifyTileType(inner, arg.getType(), "region argument")) ||
                failed(
                    verifyLayoutWarps(inner, arg.getType(), "region argument")))
              return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }
  if (name == getNumWarpsAttrName() || name == getNumStagesAttrName() ||
      name == getMinProgramsPerSMAttrName() ||
      name == getClusterSizeAttrName()) {
    if (!isa<FunctionOpInterface>(op))
      return op->emitError() << "'" << name
                             << "' may only be attached to a function";
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value)
      return op->emitError() << "'" << name << "' must be an integer";
    int64_t v = value.getInt();
    if (name == getNumWarpsAttrName() &&
        (v < 1 || v > 32 || !llvm::isPowerOf2_64(v)))
      return op->emitError() << "'" << name
                             << "' must be a power of two from 1 to 32, got "
                             << v;
    if (name == getNumStagesAttrName() && (v < 1 || v > 8))
      return op->emitError() << "'" << name << "' must be from 1 to 8, got "
                             << v;
    // 0: no bound (what a kernel parameter sets to leave the hint out).
    if (name == getMinProgramsPerSMAttrName() && (v < 0 || v > 32))
      return op->emitError()
             << "'" << name << "' must be from 0 to 32, got " << v;
    // Sixteen is sm_90's largest cluster (above 8 non-portable: the runtime
    // opts such kernels in); tile.cluster_gather returns a tile per value,
    // whose size must be a power of two.
    if (name == getClusterSizeAttrName() &&
        (v < 1 || v > 16 || !llvm::isPowerOf2_64(v)))
      return op->emitError()
             << "'" << name << "' must be 1, 2, 4, 8 or 16, got " << v;
    return success();
  }
  if (name == getTmaAttrName() || name == getRematerializeAttrName()) {
    if (!isa<FunctionOpInterface>(op) || !isa<UnitAttr>(attr.getValue()))
      return op->emitError()
             << "'" << name << "' must be a unit attribute of a function";
    return success();
  }
  // Set by the compiler on lowered kernels and modules (see TileToLLVM).
  if (name == "tile.metadata") {
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a string";
    return success();
  }
  // Decisions of the compiler's passes (see discardableAttrs in
  // TileDialect.td). The lowering trusts them: a value outside its range
  // would address shared memory wrongly, so it is rejected here.
  if (name == SharedBytesAttrHelper::getNameStr() ||
      name == SharedOffsetAttrHelper::getNameStr() ||
      name == WgmmaPendingAttrHelper::getNameStr()) {
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value || value.getValue().isNegative())
      return op->emitError()
             << "'" << name << "' must be a non-negative integer";
    return success();
  }
  // The swizzle modes of wgmma's shared-memory descriptors and of TMA, or
  // none (0).
  if (name == SwizzleBytesAttrHelper::getNameStr() ||
      name == MmaRowWarpsAttrHelper::getNameStr()) {
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    std::optional<int64_t> v =
        value ? value.getValue().trySExtValue() : std::nullopt;
    if (!v)
      return op->emitError() << "'" << name << "' must be an integer";
    if (name == SwizzleBytesAttrHelper::getNameStr() && *v != 0 && *v != 32 &&
        *v != 64 && *v != 128)
      return op->emitError()
             << "'" << name << "' must be 0, 32, 64 or 128, got " << *v;
    // The dot's warps along M, all of the kernel's: a valid tile.num_warps.
    if (name == MmaRowWarpsAttrHelper::getNameStr() &&
        (*v < 1 || *v > 32 || !llvm::isPowerOf2_64(*v)))
      return op->emitError()
             << "'" << name << "' must be a power of two from 1 to 32, got "
             << *v;
    return success();
  }
  if (name == getSpecializationAttrName()) {
    auto dict = dyn_cast<DictionaryAttr>(attr.getValue());
    auto kernel = dict ? dict.getAs<StringAttr>("kernel") : StringAttr();
    auto parameters =
        dict ? dict.getAs<DictionaryAttr>("parameters") : DictionaryAttr();
    if (!isa<FunctionOpInterface>(op) || !kernel || !parameters ||
        !llvm::all_of(parameters, [](NamedAttribute p) {
          return isa<BoolAttr>(p.getValue()) ||
                 (isa<IntegerAttr>(p.getValue()) &&
                  cast<IntegerAttr>(p.getValue()).getType().isInteger(64));
        }))
      return op->emitError()
             << "'" << name
             << "' must be {kernel = \"NAME\", parameters = {NAME = i64 or "
                "bool, ...}} on a function";
    return success();
  }
  if (name == WgmmaAttrHelper::getNameStr() ||
      name == MmaInFlightAttrHelper::getNameStr() ||
      name == WarpSpecializeAttrHelper::getNameStr() ||
      name == KMajorAttrHelper::getNameStr() ||
      name == SplitTf32AttrHelper::getNameStr() ||
      name == RoundTf32AttrHelper::getNameStr()) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a unit attribute";
    return success();
  }
  return op->emitError() << "unknown tile dialect attribute '" << name << "'";
}
