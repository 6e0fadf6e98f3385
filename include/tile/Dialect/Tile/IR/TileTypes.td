//===- TileTypes.td - Tile dialect types -------------------*- tablegen -*-===//

#ifndef TILE_TYPES_TD
#define TILE_TYPES_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Tile_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tile_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Tile_PtrType : Tile_Type<"Pointer", "ptr"> {
  let summary = "Pointer to elements of a scalar type in global memory";
  let description = [{
    `!tile.ptr<f32>` is the address of one `f32` in global memory. Tensors of
    pointers (`tensor<128x!tile.ptr<f32>>`) address a whole tile.
  }];
  let parameters = (ins "::mlir::Type":$pointeeType);
  let assemblyFormat = "`<` $pointeeType `>`";
  let genVerifyDecl = 1;
}

def Tile_BlockPtrType : Tile_Type<"BlockPointer", "block_ptr"> {
  let summary = "Pointer to a rectangular block of a strided N-d array";
  let description = [{
    `!tile.block_ptr<tensor<16x64xf32>>` designates a 16x64 block of a
    strided array of `f32` in global memory, created by `tile.make_block_ptr`
    and moved by `tile.advance`.
  }];
  let parameters = (ins "::mlir::RankedTensorType":$blockType);
  let assemblyFormat = "`<` $blockType `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    ::mlir::Type getElementType() const {
      return getBlockType().getElementType();
    }
  }];
}

def Tile_SharedBufferType : Tile_Type<"SharedBuffer", "shared"> {
  let summary = "Blocks in shared memory, in one or more stages";
  let description = [{
    `!tile.shared<tensor<64x32xf32>, stages = 2, pad = 4>` is shared memory
    for two 64x32 `f32` blocks (the stages of a software pipeline), written
    by `tile.async_copy` and read by `tile.local_load`. A block is stored
    row-major with `pad` elements after each row: the pad that makes a
    reader's accesses free of bank conflicts depends on the reader (a dot's
    B fragments, a tile's layout), so the kernel chooses it. Rows are
    16-byte aligned: `(columns + pad) * element bytes` is a multiple of 16.
  }];
  let parameters = (ins "::mlir::RankedTensorType":$blockType,
                        "int64_t":$stages, "int64_t":$pad);
  let assemblyFormat =
      "`<` $blockType `,` `stages` `=` $stages `,` `pad` `=` $pad `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    ::mlir::Type getElementType() const {
      return getBlockType().getElementType();
    }
    /// Elements from one row to the next, and bytes of one stage.
    int64_t getRowStride() const {
      return getBlockType().getDimSize(1) + getPad();
    }
    int64_t getElementBytes() const {
      return getElementType().getIntOrFloatBitWidth() / 8;
    }
    int64_t getStageBytes() const {
      return getBlockType().getDimSize(0) * getRowStride() * getElementBytes();
    }
  }];
}

def Tile_MBarriersType : Tile_Type<"MBarriers", "mbarriers"> {
  let summary = "Transaction barriers in shared memory, one per stage";
  let description = [{
    `!tile.mbarriers<4, arrivals = 2>` is four Hopper mbarrier objects (8
    bytes each, in shared memory), each completing a phase when `arrivals`
    arrivals have been made and the bytes they announced have landed. A
    `tile.tma_copy` arrives on the barrier of its stage; `tile.mbarrier_wait`
    waits for a phase.
  }];
  let parameters = (ins "int64_t":$count, "int64_t":$arrivals);
  let assemblyFormat = "`<` $count `,` `arrivals` `=` $arrivals `>`";
  let genVerifyDecl = 1;
}

def Tile_TensorMapType : Tile_Type<"TensorMap", "tensormap"> {
  let summary = "A TMA tensor map, passed by value as a kernel parameter";
  let description = [{
    A kernel argument of type `!tile.tensormap` is the 128-byte CUtensorMap
    the runtime encodes at launch for the array its `tile.tma` attribute
    describes (see tile-pipeline-loops); callers never pass it themselves.
  }];
}

// Element types a tile may hold in memory and registers.
def Tile_Float : AnyTypeOf<[F16, BF16, F32, F64]>;
def Tile_Int : AnyTypeOf<[I1, I8, I16, I32, I64]>;
def Tile_Ptr : Type<CPred<"::llvm::isa<::mlir::tile::PointerType>($_self)">,
                    "tile pointer", "::mlir::tile::PointerType">;

def Tile_Tensor : RankedTensorOf<[AnyType]>;
def Tile_IntTensor : RankedTensorOf<[Tile_Int]>;
def Tile_PtrTensor : RankedTensorOf<[Tile_Ptr]>;
def Tile_BoolTensor : RankedTensorOf<[I1]>;

def Tile_PtrLike : AnyTypeOf<[Tile_Ptr, Tile_PtrTensor]>;
def Tile_IntLike : AnyTypeOf<[Tile_Int, Tile_IntTensor]>;
def Tile_Scalar : AnyTypeOf<[Tile_Float, Tile_Int, Tile_Ptr]>;
def Tile_Value : AnyTypeOf<[Tile_Scalar, Tile_Tensor]>;
// Kept as a plain `Type` in C++ so that assembly formats print the type in
// full (`!tile.block_ptr<...>`), which reads better in kernels.
def Tile_BlockPtr : Type<CPred<"::llvm::isa<::mlir::tile::BlockPointerType>($_self)">,
                         "tile block pointer">;
def Tile_SharedBuffer : Type<CPred<"::llvm::isa<::mlir::tile::SharedBufferType>($_self)">,
                             "tile shared buffer">;
def Tile_MBarriers : Type<CPred<"::llvm::isa<::mlir::tile::MBarriersType>($_self)">,
                          "tile mbarriers">;
def Tile_TensorMap : Type<CPred<"::llvm::isa<::mlir::tile::TensorMapType>($_self)">,
                          "tile tensor map", "::mlir::tile::TensorMapType">,
                     BuildableType<"::mlir::tile::TensorMapType::get($_builder.getContext())">;

#endif // TILE_TYPES_TD
