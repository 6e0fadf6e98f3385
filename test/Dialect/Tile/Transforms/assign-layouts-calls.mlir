// tile-assign-layouts works on a kernel's own body: a call that passes or
// returns tiles would get layouts on its operands and results while the
// callee's signature keeps none (a verifier error), so such calls are
// reported at the call; the compile pipeline inlines helpers first (-inline
// here does the same). Calls on scalars only are fine.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics -tile-assign-layouts
// RUN: tile-opt %s -split-input-file -inline -tile-assign-layouts \
// RUN:   | FileCheck %s --check-prefix=INLINED

func.func private @double(%x: tensor<128xf32>) -> tensor<128xf32> {
  %y = arith.addf %x, %x : tensor<128xf32>
  return %y : tensor<128xf32>
}

func.func @tile_operand(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  %offs = tile.range 0, 128 : tensor<128xi32>
  %base = tile.splat %p : tensor<128x!tile.ptr<f32>>
  %ptrs = tile.addptr %base, %offs : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %x = tile.load %ptrs : tensor<128x!tile.ptr<f32>>
  // expected-error @+1 {{tile-assign-layouts needs helper functions inlined first (run -inline)}}
  %y = func.call @double(%x) : (tensor<128xf32>) -> tensor<128xf32>
  tile.store %ptrs, %y : tensor<128x!tile.ptr<f32>>
  return
}

// INLINED-LABEL: func.func @tile_operand(
// INLINED-NOT:     func.call
// INLINED:         arith.addf {{.*}} : tensor<128xf32, #blocked>
// INLINED:         tile.store

// -----

// A tile result alone (here from scalar operands) is reported too.
func.func private @ramp(%n: i32) -> tensor<64xi32> {
  %r = tile.range 0, 64 : tensor<64xi32>
  %s = tile.splat %n : tensor<64xi32>
  %t = arith.addi %r, %s : tensor<64xi32>
  return %t : tensor<64xi32>
}

func.func @tile_result(%p: !tile.ptr<i32>, %n: i32) attributes {tile.kernel} {
  // expected-error @+1 {{tile-assign-layouts needs helper functions inlined first (run -inline)}}
  %t = func.call @ramp(%n) : (i32) -> tensor<64xi32>
  %base = tile.splat %p : tensor<64x!tile.ptr<i32>>
  %ptrs = tile.addptr %base, %t : tensor<64x!tile.ptr<i32>>, tensor<64xi32>
  tile.store %ptrs, %t : tensor<64x!tile.ptr<i32>>
  return
}

// INLINED-LABEL: func.func @tile_result(
// INLINED-NOT:     func.call
// INLINED:         tile.store

// -----

// Block pointers are tiles as well.
func.func private @advance(%b: !tile.block_ptr<tensor<16x16xf32>>) -> !tile.block_ptr<tensor<16x16xf32>> {
  %c16 = arith.constant 16 : i32
  %c0 = arith.constant 0 : i32
  %n = tile.advance %b, [%c16, %c0] : !tile.block_ptr<tensor<16x16xf32>>
  return %n : !tile.block_ptr<tensor<16x16xf32>>
}

func.func @block_pointer(%p: !tile.ptr<f32>, %rows: i64, %cols: i64) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %b = tile.make_block_ptr %p, [%rows, %cols], [%cols, %c1], [%c0, %c0]
         order = [1, 0] : !tile.block_ptr<tensor<16x16xf32>>
  // expected-error @+1 {{tile-assign-layouts needs helper functions inlined first (run -inline)}}
  %n = func.call @advance(%b) : (!tile.block_ptr<tensor<16x16xf32>>) -> !tile.block_ptr<tensor<16x16xf32>>
  %x = tile.block_load %n check = [0, 1] : !tile.block_ptr<tensor<16x16xf32>>
  tile.block_store %b, %x check = [0, 1] : !tile.block_ptr<tensor<16x16xf32>>
  return
}

// INLINED-LABEL: func.func @block_pointer(
// INLINED-NOT:     func.call
// INLINED:         tile.block_store

// -----

// A helper on scalars leaves nothing to lay out: no error, the call stays.
func.func private @twice(%x: i32) -> i32 {
  %y = arith.addi %x, %x : i32
  return %y : i32
}

func.func @scalar_call(%p: !tile.ptr<i32>, %n: i32) attributes {tile.kernel} {
  %m = func.call @twice(%n) : (i32) -> i32
  %offs = tile.range 0, 64 : tensor<64xi32>
  %s = tile.splat %m : tensor<64xi32>
  %v = arith.addi %offs, %s : tensor<64xi32>
  %base = tile.splat %p : tensor<64x!tile.ptr<i32>>
  %ptrs = tile.addptr %base, %offs : tensor<64x!tile.ptr<i32>>, tensor<64xi32>
  tile.store %ptrs, %v : tensor<64x!tile.ptr<i32>>
  return
}

// INLINED-LABEL: func.func @scalar_call(
// INLINED:         tile.store {{.*}} : tensor<64x!tile.ptr<i32>, #blocked

// -----

// Each kernel is checked and reported.
func.func private @neg(%x: tensor<32xf32>) -> tensor<32xf32> {
  %y = arith.negf %x : tensor<32xf32>
  return %y : tensor<32xf32>
}

func.func @first(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  %c = arith.constant dense<1.0> : tensor<32xf32>
  // expected-error @+1 {{tile-assign-layouts needs helper functions inlined first (run -inline)}}
  %y = func.call @neg(%c) : (tensor<32xf32>) -> tensor<32xf32>
  return
}

func.func @second(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  %c = arith.constant dense<1.0> : tensor<32xf32>
  // expected-error @+1 {{tile-assign-layouts needs helper functions inlined first (run -inline)}}
  %y = func.call @neg(%c) : (tensor<32xf32>) -> tensor<32xf32>
  return
}
