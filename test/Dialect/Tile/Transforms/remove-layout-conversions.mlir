// tile-remove-layout-conversions: a conversion to the same layout
// disappears (not one between tiles without layouts), a chain of
// conversions becomes one (and disappears when it leads back to the
// source's layout), and a conversion of a splat, a range or a splat
// constant is replaced by the same producer in the target layout.
// Conversions of other values stay. The pass works on every function, not
// only kernels.
//
// RUN: tile-opt %s -split-input-file -tile-remove-layout-conversions | FileCheck %s
// Canonicalization applies the same folds and patterns:
// RUN: tile-opt %s -split-input-file -canonicalize | FileCheck %s

#a = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// CHECK-LABEL: func.func @same_layout(
// CHECK-SAME:      %[[X:.*]]: tensor<256xf32, #{{.*}}>)
// CHECK-NEXT:    return %[[X]]
func.func @same_layout(%x: tensor<256xf32, #a>) -> tensor<256xf32, #a> {
  %0 = tile.convert_layout %x : tensor<256xf32, #a> -> tensor<256xf32, #a>
  return %0 : tensor<256xf32, #a>
}

// -----

// Between tiles without layouts a conversion stays: layout assignment lays
// out its operand and result independently.
// CHECK-LABEL: func.func @no_layout(
// CHECK-SAME:      %[[X:.*]]: tensor<256xf32>)
// CHECK-NEXT:    %[[C:.*]] = tile.convert_layout %[[X]]
// CHECK-NEXT:    return %[[C]]
func.func @no_layout(%x: tensor<256xf32>) -> tensor<256xf32> {
  %0 = tile.convert_layout %x : tensor<256xf32> -> tensor<256xf32>
  return %0 : tensor<256xf32>
}

// -----

#a = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#c = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// CHECK-DAG: #[[$A:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$C:.*]] = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @chain(
// CHECK-SAME:      %[[X:.*]]: tensor<256xf32, #[[$A]]>)
// CHECK-NEXT:    %[[C:.*]] = tile.convert_layout %[[X]] : tensor<256xf32, #[[$A]]> -> tensor<256xf32, #[[$C]]>
// CHECK-NEXT:    return %[[C]]
func.func @chain(%x: tensor<256xf32, #a>) -> tensor<256xf32, #c> {
  %0 = tile.convert_layout %x : tensor<256xf32, #a> -> tensor<256xf32, #b>
  %1 = tile.convert_layout %0 : tensor<256xf32, #b> -> tensor<256xf32, #c>
  return %1 : tensor<256xf32, #c>
}

// -----

#a = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#c = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Three conversions back to where they started: nothing left.
// CHECK-LABEL: func.func @round_trip(
// CHECK-SAME:      %[[X:.*]]: tensor<256xf32, #{{.*}}>)
// CHECK-NEXT:    return %[[X]]
func.func @round_trip(%x: tensor<256xf32, #a>) -> tensor<256xf32, #a> {
  %0 = tile.convert_layout %x : tensor<256xf32, #a> -> tensor<256xf32, #b>
  %1 = tile.convert_layout %0 : tensor<256xf32, #b> -> tensor<256xf32, #c>
  %2 = tile.convert_layout %1 : tensor<256xf32, #c> -> tensor<256xf32, #a>
  return %2 : tensor<256xf32, #a>
}

// -----

#a = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#c = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// The inner conversion has another use: it stays for that use, and the
// outer one converts from the source directly.
// CHECK-DAG: #[[$A:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$B:.*]] = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$C:.*]] = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @chain_shared(
// CHECK-SAME:      %[[X:.*]]: tensor<256xf32, #[[$A]]>)
// CHECK-DAG:     %[[B:.*]] = tile.convert_layout %[[X]] : tensor<256xf32, #[[$A]]> -> tensor<256xf32, #[[$B]]>
// CHECK-DAG:     %[[C:.*]] = tile.convert_layout %[[X]] : tensor<256xf32, #[[$A]]> -> tensor<256xf32, #[[$C]]>
// CHECK:         return %[[B]], %[[C]]
func.func @chain_shared(%x: tensor<256xf32, #a>) -> (tensor<256xf32, #b>, tensor<256xf32, #c>) {
  %0 = tile.convert_layout %x : tensor<256xf32, #a> -> tensor<256xf32, #b>
  %1 = tile.convert_layout %0 : tensor<256xf32, #b> -> tensor<256xf32, #c>
  return %0, %1 : tensor<256xf32, #b>, tensor<256xf32, #c>
}

// -----

#a = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// CHECK: #[[$B:.*]] = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @splat(
// CHECK-SAME:      %[[V:.*]]: f32, %[[P:.*]]: !tile.ptr<f32>)
// CHECK-DAG:     %[[S:.*]] = tile.splat %[[V]] : tensor<256xf32, #[[$B]]>
// CHECK-DAG:     %[[PS:.*]] = tile.splat %[[P]] : tensor<256x!tile.ptr<f32>, #[[$B]]>
// CHECK-NOT:     tile.convert_layout
// CHECK:         return %[[S]], %[[PS]]
func.func @splat(%v: f32, %p: !tile.ptr<f32>) -> (tensor<256xf32, #b>, tensor<256x!tile.ptr<f32>, #b>) {
  %s = tile.splat %v : tensor<256xf32, #a>
  %0 = tile.convert_layout %s : tensor<256xf32, #a> -> tensor<256xf32, #b>
  %ps = tile.splat %p : tensor<256x!tile.ptr<f32>, #a>
  %1 = tile.convert_layout %ps : tensor<256x!tile.ptr<f32>, #a> -> tensor<256x!tile.ptr<f32>, #b>
  return %0, %1 : tensor<256xf32, #b>, tensor<256x!tile.ptr<f32>, #b>
}

// -----

#a = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A splat with another use stays for it; the conversion still becomes a
// second splat.
// CHECK-DAG: #[[$A:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$B:.*]] = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @splat_shared(
// CHECK-DAG:     %[[SA:.*]] = tile.splat %{{.*}} : tensor<256xf32, #[[$A]]>
// CHECK-DAG:     %[[SB:.*]] = tile.splat %{{.*}} : tensor<256xf32, #[[$B]]>
// CHECK:         return %[[SA]], %[[SB]]
func.func @splat_shared(%v: f32) -> (tensor<256xf32, #a>, tensor<256xf32, #b>) {
  %s = tile.splat %v : tensor<256xf32, #a>
  %0 = tile.convert_layout %s : tensor<256xf32, #a> -> tensor<256xf32, #b>
  return %s, %0 : tensor<256xf32, #a>, tensor<256xf32, #b>
}

// -----

#b2 = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A range is recomputed in the target layout, here a slice.
// CHECK: #[[$B2:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[$S:.*]] = #tile.slice<{dim = 0, parent = #[[$B2]]}>
// CHECK-LABEL: func.func @range(
// CHECK-NEXT:    %[[R:.*]] = tile.range 16, 48 : tensor<32xi32, #[[$S]]>
// CHECK-NEXT:    return %[[R]]
func.func @range() -> tensor<32xi32, #tile.slice<{dim = 0, parent = #b2}>> {
  %r = tile.range 16, 48 : tensor<32xi32, #a>
  %0 = tile.convert_layout %r : tensor<32xi32, #a> -> tensor<32xi32, #tile.slice<{dim = 0, parent = #b2}>>
  return %0 : tensor<32xi32, #tile.slice<{dim = 0, parent = #b2}>>
}

// -----

#a = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A splat constant folds into a constant of the target type; a constant
// that is not a splat is data and keeps its conversion.
// CHECK-DAG: #[[$A:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$B:.*]] = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @constants(
// CHECK-DAG:     %[[SPLAT:.*]] = arith.constant dense<2.000000e+00> : tensor<256xf32, #[[$B]]>
// CHECK-DAG:     %[[DATA:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32, #[[$A]]>
// CHECK-DAG:     %[[BOOL:.*]] = arith.constant dense<true> : tensor<256xi1, #[[$B]]>
// CHECK:         %[[CONV:.*]] = tile.convert_layout %[[DATA]] : tensor<4xf32, #[[$A]]> -> tensor<4xf32, #[[$B]]>
// CHECK-NOT:     tile.convert_layout
// CHECK:         return %[[SPLAT]], %[[CONV]], %[[BOOL]]
func.func @constants() -> (tensor<256xf32, #b>, tensor<4xf32, #b>, tensor<256xi1, #b>) {
  %k = arith.constant dense<2.0> : tensor<256xf32, #a>
  %0 = tile.convert_layout %k : tensor<256xf32, #a> -> tensor<256xf32, #b>
  %d = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32, #a>
  %1 = tile.convert_layout %d : tensor<4xf32, #a> -> tensor<4xf32, #b>
  %t = arith.constant dense<true> : tensor<256xi1, #a>
  %2 = tile.convert_layout %t : tensor<256xi1, #a> -> tensor<256xi1, #b>
  return %0, %1, %2 : tensor<256xf32, #b>, tensor<4xf32, #b>, tensor<256xi1, #b>
}

// -----

#a = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Loaded data and computed values must move: their conversions stay (and a
// chain ending in one still folds into one).
// CHECK-LABEL: func.func @kernel_data(
// CHECK:         %[[X:.*]] = tile.load
// CHECK:         %[[Y:.*]] = math.exp %[[X]]
// CHECK:         %[[C:.*]] = tile.convert_layout %[[Y]] : tensor<256xf32, #{{.*}}> -> tensor<256xf32, #{{.*}}>
// CHECK-NOT:     tile.convert_layout
// CHECK:         tile.store %{{.*}}, %[[C]]
func.func @kernel_data(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = tile.range 0, 256 : tensor<256xi32, #a>
  %pb = tile.splat %p : tensor<256x!tile.ptr<f32>, #a>
  %pp = tile.addptr %pb, %r : tensor<256x!tile.ptr<f32>, #a>, tensor<256xi32, #a>
  %x = tile.load %pp : tensor<256x!tile.ptr<f32>, #a>
  %y = math.exp %x : tensor<256xf32, #a>
  %z = tile.convert_layout %y : tensor<256xf32, #a> -> tensor<256xf32, #a>
  %w = tile.convert_layout %z : tensor<256xf32, #a> -> tensor<256xf32, #b>
  %r2 = tile.range 0, 256 : tensor<256xi32, #b>
  %qb = tile.splat %q : tensor<256x!tile.ptr<f32>, #b>
  %qp = tile.addptr %qb, %r2 : tensor<256x!tile.ptr<f32>, #b>, tensor<256xi32, #b>
  tile.store %qp, %w : tensor<256x!tile.ptr<f32>, #b>
  return
}
