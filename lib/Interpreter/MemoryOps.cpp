//===- MemoryOps.cpp - Global and shared memory ops -----------------------===//
//
// Pointers and the ops that access memory through them: pointer
// arithmetic, loads and stores (scalar, tile and block pointers), and the
// shared buffers of a program (tile.alloc_shared, tile.async_copy,
// tile.local_load, tile.local_store). Every access is bounds-checked.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "llvm/ADT/TypeSwitch.h"

#include <limits>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interp;
using namespace mlir::tile::interp::detail;

LogicalResult Executor::execAddPtr(AddPtrOp op) {
  const Tensor &ptr = get(op.getPtr()), &off = get(op.getOffset());
  auto r = make(op.getType());
  int64_t size = dtypeSize(*dtypeOf(
      getPointeeLikeType(getElementTypeOrSelf(op.getPtr().getType()))));
  for (int64_t k = 0, n = r->size(); k < n; ++k) {
    r->p[k] = ptr.p[k];
    r->p[k].advance(iAt(off, k), size);
  }
  set(op.getResult(), r);
  return success();
}

LogicalResult Executor::execLoad(LoadOp op) {
  const Tensor &ptr = get(op.getPtr());
  const Tensor *mask = op.getMask() ? &get(op.getMask()) : nullptr;
  const Tensor *other = op.getOther() ? &get(op.getOther()) : nullptr;
  Type type = op.getType();
  DType dt = *dtypeOf(getElementTypeOrSelf(type));
  int64_t size = dtypeSize(dt);
  auto r = make(type);
  bool isFloatLoad = r->kind == Kind::Float;
  for (int64_t k = 0, n = r->size(); k < n; ++k) {
    if (mask && !(mask->i[k] & 1)) {
      if (isFloatLoad)
        r->f[k] = other ? other->f[k] : 0.0;
      else
        r->i[k] = other ? other->i[k] : 0;
      continue;
    }
    if (failed(checkAccess(op, ptr.p[k], size, "load")))
      return failure();
    if (isFloatLoad)
      r->f[k] = readFast(ptr.p[k], dt);
    else
      r->i[k] = readInt(ptr.p[k], dt);
  }
  set(op.getResult(), r);
  return success();
}

LogicalResult Executor::execStore(StoreOp op) {
  const Tensor &ptr = get(op.getPtr()), &value = get(op.getValue());
  const Tensor *mask = op.getMask() ? &get(op.getMask()) : nullptr;
  DType dt = *dtypeOf(getElementTypeOrSelf(op.getValue().getType()));
  int64_t size = dtypeSize(dt);
  for (int64_t k = 0, n = ptr.size(); k < n; ++k) {
    if (mask && !(mask->i[k] & 1))
      continue;
    if (failed(checkAccess(op, ptr.p[k], size, "store")))
      return failure();
    if (value.kind == Kind::Float)
      writeElem(ptr.p[k], dt, value.f[k]);
    else
      writeInt(ptr.p[k], dt, value.i[k]);
  }
  return success();
}

LogicalResult Executor::execMakeBlockPtr(MakeBlockPtrOp op) {
  auto r = make(op.getType());
  r->block.base = get(op.getBase()).p[0];
  for (Value v : op.getShape())
    r->block.shape.push_back(get(v).i[0]);
  for (Value v : op.getStrides())
    r->block.strides.push_back(get(v).i[0]);
  for (Value v : op.getOffsets())
    r->block.offsets.push_back(get(v).i[0]);
  for (int64_t s : r->block.shape)
    if (s < 0)
      return error(op) << "block pointer shape has a negative extent " << s;
  set(op.getResult(), r);
  return success();
}

LogicalResult Executor::execAdvance(AdvanceOp op) {
  auto r = std::make_shared<Tensor>(get(op.getPtr()));
  for (auto [d, v] : llvm::enumerate(op.getOffsets()))
    if (llvm::AddOverflow(r->block.offsets[d], get(v).i[0],
                          r->block.offsets[d]))
      return error(op) << "block pointer offset along dimension " << d
                       << " overflows 64 bits";
  set(op.getResult(), r);
  return success();
}

/// Visits every element of a block: `fn(linear index, pointer, inBounds)`.
template <typename Fn>
LogicalResult Executor::forEachBlockElement(Operation *op, const BlockPtr &bp,
                                            RankedTensorType blockType,
                                            ArrayRef<int32_t> check, DType dt,
                                            Fn fn) {
  int64_t rank = blockType.getRank();
  SmallVector<bool> checked(rank, false);
  for (int32_t d : check)
    checked[d] = true;
  SmallVector<int64_t> idx(rank, 0);
  int64_t size = dtypeSize(dt);
  for (int64_t k = 0, n = blockType.getNumElements(); k < n; ++k) {
    bool inBounds = true, wrapped = false;
    int64_t elemOffset = 0;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t pos, step;
      wrapped |= llvm::AddOverflow(bp.offsets[d], idx[d], pos);
      if (checked[d] && (wrapped || pos < 0 || pos >= bp.shape[d]))
        inBounds = false;
      wrapped |= llvm::MulOverflow(pos, bp.strides[d], step) ||
                 llvm::AddOverflow(elemOffset, step, elemOffset);
    }
    Ptr ptr = bp.base;
    ptr.advance(elemOffset, size);
    ptr.wrapped |= wrapped;
    if (failed(fn(k, ptr, inBounds)))
      return failure();
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++idx[d] < blockType.getDimSize(d))
        break;
      idx[d] = 0;
    }
  }
  return success();
}

LogicalResult Executor::execBlockLoad(BlockLoadOp op) {
  const BlockPtr &bp = get(op.getPtr()).block;
  RankedTensorType type = op.getType();
  DType dt = *dtypeOf(type.getElementType());
  int64_t size = dtypeSize(dt);
  auto r = make(type);
  double pad = 0;
  if (op.getPadding() == PaddingKind::NaN)
    pad = std::numeric_limits<double>::quiet_NaN();
  else if (op.getPadding() == PaddingKind::NegInf)
    pad = -std::numeric_limits<double>::infinity();
  LogicalResult result = forEachBlockElement(
      op, bp, type, op.getCheck(), dt,
      [&](int64_t k, Ptr ptr, bool inBounds) -> LogicalResult {
        if (inBounds && failed(checkAccess(op, ptr, size, "block load")))
          return failure();
        if (r->kind == Kind::Float)
          r->f[k] = inBounds ? readFast(ptr, dt) : pad;
        else // integer blocks pad with zero (the verifier allows no other)
          r->i[k] = inBounds ? readInt(ptr, dt) : 0;
        return success();
      });
  if (failed(result))
    return failure();
  set(op.getResult(), r);
  return success();
}

LogicalResult Executor::execAllocShared(AllocSharedOp op) {
  auto type = cast<SharedBufferType>(op.getType());
  auto buffer = std::make_shared<Tensor>();
  buffer->kind = kindOf(type.getElementType());
  buffer->shape = {type.getStages(), type.getBlockType().getDimSize(0),
                   type.getBlockType().getDimSize(1)};
  // Shared memory starts undefined: NaN makes a read before any copy
  // visible in float results.
  if (buffer->kind == Kind::Float)
    buffer->f.assign(buffer->size(), std::numeric_limits<double>::quiet_NaN());
  else
    buffer->i.assign(buffer->size(), 0);
  sharedBuffers[op.getBuffer()] = buffer;
  return success();
}

/// The buffer `v` names and the first element of stage `stage`.
FailureOr<std::pair<Tensor *, int64_t>>
Executor::getStage(Operation *op, Value v, Value stage) {
  auto it = sharedBuffers.find(v);
  if (it == sharedBuffers.end())
    return error(op) << "shared buffer is not a tile.alloc_shared result of "
                        "this kernel",
           failure();
  Tensor &buffer = *it->second;
  int64_t s = get(stage).i[0];
  if (s < 0 || s >= buffer.shape[0])
    return error(op) << "stage " << s << " is outside the buffer's "
                     << buffer.shape[0] << " stages",
           failure();
  return std::make_pair(&buffer, s * buffer.shape[1] * buffer.shape[2]);
}

LogicalResult Executor::execAsyncCopy(AsyncCopyOp op) {
  auto stage = getStage(op, op.getBuffer(), op.getStage());
  if (failed(stage))
    return failure();
  // Plain variables: lambdas cannot capture structured bindings in C++17.
  Tensor *buffer = stage->first;
  int64_t first = stage->second;
  const BlockPtr &bp = get(op.getPtr()).block;
  auto type = cast<BlockPointerType>(op.getPtr().getType()).getBlockType();
  DType dt = *dtypeOf(type.getElementType());
  int64_t size = dtypeSize(dt);
  return forEachBlockElement(
      op, bp, type, ArrayRef<int32_t>{0, 1}, dt,
      [&](int64_t k, Ptr ptr, bool inBounds) -> LogicalResult {
        if (inBounds && failed(checkAccess(op, ptr, size, "async copy")))
          return failure();
        if (buffer->kind == Kind::Float)
          buffer->f[first + k] = inBounds ? readFast(ptr, dt) : 0.0;
        else
          buffer->i[first + k] = inBounds ? readInt(ptr, dt) : 0;
        return success();
      });
}

LogicalResult Executor::execLocalLoad(LocalLoadOp op) {
  auto stage = getStage(op, op.getBuffer(), op.getStage());
  if (failed(stage))
    return failure();
  auto [buffer, first] = *stage;
  auto r = make(op.getType());
  for (int64_t k = 0, n = r->size(); k < n; ++k) {
    if (r->kind == Kind::Float)
      r->f[k] = buffer->f[first + k];
    else
      r->i[k] = buffer->i[first + k];
  }
  set(op.getResult(), r);
  return success();
}

LogicalResult Executor::execLocalStore(LocalStoreOp op) {
  auto stage = getStage(op, op.getBuffer(), op.getStage());
  if (failed(stage))
    return failure();
  auto [buffer, first] = *stage;
  const Tensor &value = get(op.getValue());
  for (int64_t k = 0, n = value.size(); k < n; ++k) {
    if (value.kind == Kind::Float)
      buffer->f[first + k] = value.f[k];
    else
      buffer->i[first + k] = value.i[k];
  }
  return success();
}

LogicalResult Executor::execBlockStore(BlockStoreOp op) {
  const BlockPtr &bp = get(op.getPtr()).block;
  const Tensor &value = get(op.getValue());
  auto type = cast<RankedTensorType>(op.getValue().getType());
  DType dt = *dtypeOf(type.getElementType());
  int64_t size = dtypeSize(dt);
  return forEachBlockElement(
      op, bp, type, op.getCheck(), dt,
      [&](int64_t k, Ptr ptr, bool inBounds) -> LogicalResult {
        if (!inBounds)
          return success();
        if (failed(checkAccess(op, ptr, size, "block store")))
          return failure();
        if (value.kind == Kind::Float)
          writeElem(ptr, dt, value.f[k]);
        else
          writeInt(ptr, dt, value.i[k]);
        return success();
      });
}

std::optional<LogicalResult> Executor::execMemoryOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<LogicalResult>>(op)
      .Case([&](AddPtrOp o) { return execAddPtr(o); })
      .Case([&](LoadOp o) { return execLoad(o); })
      .Case([&](StoreOp o) { return execStore(o); })
      .Case([&](MakeBlockPtrOp o) { return execMakeBlockPtr(o); })
      .Case([&](AdvanceOp o) { return execAdvance(o); })
      .Case([&](BlockLoadOp o) { return execBlockLoad(o); })
      .Case([&](BlockStoreOp o) { return execBlockStore(o); })
      .Case([&](AllocSharedOp o) { return execAllocShared(o); })
      .Case([&](AsyncCopyOp o) { return execAsyncCopy(o); })
      .Case([&](LocalLoadOp o) { return execLocalLoad(o); })
      .Case([&](LocalStoreOp o) { return execLocalStore(o); })
      // Copies complete at once here: commits and waits order nothing.
      .Case([&](AsyncCommitOp) { return success(); })
      .Case([&](AsyncWaitOp) { return success(); })
      // A program runs whole here: its warpgroups' turns order nothing.
      .Case([&](WaitTurnOp) { return success(); })
      .Case([&](PassTurnOp) { return success(); })
      .Default([](Operation *) { return std::optional<LogicalResult>(); });
}
