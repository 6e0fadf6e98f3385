// Round-trip of every tile op in each of its syntactic forms: the custom
// form must print back to itself, and the generic form and the bytecode must
// read back to the same custom form.
//
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s -mlir-print-op-generic | tile-opt | FileCheck %s
// RUN: tile-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tile-opt %s -emit-bytecode | tile-opt | FileCheck %s
// RUN: tile-opt %s --verify-roundtrip -o /dev/null

//===----------------------------------------------------------------------===//
// Program indexing
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @program_indexing()
// CHECK-NEXT:    %{{.*}} = tile.program_id 0{{$}}
// CHECK-NEXT:    %{{.*}} = tile.program_id 1{{$}}
// CHECK-NEXT:    %{{.*}} = tile.program_id 2{{$}}
// CHECK-NEXT:    %{{.*}} = tile.num_programs 0{{$}}
// CHECK-NEXT:    %{{.*}} = tile.num_programs 1{{$}}
// CHECK-NEXT:    %{{.*}} = tile.num_programs 2{{$}}
// GENERIC-LABEL: sym_name = "program_indexing"
// GENERIC:         "tile.program_id"() <{axis = 0 : i32}> : () -> i32
// GENERIC:         "tile.num_programs"() <{axis = 2 : i32}> : () -> i32
func.func @program_indexing() -> (i32, i32, i32, i32, i32, i32) {
  %0 = tile.program_id 0
  %1 = tile.program_id 1
  %2 = tile.program_id 2
  %3 = tile.num_programs 0
  %4 = tile.num_programs 1
  %5 = tile.num_programs 2
  return %0, %1, %2, %3, %4, %5 : i32, i32, i32, i32, i32, i32
}

// CHECK-LABEL: func.func @range()
// CHECK-NEXT:    %{{.*}} = tile.range 0, 128 : tensor<128xi32>
// CHECK-NEXT:    %{{.*}} = tile.range 64, 96 : tensor<32xi32>
// CHECK-NEXT:    %{{.*}} = tile.range 5, 6 : tensor<1xi32>
// GENERIC-LABEL: sym_name = "range"
// GENERIC:         "tile.range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32>
func.func @range() -> (tensor<128xi32>, tensor<32xi32>, tensor<1xi32>) {
  %0 = tile.range 0, 128 : tensor<128xi32>
  %1 = tile.range 64, 96 : tensor<32xi32>
  %2 = tile.range 5, 6 : tensor<1xi32>
  return %0, %1, %2 : tensor<128xi32>, tensor<32xi32>, tensor<1xi32>
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @splat(
// CHECK-SAME:    %[[F:[a-z0-9]+]]: f32, %[[I:[a-z0-9]+]]: i32, %[[B:[a-z0-9]+]]: i1,
// CHECK-SAME:    %[[H:[a-z0-9]+]]: f16, %[[BF:[a-z0-9]+]]: bf16, %[[D:[a-z0-9]+]]: f64,
// CHECK-SAME:    %[[I8:[a-z0-9]+]]: i8, %[[L:[a-z0-9]+]]: i64, %[[P:[a-z0-9]+]]: !tile.ptr<f32>)
// CHECK-NEXT:    tile.splat %[[F]] : tensor<64x128xf32>
// CHECK-NEXT:    tile.splat %[[I]] : tensor<128xi32>
// CHECK-NEXT:    tile.splat %[[B]] : tensor<4x8xi1>
// CHECK-NEXT:    tile.splat %[[H]] : tensor<16xf16>
// CHECK-NEXT:    tile.splat %[[BF]] : tensor<16xbf16>
// CHECK-NEXT:    tile.splat %[[D]] : tensor<2x2x2xf64>
// CHECK-NEXT:    tile.splat %[[I8]] : tensor<32xi8>
// CHECK-NEXT:    tile.splat %[[L]] : tensor<1xi64>
// CHECK-NEXT:    tile.splat %[[P]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.splat %[[F]] : tensor<f32>
// GENERIC-LABEL: sym_name = "splat"
// GENERIC:         "tile.splat"(%{{.*}}) : (f32) -> tensor<64x128xf32>
// GENERIC:         "tile.splat"(%{{.*}}) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
func.func @splat(%f: f32, %i: i32, %b: i1, %h: f16, %bf: bf16, %d: f64,
                 %i8: i8, %l: i64, %p: !tile.ptr<f32>) {
  %0 = tile.splat %f : tensor<64x128xf32>
  %1 = tile.splat %i : tensor<128xi32>
  %2 = tile.splat %b : tensor<4x8xi1>
  %3 = tile.splat %h : tensor<16xf16>
  %4 = tile.splat %bf : tensor<16xbf16>
  %5 = tile.splat %d : tensor<2x2x2xf64>
  %6 = tile.splat %i8 : tensor<32xi8>
  %7 = tile.splat %l : tensor<1xi64>
  %8 = tile.splat %p : tensor<128x!tile.ptr<f32>>
  %9 = tile.splat %f : tensor<f32>
  return
}

// CHECK-LABEL: func.func @broadcast(
// CHECK-SAME:    %[[ROW:[a-z0-9]+]]: tensor<1x128xf32>, %[[COL:[a-z0-9]+]]: tensor<64x1xi32>, %[[ONE:[a-z0-9]+]]: tensor<1x1x!tile.ptr<f16>>
// CHECK-NEXT:    tile.broadcast %[[ROW]] : tensor<1x128xf32> -> tensor<64x128xf32>
// CHECK-NEXT:    tile.broadcast %[[COL]] : tensor<64x1xi32> -> tensor<64x128xi32>
// CHECK-NEXT:    tile.broadcast %[[ONE]] : tensor<1x1x!tile.ptr<f16>> -> tensor<2x4x!tile.ptr<f16>>
// CHECK-NEXT:    tile.broadcast %[[ROW]] : tensor<1x128xf32> -> tensor<1x128xf32>
func.func @broadcast(%row: tensor<1x128xf32>, %col: tensor<64x1xi32>,
                     %one: tensor<1x1x!tile.ptr<f16>>) {
  %0 = tile.broadcast %row : tensor<1x128xf32> -> tensor<64x128xf32>
  %1 = tile.broadcast %col : tensor<64x1xi32> -> tensor<64x128xi32>
  %2 = tile.broadcast %one : tensor<1x1x!tile.ptr<f16>> -> tensor<2x4x!tile.ptr<f16>>
  %3 = tile.broadcast %row : tensor<1x128xf32> -> tensor<1x128xf32>
  return
}

// CHECK-LABEL: func.func @expand_dims(
// CHECK-SAME:    %[[V:[a-z0-9]+]]: tensor<64xf32>, %[[M:[a-z0-9]+]]: tensor<4x8xi1>
// CHECK-NEXT:    tile.expand_dims %[[V]] axis = 0 : tensor<64xf32> -> tensor<1x64xf32>
// CHECK-NEXT:    tile.expand_dims %[[V]] axis = 1 : tensor<64xf32> -> tensor<64x1xf32>
// CHECK-NEXT:    tile.expand_dims %[[M]] axis = 1 : tensor<4x8xi1> -> tensor<4x1x8xi1>
// CHECK-NEXT:    tile.expand_dims %[[M]] axis = 2 : tensor<4x8xi1> -> tensor<4x8x1xi1>
// GENERIC-LABEL: sym_name = "expand_dims"
// GENERIC:         "tile.expand_dims"(%{{.*}}) <{axis = 0 : i32}> : (tensor<64xf32>) -> tensor<1x64xf32>
func.func @expand_dims(%v: tensor<64xf32>, %m: tensor<4x8xi1>) {
  %0 = tile.expand_dims %v axis = 0 : tensor<64xf32> -> tensor<1x64xf32>
  %1 = tile.expand_dims %v axis = 1 : tensor<64xf32> -> tensor<64x1xf32>
  %2 = tile.expand_dims %m axis = 1 : tensor<4x8xi1> -> tensor<4x1x8xi1>
  %3 = tile.expand_dims %m axis = 2 : tensor<4x8xi1> -> tensor<4x8x1xi1>
  return
}

// CHECK-LABEL: func.func @reshape(
// CHECK-SAME:    %[[T:[a-z0-9]+]]: tensor<4x32xf32>, %[[P:[a-z0-9]+]]: tensor<128x!tile.ptr<i8>>
// CHECK-NEXT:    tile.reshape %[[T]] : tensor<4x32xf32> -> tensor<128xf32>
// CHECK-NEXT:    tile.reshape %[[T]] : tensor<4x32xf32> -> tensor<2x4x16xf32>
// CHECK-NEXT:    tile.reshape %[[P]] : tensor<128x!tile.ptr<i8>> -> tensor<8x16x!tile.ptr<i8>>
// CHECK-NEXT:    tile.reshape %[[T]] : tensor<4x32xf32> -> tensor<4x32xf32>
func.func @reshape(%t: tensor<4x32xf32>, %p: tensor<128x!tile.ptr<i8>>) {
  %0 = tile.reshape %t : tensor<4x32xf32> -> tensor<128xf32>
  %1 = tile.reshape %t : tensor<4x32xf32> -> tensor<2x4x16xf32>
  %2 = tile.reshape %p : tensor<128x!tile.ptr<i8>> -> tensor<8x16x!tile.ptr<i8>>
  %3 = tile.reshape %t : tensor<4x32xf32> -> tensor<4x32xf32>
  return
}

// CHECK-LABEL: func.func @trans(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<16x32xf32>, %[[Y:[a-z0-9]+]]: tensor<2x4x8xi32>
// CHECK-NEXT:    tile.trans %[[X]] order = [1, 0] : tensor<16x32xf32> -> tensor<32x16xf32>
// CHECK-NEXT:    tile.trans %[[X]] order = [0, 1] : tensor<16x32xf32> -> tensor<16x32xf32>
// CHECK-NEXT:    tile.trans %[[Y]] order = [2, 0, 1] : tensor<2x4x8xi32> -> tensor<8x2x4xi32>
// GENERIC-LABEL: sym_name = "trans"
// GENERIC:         "tile.trans"(%{{.*}}) <{order = array<i32: 1, 0>}> : (tensor<16x32xf32>) -> tensor<32x16xf32>
func.func @trans(%x: tensor<16x32xf32>, %y: tensor<2x4x8xi32>) {
  %0 = tile.trans %x order = [1, 0] : tensor<16x32xf32> -> tensor<32x16xf32>
  %1 = tile.trans %x order = [0, 1] : tensor<16x32xf32> -> tensor<16x32xf32>
  %2 = tile.trans %y order = [2, 0, 1] : tensor<2x4x8xi32> -> tensor<8x2x4xi32>
  return
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @addptr(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: !tile.ptr<f32>, %[[I:[a-z0-9]+]]: i32, %[[L:[a-z0-9]+]]: i64,
// CHECK-SAME:    %[[PS:[a-z0-9]+]]: tensor<128x!tile.ptr<f32>>, %[[OS:[a-z0-9]+]]: tensor<128xi32>, %[[OL:[a-z0-9]+]]: tensor<128xi64>,
// CHECK-SAME:    %[[P2:[a-z0-9]+]]: tensor<4x8x!tile.ptr<bf16>>, %[[O2:[a-z0-9]+]]: tensor<4x8xi16>)
// CHECK-NEXT:    tile.addptr %[[P]], %[[I]] : !tile.ptr<f32>, i32
// CHECK-NEXT:    tile.addptr %[[P]], %[[L]] : !tile.ptr<f32>, i64
// CHECK-NEXT:    tile.addptr %[[PS]], %[[OS]] : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
// CHECK-NEXT:    tile.addptr %[[PS]], %[[OL]] : tensor<128x!tile.ptr<f32>>, tensor<128xi64>
// CHECK-NEXT:    tile.addptr %[[P2]], %[[O2]] : tensor<4x8x!tile.ptr<bf16>>, tensor<4x8xi16>
// GENERIC-LABEL: sym_name = "addptr"
// GENERIC:         "tile.addptr"(%{{.*}}, %{{.*}}) : (!tile.ptr<f32>, i32) -> !tile.ptr<f32>
func.func @addptr(%p: !tile.ptr<f32>, %i: i32, %l: i64,
                  %ps: tensor<128x!tile.ptr<f32>>, %os: tensor<128xi32>,
                  %ol: tensor<128xi64>, %p2: tensor<4x8x!tile.ptr<bf16>>,
                  %o2: tensor<4x8xi16>) {
  %0 = tile.addptr %p, %i : !tile.ptr<f32>, i32
  %1 = tile.addptr %p, %l : !tile.ptr<f32>, i64
  %2 = tile.addptr %ps, %os : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %3 = tile.addptr %ps, %ol : tensor<128x!tile.ptr<f32>>, tensor<128xi64>
  %4 = tile.addptr %p2, %o2 : tensor<4x8x!tile.ptr<bf16>>, tensor<4x8xi16>
  return
}

// CHECK-LABEL: func.func @load(
// CHECK-SAME:    %[[PS:[a-z0-9]+]]: tensor<128x!tile.ptr<f32>>, %[[M:[a-z0-9]+]]: tensor<128xi1>, %[[O:[a-z0-9]+]]: tensor<128xf32>,
// CHECK-SAME:    %[[P:[a-z0-9]+]]: !tile.ptr<i64>, %[[B:[a-z0-9]+]]: i1, %[[S:[a-z0-9]+]]: i64,
// CHECK-SAME:    %[[P2:[a-z0-9]+]]: tensor<4x8x!tile.ptr<f16>>, %[[M2:[a-z0-9]+]]: tensor<4x8xi1>
// CHECK-NEXT:    tile.load %[[PS]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.load %[[PS]], %[[M]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.load %[[PS]], %[[M]], %[[O]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.load %[[P]] : !tile.ptr<i64>
// CHECK-NEXT:    tile.load %[[P]], %[[B]] : !tile.ptr<i64>
// CHECK-NEXT:    tile.load %[[P]], %[[B]], %[[S]] : !tile.ptr<i64>
// CHECK-NEXT:    tile.load %[[P2]], %[[M2]] {cache = "ca"} : tensor<4x8x!tile.ptr<f16>>
// GENERIC-LABEL: sym_name = "load"
// GENERIC:         "tile.load"(%{{.*}}) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>
// GENERIC:         "tile.load"(%{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>
// GENERIC:         "tile.load"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
func.func @load(%ps: tensor<128x!tile.ptr<f32>>, %m: tensor<128xi1>,
                %o: tensor<128xf32>, %p: !tile.ptr<i64>, %b: i1, %s: i64,
                %p2: tensor<4x8x!tile.ptr<f16>>, %m2: tensor<4x8xi1>)
    -> (tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, i64, i64, i64,
        tensor<4x8xf16>) {
  %0 = tile.load %ps : tensor<128x!tile.ptr<f32>>
  %1 = tile.load %ps, %m : tensor<128x!tile.ptr<f32>>
  %2 = tile.load %ps, %m, %o : tensor<128x!tile.ptr<f32>>
  %3 = tile.load %p : !tile.ptr<i64>
  %4 = tile.load %p, %b : !tile.ptr<i64>
  %5 = tile.load %p, %b, %s : !tile.ptr<i64>
  %6 = tile.load %p2, %m2 {cache = "ca"} : tensor<4x8x!tile.ptr<f16>>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<128xf32>, tensor<128xf32>,
      tensor<128xf32>, i64, i64, i64, tensor<4x8xf16>
}

// CHECK-LABEL: func.func @store(
// CHECK-SAME:    %[[PS:[a-z0-9]+]]: tensor<128x!tile.ptr<f32>>, %[[V:[a-z0-9]+]]: tensor<128xf32>, %[[M:[a-z0-9]+]]: tensor<128xi1>,
// CHECK-SAME:    %[[P:[a-z0-9]+]]: !tile.ptr<i1>, %[[S:[a-z0-9]+]]: i1, %[[B:[a-z0-9]+]]: i1)
// CHECK-NEXT:    tile.store %[[PS]], %[[V]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.store %[[PS]], %[[V]], %[[M]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.store %[[P]], %[[S]] : !tile.ptr<i1>
// CHECK-NEXT:    tile.store %[[P]], %[[S]], %[[B]] : !tile.ptr<i1>
// GENERIC-LABEL: sym_name = "store"
// GENERIC:         "tile.store"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
func.func @store(%ps: tensor<128x!tile.ptr<f32>>, %v: tensor<128xf32>,
                 %m: tensor<128xi1>, %p: !tile.ptr<i1>, %s: i1, %b: i1) {
  tile.store %ps, %v : tensor<128x!tile.ptr<f32>>
  tile.store %ps, %v, %m : tensor<128x!tile.ptr<f32>>
  tile.store %p, %s : !tile.ptr<i1>
  tile.store %p, %s, %b : !tile.ptr<i1>
  return
}

// CHECK-LABEL: func.func @block_pointers(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: !tile.ptr<f32>, %[[R:[a-z0-9]+]]: i64, %[[C:[a-z0-9]+]]: i64,
// CHECK-SAME:    %[[S0:[a-z0-9]+]]: i64, %[[S1:[a-z0-9]+]]: i64, %[[O0:[a-z0-9]+]]: i32, %[[O1:[a-z0-9]+]]: i32,
// CHECK-SAME:    %[[Q:[a-z0-9]+]]: !tile.ptr<i8>, %[[ACC:[a-z0-9]+]]: tensor<16x64xf32>)
// CHECK-NEXT:    %[[BP:.*]] = tile.make_block_ptr %[[P]], [%[[R]], %[[C]]], [%[[S0]], %[[S1]]], [%[[O0]], %[[O1]]] order = [1, 0] : !tile.block_ptr<tensor<16x64xf32>>
// CHECK-NEXT:    %[[BP1:.*]] = tile.make_block_ptr %[[Q]], [%[[R]]], [%[[S1]]], [%[[O0]]] order = [0] : !tile.block_ptr<tensor<128xi8>>
// CHECK-NEXT:    %[[BP3:.*]] = tile.make_block_ptr %[[P]], [%[[R]], %[[R]], %[[C]]], [%[[S0]], %[[S1]], %[[S1]]], [%[[O0]], %[[O0]], %[[O1]]] order = [2, 0, 1] : !tile.block_ptr<tensor<2x4x8xf32>>
// CHECK-NEXT:    tile.advance %[[BP]], [%[[O0]], %[[O1]]] : !tile.block_ptr<tensor<16x64xf32>>
// CHECK-NEXT:    tile.advance %[[BP1]], [%[[O1]]] : !tile.block_ptr<tensor<128xi8>>
// CHECK-NEXT:    tile.block_load %[[BP]] : !tile.block_ptr<tensor<16x64xf32>>
// CHECK-NEXT:    tile.block_load %[[BP]] check = [0, 1] : !tile.block_ptr<tensor<16x64xf32>>
// CHECK-NEXT:    tile.block_load %[[BP]] padding = nan : !tile.block_ptr<tensor<16x64xf32>>
// CHECK-NEXT:    tile.block_load %[[BP]] check = [1] padding = neg_inf : !tile.block_ptr<tensor<16x64xf32>>
// The defaults are elided.
// CHECK-NEXT:    tile.block_load %[[BP]] : !tile.block_ptr<tensor<16x64xf32>>
// CHECK-NEXT:    tile.block_load %[[BP1]] check = [0] : !tile.block_ptr<tensor<128xi8>>
// CHECK-NEXT:    tile.block_load %[[BP3]] check = [2, 0] : !tile.block_ptr<tensor<2x4x8xf32>>
// CHECK-NEXT:    tile.block_store %[[BP]], %[[ACC]] : !tile.block_ptr<tensor<16x64xf32>>
// CHECK-NEXT:    tile.block_store %[[BP]], %[[ACC]] check = [0, 1] : !tile.block_ptr<tensor<16x64xf32>>
// CHECK-NEXT:    tile.block_store %[[BP]], %[[ACC]] : !tile.block_ptr<tensor<16x64xf32>>
// GENERIC-LABEL: sym_name = "block_pointers"
// GENERIC:         "tile.make_block_ptr"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 2, 2, 2>, order = array<i32: 1, 0>}> : (!tile.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tile.block_ptr<tensor<16x64xf32>>
// GENERIC:         "tile.advance"(%{{.*}}, %{{.*}}, %{{.*}}) : (!tile.block_ptr<tensor<16x64xf32>>, i32, i32) -> !tile.block_ptr<tensor<16x64xf32>>
// GENERIC:         "tile.block_load"(%{{.*}}) <{check = array<i32: 1>, padding = #tile<padding neg_inf>}> : (!tile.block_ptr<tensor<16x64xf32>>) -> tensor<16x64xf32>
// GENERIC:         "tile.block_store"(%{{.*}}, %{{.*}}) <{check = array<i32: 0, 1>}> : (!tile.block_ptr<tensor<16x64xf32>>, tensor<16x64xf32>) -> ()
func.func @block_pointers(%p: !tile.ptr<f32>, %rows: i64, %cols: i64,
                          %s0: i64, %s1: i64, %o0: i32, %o1: i32,
                          %q: !tile.ptr<i8>, %acc: tensor<16x64xf32>) {
  %bp = tile.make_block_ptr %p, [%rows, %cols], [%s0, %s1], [%o0, %o1]
      order = [1, 0] : !tile.block_ptr<tensor<16x64xf32>>
  %bp1 = tile.make_block_ptr %q, [%rows], [%s1], [%o0] order = [0]
      : !tile.block_ptr<tensor<128xi8>>
  %bp3 = tile.make_block_ptr %p, [%rows, %rows, %cols], [%s0, %s1, %s1],
      [%o0, %o0, %o1] order = [2, 0, 1] : !tile.block_ptr<tensor<2x4x8xf32>>
  %next = tile.advance %bp, [%o0, %o1] : !tile.block_ptr<tensor<16x64xf32>>
  %next1 = tile.advance %bp1, [%o1] : !tile.block_ptr<tensor<128xi8>>
  %0 = tile.block_load %bp : !tile.block_ptr<tensor<16x64xf32>>
  %1 = tile.block_load %bp check = [0, 1] : !tile.block_ptr<tensor<16x64xf32>>
  %2 = tile.block_load %bp padding = nan : !tile.block_ptr<tensor<16x64xf32>>
  %3 = tile.block_load %bp check = [1] padding = neg_inf
      : !tile.block_ptr<tensor<16x64xf32>>
  %4 = tile.block_load %bp check = [] padding = zero
      : !tile.block_ptr<tensor<16x64xf32>>
  %5 = tile.block_load %bp1 check = [0] : !tile.block_ptr<tensor<128xi8>>
  %6 = tile.block_load %bp3 check = [2, 0] : !tile.block_ptr<tensor<2x4x8xf32>>
  tile.block_store %bp, %acc : !tile.block_ptr<tensor<16x64xf32>>
  tile.block_store %bp, %acc check = [0, 1] : !tile.block_ptr<tensor<16x64xf32>>
  tile.block_store %bp, %acc check = [] : !tile.block_ptr<tensor<16x64xf32>>
  return
}

// A rank-0 block is a single element.
// CHECK-LABEL: func.func @block_pointer_rank0(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: !tile.ptr<f64>)
// CHECK-NEXT:    %[[BP:.*]] = tile.make_block_ptr %[[P]], [], [], [] order = [] : !tile.block_ptr<tensor<f64>>
// CHECK-NEXT:    tile.advance %[[BP]], [] : !tile.block_ptr<tensor<f64>>
// CHECK-NEXT:    tile.block_load %[[BP]] : !tile.block_ptr<tensor<f64>>
func.func @block_pointer_rank0(%p: !tile.ptr<f64>) -> tensor<f64> {
  %bp = tile.make_block_ptr %p, [], [], [] order = [] : !tile.block_ptr<tensor<f64>>
  %next = tile.advance %bp, [] : !tile.block_ptr<tensor<f64>>
  %x = tile.block_load %bp : !tile.block_ptr<tensor<f64>>
  return %x : tensor<f64>
}

//===----------------------------------------------------------------------===//
// Computation
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reduce(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<64x128xf32>, %[[V:[a-z0-9]+]]: tensor<128xf32>, %[[I:[a-z0-9]+]]: tensor<2x4x8xi32>
// CHECK-NEXT:    tile.reduce max %[[X]] axis = 1 : tensor<64x128xf32> -> tensor<64xf32>
// CHECK-NEXT:    tile.reduce min %[[X]] axis = 0 : tensor<64x128xf32> -> tensor<128xf32>
// CHECK-NEXT:    tile.reduce sum %[[V]] axis = 0 : tensor<128xf32> -> f32
// CHECK-NEXT:    tile.reduce sum %[[I]] axis = 1 : tensor<2x4x8xi32> -> tensor<2x8xi32>
// CHECK-NEXT:    tile.reduce max %[[I]] axis = 2 : tensor<2x4x8xi32> -> tensor<2x4xi32>
// CHECK-NEXT:    tile.reduce prod %[[X]] axis = 1 : tensor<64x128xf32> -> tensor<64xf32>
// CHECK-NEXT:    tile.reduce argmax %[[X]] axis = 1 : tensor<64x128xf32> -> tensor<64xi32>
// CHECK-NEXT:    tile.reduce argmin %[[V]] axis = 0 : tensor<128xf32> -> i32
// GENERIC-LABEL: sym_name = "reduce"
// GENERIC:         "tile.reduce"(%{{.*}}) <{axis = 1 : i32, kind = #tile<reduce_kind max>}> ({
// GENERIC-NEXT:    }) : (tensor<64x128xf32>) -> tensor<64xf32>
func.func @reduce(%x: tensor<64x128xf32>, %v: tensor<128xf32>,
                  %i: tensor<2x4x8xi32>) {
  %0 = tile.reduce max %x axis = 1 : tensor<64x128xf32> -> tensor<64xf32>
  %1 = tile.reduce min %x axis = 0 : tensor<64x128xf32> -> tensor<128xf32>
  %2 = tile.reduce sum %v axis = 0 : tensor<128xf32> -> f32
  %3 = tile.reduce sum %i axis = 1 : tensor<2x4x8xi32> -> tensor<2x8xi32>
  %4 = tile.reduce max %i axis = 2 : tensor<2x4x8xi32> -> tensor<2x4xi32>
  %5 = tile.reduce prod %x axis = 1 : tensor<64x128xf32> -> tensor<64xf32>
  %6 = tile.reduce argmax %x axis = 1 : tensor<64x128xf32> -> tensor<64xi32>
  %7 = tile.reduce argmin %v axis = 0 : tensor<128xf32> -> i32
  return
}

// CHECK-LABEL: func.func @reduce_custom(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<64x128xf32>
// CHECK-NEXT:    tile.reduce custom %[[X]] axis = 1 : tensor<64x128xf32> -> tensor<64xf32> {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT:      %[[AA:.*]] = math.absf %[[A]] : f32
// CHECK-NEXT:      %[[BA:.*]] = math.absf %[[B]] : f32
// CHECK-NEXT:      %[[M:.*]] = arith.maximumf %[[AA]], %[[BA]] : f32
// CHECK-NEXT:      tile.yield %[[M]] : f32
// CHECK-NEXT:    }
// GENERIC-LABEL: sym_name = "reduce_custom"
// GENERIC:         "tile.reduce"(%{{.*}}) <{axis = 1 : i32, kind = #tile<reduce_kind custom>}> ({
// GENERIC:           "tile.yield"(%{{.*}}) : (f32) -> ()
func.func @reduce_custom(%x: tensor<64x128xf32>) {
  %0 = tile.reduce custom %x axis = 1 : tensor<64x128xf32> -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %aa = math.absf %a : f32
    %ba = math.absf %b : f32
    %m = arith.maximumf %aa, %ba : f32
    tile.yield %m : f32
  }
  return
}

// A read-only argument that is only read.
// CHECK-LABEL: func.func @readonly_input(
// CHECK-SAME:    %{{.*}}: !tile.ptr<f32> {tile.readonly}
func.func @readonly_input(%x: !tile.ptr<f32> {tile.readonly}, %y: !tile.ptr<f32>) attributes {tile.kernel} {
  %v = tile.load %x : !tile.ptr<f32>
  tile.store %y, %v : !tile.ptr<f32>
  return
}

// CHECK-LABEL: func.func @atomics(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: tensor<128x!tile.ptr<f32>>, %[[V:[a-z0-9]+]]: tensor<128xf32>, %[[M:[a-z0-9]+]]: tensor<128xi1>, %[[Q:[a-z0-9]+]]: !tile.ptr<i32>, %[[I:[a-z0-9]+]]: i32
// CHECK-NEXT:    tile.atomic_rmw add %[[P]], %[[V]], %[[M]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.atomic_rmw max %[[Q]], %[[I]] sem = relaxed scope = cta : !tile.ptr<i32>
// CHECK-NEXT:    tile.atomic_rmw xchg %[[P]], %[[V]] sem = release : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.atomic_cas %[[Q]], %[[I]], %[[I]] sem = acquire : !tile.ptr<i32>
// GENERIC-LABEL: sym_name = "atomics"
// GENERIC:         "tile.atomic_rmw"(%{{.*}}, %{{.*}}, %{{.*}}) <{kind = #tile<atomic_kind add>, scope = #tile<memory_scope gpu>, sem = #tile<memory_semantic acq_rel>}>
func.func @atomics(%p: tensor<128x!tile.ptr<f32>>, %v: tensor<128xf32>,
                   %m: tensor<128xi1>, %q: !tile.ptr<i32>, %i: i32) {
  %0 = tile.atomic_rmw add %p, %v, %m : tensor<128x!tile.ptr<f32>>
  %1 = tile.atomic_rmw max %q, %i sem = relaxed scope = cta : !tile.ptr<i32>
  %2 = tile.atomic_rmw xchg %p, %v sem = release : tensor<128x!tile.ptr<f32>>
  %3 = tile.atomic_cas %q, %i, %i sem = acquire : !tile.ptr<i32>
  return
}

// CHECK-LABEL: func.func @scan(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<64x128xf32>, %[[I:[a-z0-9]+]]: tensor<128xi32>
// CHECK-NEXT:    tile.scan sum %[[X]] axis = 1 : tensor<64x128xf32>
// CHECK-NEXT:    tile.scan prod %[[X]] axis = 0 reverse : tensor<64x128xf32>
// CHECK-NEXT:    tile.scan max %[[I]] axis = 0 : tensor<128xi32>
// CHECK-NEXT:    tile.scan min %[[X]] axis = 1 reverse : tensor<64x128xf32>
// CHECK-NEXT:    tile.scan custom %[[I]] axis = 0 : tensor<128xi32> {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32):
// CHECK-NEXT:      %[[C:.*]] = arith.constant 255 : i32
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[A]], %[[B]] : i32
// CHECK-NEXT:      %[[M:.*]] = arith.andi %[[S]], %[[C]] : i32
// CHECK-NEXT:      tile.yield %[[M]] : i32
// CHECK-NEXT:    }
// GENERIC-LABEL: sym_name = "scan"
// GENERIC:         "tile.scan"(%{{.*}}) <{axis = 1 : i32, kind = #tile<reduce_kind sum>}> ({
// GENERIC:         "tile.scan"(%{{.*}}) <{axis = 0 : i32, kind = #tile<reduce_kind prod>, reverse}> ({
func.func @scan(%x: tensor<64x128xf32>, %i: tensor<128xi32>) {
  %0 = tile.scan sum %x axis = 1 : tensor<64x128xf32>
  %1 = tile.scan prod %x axis = 0 reverse : tensor<64x128xf32>
  %2 = tile.scan max %i axis = 0 : tensor<128xi32>
  %3 = tile.scan min %x axis = 1 reverse : tensor<64x128xf32>
  %4 = tile.scan custom %i axis = 0 : tensor<128xi32> {
  ^bb0(%a: i32, %b: i32):
    %c255 = arith.constant 255 : i32
    %s = arith.addi %a, %b : i32
    %m = arith.andi %s, %c255 : i32
    tile.yield %m : i32
  }
  return
}

// CHECK-LABEL: func.func @dot(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<64x32xf32>, %[[B:[a-z0-9]+]]: tensor<32x128xf32>, %[[C:[a-z0-9]+]]: tensor<64x128xf32>,
// CHECK-SAME:    %[[AH:[a-z0-9]+]]: tensor<16x16xf16>, %[[CH:[a-z0-9]+]]: tensor<16x16xf16>, %[[CF:[a-z0-9]+]]: tensor<16x16xf32>, %[[ABF:[a-z0-9]+]]: tensor<16x16xbf16>)
// CHECK-NEXT:    tile.dot %[[A]], %[[B]], %[[C]] : tensor<64x32xf32>, tensor<32x128xf32> -> tensor<64x128xf32>
// The default precision is elided.
// CHECK-NEXT:    tile.dot %[[A]], %[[B]], %[[C]] : tensor<64x32xf32>, tensor<32x128xf32> -> tensor<64x128xf32>
// CHECK-NEXT:    tile.dot %[[A]], %[[B]], %[[C]] precision = tf32 : tensor<64x32xf32>, tensor<32x128xf32> -> tensor<64x128xf32>
// CHECK-NEXT:    tile.dot %[[A]], %[[B]], %[[C]] precision = tf32x3 : tensor<64x32xf32>, tensor<32x128xf32> -> tensor<64x128xf32>
// CHECK-NEXT:    tile.dot %[[AH]], %[[AH]], %[[CH]] : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf16>
// CHECK-NEXT:    tile.dot %[[AH]], %[[AH]], %[[CF]] : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
// CHECK-NEXT:    tile.dot %[[ABF]], %[[ABF]], %[[CF]] : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
// GENERIC-LABEL: sym_name = "dot"
// GENERIC:         "tile.dot"(%{{.*}}, %{{.*}}, %{{.*}}) <{precision = #tile<input_precision tf32x3>}> : (tensor<64x32xf32>, tensor<32x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
func.func @dot(%a: tensor<64x32xf32>, %b: tensor<32x128xf32>,
               %c: tensor<64x128xf32>, %ah: tensor<16x16xf16>,
               %ch: tensor<16x16xf16>, %cf: tensor<16x16xf32>,
               %abf: tensor<16x16xbf16>) {
  %0 = tile.dot %a, %b, %c : tensor<64x32xf32>, tensor<32x128xf32> -> tensor<64x128xf32>
  %1 = tile.dot %a, %b, %c precision = ieee : tensor<64x32xf32>, tensor<32x128xf32> -> tensor<64x128xf32>
  %2 = tile.dot %a, %b, %c precision = tf32 : tensor<64x32xf32>, tensor<32x128xf32> -> tensor<64x128xf32>
  %3 = tile.dot %a, %b, %c precision = tf32x3 : tensor<64x32xf32>, tensor<32x128xf32> -> tensor<64x128xf32>
  %4 = tile.dot %ah, %ah, %ch : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf16>
  %5 = tile.dot %ah, %ah, %cf : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
  %6 = tile.dot %abf, %abf, %cf : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
  return
}

// CHECK-LABEL: func.func @print(
// CHECK-SAME:    %[[S:[a-z0-9]+]]: f32, %[[T:[a-z0-9]+]]: tensor<4x8xi32>, %[[P:[a-z0-9]+]]: !tile.ptr<f32>)
// CHECK-NEXT:    tile.print "no args"{{$}}
// CHECK-NEXT:    tile.print "row max" %[[S]] : f32{{$}}
// CHECK-NEXT:    tile.print "" %[[S]], %[[T]], %[[P]] : f32, tensor<4x8xi32>, !tile.ptr<f32>{{$}}
// CHECK-NEXT:    tile.print "tagged" {tag = 1 : i32}{{$}}
// CHECK-NEXT:    tile.print "tagged" %[[T]] : tensor<4x8xi32> {tag = 2 : i32}{{$}}
// GENERIC-LABEL: sym_name = "print"
// GENERIC:         "tile.print"() <{prefix = "no args"}> : () -> ()
// GENERIC:         "tile.print"(%{{.*}}) <{prefix = "row max"}> : (f32) -> ()
func.func @print(%s: f32, %t: tensor<4x8xi32>, %p: !tile.ptr<f32>) {
  tile.print "no args"
  tile.print "row max" %s : f32
  tile.print "" %s, %t, %p : f32, tensor<4x8xi32>, !tile.ptr<f32>
  tile.print "tagged" {tag = 1 : i32}
  tile.print "tagged" %t : tensor<4x8xi32> {tag = 2 : i32}
  return
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

// A complete kernel with the kernel attributes, mixing tile ops with arith,
// math and scf.

// CHECK-LABEL: func.func @softmax(
// CHECK-SAME:    %{{.*}}: !tile.ptr<f32>, %{{.*}}: !tile.ptr<f32>, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i64, %{{.*}}: f32, %{{.*}}: f64, %{{.*}}: i1)
// CHECK-SAME:    attributes {tile.kernel, tile.num_stages = 3 : i32, tile.num_warps = 8 : i32}
// CHECK:         tile.reduce max
// CHECK:         scf.for
// CHECK:         tile.store
// CHECK:         return
// GENERIC-LABEL: "func.func"() <{function_type = (!tile.ptr<f32>, !tile.ptr<f32>, i32, i32, i64, f32, f64, i1) -> (), sym_name = "softmax"}>
// GENERIC:         tile.kernel, tile.num_stages = 3 : i32, tile.num_warps = 8 : i32
func.func @softmax(%in: !tile.ptr<f32>, %out: !tile.ptr<f32>, %stride: i32,
                   %n: i32, %l: i64, %scale: f32, %d: f64, %flag: i1)
    attributes {tile.kernel, tile.num_warps = 8 : i32, tile.num_stages = 3 : i32} {
  %pid = tile.program_id 0
  %row = arith.muli %pid, %stride : i32
  %base = tile.addptr %in, %row : !tile.ptr<f32>, i32
  %cols = tile.range 0, 1024 : tensor<1024xi32>
  %bases = tile.splat %base : tensor<1024x!tile.ptr<f32>>
  %ptrs = tile.addptr %bases, %cols : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %nn = tile.splat %n : tensor<1024xi32>
  %mask = arith.cmpi slt, %cols, %nn : tensor<1024xi32>
  %ninf = arith.constant dense<0xFF800000> : tensor<1024xf32>
  %x = tile.load %ptrs, %mask, %ninf : tensor<1024x!tile.ptr<f32>>
  %m = tile.reduce max %x axis = 0 : tensor<1024xf32> -> f32
  %ms = tile.splat %m : tensor<1024xf32>
  %z = arith.subf %x, %ms : tensor<1024xf32>
  %e = math.exp %z : tensor<1024xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %init = arith.constant dense<0.0> : tensor<1024xf32>
  %acc = scf.for %iv = %c0 to %c4 step %c1 iter_args(%a = %init) -> (tensor<1024xf32>) {
    %a2 = arith.addf %a, %e : tensor<1024xf32>
    scf.yield %a2 : tensor<1024xf32>
  }
  %s = tile.reduce sum %acc axis = 0 : tensor<1024xf32> -> f32
  %ss = tile.splat %s : tensor<1024xf32>
  %y = arith.divf %e, %ss : tensor<1024xf32>
  %obase = tile.addptr %out, %row : !tile.ptr<f32>, i32
  %obases = tile.splat %obase : tensor<1024x!tile.ptr<f32>>
  %optrs = tile.addptr %obases, %cols : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %optrs, %y, %mask : tensor<1024x!tile.ptr<f32>>
  return
}

// The kernel attributes at their bounds.
// CHECK-LABEL: func.func @kernel_bounds()
// CHECK-SAME:    attributes {tile.kernel, tile.num_stages = 1 : i32, tile.num_warps = 1 : i32}
// CHECK-LABEL: func.func @kernel_bounds_max()
// CHECK-SAME:    attributes {tile.kernel, tile.num_stages = 8 : i64, tile.num_warps = 32 : i64}
func.func @kernel_bounds() attributes {tile.kernel, tile.num_warps = 1 : i32, tile.num_stages = 1 : i32} {
  return
}
func.func @kernel_bounds_max() attributes {tile.kernel, tile.num_warps = 32, tile.num_stages = 8} {
  return
}

// The types, as function arguments.
// CHECK-LABEL: func.func @types(
// CHECK-SAME:    %{{.*}}: !tile.ptr<f16>, %{{.*}}: !tile.ptr<bf16>, %{{.*}}: !tile.ptr<f32>, %{{.*}}: !tile.ptr<f64>,
// CHECK-SAME:    %{{.*}}: !tile.ptr<i1>, %{{.*}}: !tile.ptr<i8>, %{{.*}}: !tile.ptr<i16>, %{{.*}}: !tile.ptr<i32>, %{{.*}}: !tile.ptr<i64>,
// CHECK-SAME:    %{{.*}}: !tile.block_ptr<tensor<16x64xf32>>, %{{.*}}: !tile.block_ptr<tensor<128xi8>>, %{{.*}}: !tile.block_ptr<tensor<1x2x4xbf16>>)
func.func @types(%a: !tile.ptr<f16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>,
                 %d: !tile.ptr<f64>, %e: !tile.ptr<i1>, %f: !tile.ptr<i8>,
                 %g: !tile.ptr<i16>, %h: !tile.ptr<i32>, %i: !tile.ptr<i64>,
                 %j: !tile.block_ptr<tensor<16x64xf32>>,
                 %k: !tile.block_ptr<tensor<128xi8>>,
                 %l: !tile.block_ptr<tensor<1x2x4xbf16>>) {
  return
}

// Only kernels restrict the tensors of other dialects' ops to tiles.
// CHECK-LABEL: func.func @not_a_kernel(
// CHECK-SAME:    %{{.*}}: tensor<3xf32>, %{{.*}}: f16) -> tensor<3xf32>
// CHECK-NEXT:    arith.constant dense<0.000000e+00> : tensor<3xf32>
func.func @not_a_kernel(%x: tensor<3xf32>, %h: f16) -> tensor<3xf32> {
  %0 = arith.constant dense<0.0> : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func @assert(
// CHECK:         tile.assert %{{.*}}, "all positive" : tensor<64xi1>
// CHECK:         tile.assert %{{.*}}, "n is even" : i1
func.func @assert(%t: tensor<64xi1>, %s: i1) {
  tile.assert %t, "all positive" : tensor<64xi1>
  tile.assert %s, "n is even" : i1
  return
}
