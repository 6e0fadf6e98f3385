//===- TileAttrs.td - Tile dialect attributes --------------*- tablegen -*-===//

#ifndef TILE_ATTRS_TD
#define TILE_ATTRS_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/AttrTypeBase.td"

def Tile_ReduceKind
    : I32EnumAttr<
          "ReduceKind", "reduction combiner",
          [I32EnumAttrCase<"Max", 0, "max">, I32EnumAttrCase<"Min", 1, "min">,
           I32EnumAttrCase<"Sum", 2, "sum">, I32EnumAttrCase<"Prod", 3, "prod">,
           I32EnumAttrCase<"ArgMax", 4, "argmax">,
           I32EnumAttrCase<"ArgMin", 5, "argmin">,
           I32EnumAttrCase<"Custom", 6, "custom">]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_ReduceKindAttr : EnumAttr<Tile_Dialect, Tile_ReduceKind, "reduce_kind">;

def Tile_AtomicKind
    : I32EnumAttr<
          "AtomicKind", "read-modify-write of tile.atomic_rmw",
          [I32EnumAttrCase<"Add", 0, "add">, I32EnumAttrCase<"Max", 1, "max">,
           I32EnumAttrCase<"Min", 2, "min">, I32EnumAttrCase<"And", 3, "and">,
           I32EnumAttrCase<"Or", 4, "or">, I32EnumAttrCase<"Xor", 5, "xor">,
           I32EnumAttrCase<"Xchg", 6, "xchg">]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_AtomicKindAttr
    : EnumAttr<Tile_Dialect, Tile_AtomicKind, "atomic_kind">;

def Tile_MemorySemantic
    : I32EnumAttr<"MemorySemantic", "ordering of an atomic operation",
                  [I32EnumAttrCase<"Relaxed", 0, "relaxed">,
                   I32EnumAttrCase<"Acquire", 1, "acquire">,
                   I32EnumAttrCase<"Release", 2, "release">,
                   I32EnumAttrCase<"AcqRel", 3, "acq_rel">]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_MemorySemanticAttr
    : EnumAttr<Tile_Dialect, Tile_MemorySemantic, "memory_semantic">;

def Tile_MemoryScope
    : I32EnumAttr<"MemoryScope", "threads an atomic operation orders with",
                  [I32EnumAttrCase<"CTA", 0, "cta">,
                   I32EnumAttrCase<"GPU", 1, "gpu">]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_MemoryScopeAttr
    : EnumAttr<Tile_Dialect, Tile_MemoryScope, "memory_scope">;

def Tile_InputPrecision : I32EnumAttr<"InputPrecision",
    "precision of the products inside tile.dot", [
    I32EnumAttrCase<"IEEE", 0, "ieee">,
    I32EnumAttrCase<"TF32", 1, "tf32">,
    I32EnumAttrCase<"TF32x3", 2, "tf32x3">
  ]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_InputPrecisionAttr : EnumAttr<Tile_Dialect, Tile_InputPrecision,
                                       "input_precision">;

def Tile_PaddingKind : I32EnumAttr<"PaddingKind",
    "value read for out-of-bounds elements of a block load", [
    I32EnumAttrCase<"Zero", 0, "zero">,
    I32EnumAttrCase<"NaN", 1, "nan">,
    I32EnumAttrCase<"NegInf", 2, "neg_inf">
  ]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_PaddingKindAttr : EnumAttr<Tile_Dialect, Tile_PaddingKind, "padding">;

//===----------------------------------------------------------------------===//
// Layout encodings
//===----------------------------------------------------------------------===//

def Tile_BlockedEncodingAttr : AttrDef<Tile_Dialect, "BlockedEncoding"> {
  let mnemonic = "blocked";
  let summary = "Distribution of a tile's elements over threads and warps";
  let description = [{
    Attached as the encoding of a tile's tensor type after layout
    assignment. Along dimension `d` each thread holds `sizePerThread[d]`
    consecutive elements, `threadsPerWarp[d]` lanes of a warp and
    `warpsPerCTA[d]` warps cover consecutive runs of those, and the pattern
    repeats when the tile is larger than the CTA's footprint
    (`sizePerThread * threadsPerWarp * warpsPerCTA`); when it is smaller,
    threads hold copies. `order` lists the dimensions from the fastest
    varying (consecutive lanes) to the slowest. The products of
    `threadsPerWarp` and of `warpsPerCTA` are 32 and the kernel's warp
    count.

    Two optional fields place the warps differently. `warpOrder` numbers
    the warps along its dimensions fastest first (by default as `order`
    does the lanes). Along the dimensions listed in `warpSlices`, warp `i`
    of the `warpsPerCTA[d]` holds the `i`-th of as many contiguous slices
    of the tile, its repetitions within the slice, instead of the warps
    taking turns in every repetition (a tile smaller than the footprint
    there holds copies, as in plain layouts). Hopper's warpgroups split a
    product's columns this way: each warpgroup's wgmma reads one
    contiguous range of `b`.

    ```mlir
    #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16],
                   warpsPerCTA = [4, 1], order = [1, 0]}>
    #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4],
                   warpsPerCTA = [4, 2], order = [1, 0],
                   warpOrder = [0, 1], warpSlices = [1]}>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
      ArrayRefParameter<"unsigned">:$threadsPerWarp,
      ArrayRefParameter<"unsigned">:$warpsPerCTA,
      ArrayRefParameter<"unsigned">:$order,
      OptionalArrayRefParameter<"unsigned">:$warpOrder,
      OptionalArrayRefParameter<"unsigned">:$warpSlices);
  let assemblyFormat = [{
    `<` `{` `sizePerThread` `=` `[` $sizePerThread `]` `,`
            `threadsPerWarp` `=` `[` $threadsPerWarp `]` `,`
            `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
            `order` `=` `[` $order `]`
            `` custom<WarpPlacement>($warpOrder, $warpSlices) `` `}` `>`
  }];
  let builders = [AttrBuilder<(ins "ArrayRef<unsigned>":$sizePerThread,
                                  "ArrayRef<unsigned>":$threadsPerWarp,
                                  "ArrayRef<unsigned>":$warpsPerCTA,
                                  "ArrayRef<unsigned>":$order),
                              [{
      return $_get($_ctxt, sizePerThread, threadsPerWarp, warpsPerCTA, order,
                   ArrayRef<unsigned>(), ArrayRef<unsigned>());
    }]>];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getOrder().size(); }
    unsigned getNumWarps() const;
    /// The dimensions fastest first for the warp id: `warpOrder`, or
    /// `order` when it is absent.
    ArrayRef<unsigned> getWarpOrderOrDefault() const {
      return getWarpOrder().empty() ? getOrder() : getWarpOrder();
    }
    /// Whether warps along `dim` hold contiguous slices (`warpSlices`).
    bool hasWarpSlices(unsigned dim) const {
      return llvm::is_contained(getWarpSlices(), dim);
    }
    /// Whether the warps are placed as plain blocked layouts place them:
    /// numbered in `order`, taking turns in every repetition.
    bool hasDefaultWarpPlacement() const {
      return getWarpSlices().empty() &&
             (getWarpOrder().empty() || getWarpOrder() == getOrder());
    }
  }];
}

def Tile_SliceEncodingAttr : AttrDef<Tile_Dialect, "SliceEncoding"> {
  let mnemonic = "slice";
  let summary = "The layout of a tile reduced along one dimension of another";
  let description = [{
    A tile of rank `r - 1` distributed like `parent` (of rank `r`) with
    dimension `dim` removed: the threads that differ only along `dim` hold
    the same elements. It is the layout of `tile.reduce` results and of
    `tile.expand_dims` operands.

    ```mlir
    #tile.slice<{dim = 1, parent = #blocked}>
    ```
  }];
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
  let assemblyFormat = "`<` `{` `dim` `=` $dim `,` `parent` `=` $parent `}` `>`";
  let genVerifyDecl = 1;
}

#endif // TILE_ATTRS_TD
