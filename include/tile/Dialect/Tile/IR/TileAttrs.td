//===- TileAttrs.td - Tile dialect attributes --------------*- tablegen -*-===//

#ifndef TILE_ATTRS_TD
#define TILE_ATTRS_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/EnumAttr.td"

def Tile_ReduceKind : I32EnumAttr<"ReduceKind", "reduction combiner", [
    I32EnumAttrCase<"Max", 0, "max">,
    I32EnumAttrCase<"Min", 1, "min">,
    I32EnumAttrCase<"Sum", 2, "sum">
  ]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_ReduceKindAttr : EnumAttr<Tile_Dialect, Tile_ReduceKind, "reduce_kind">;

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

#endif // TILE_ATTRS_TD
