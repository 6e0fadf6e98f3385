// A 64x64x64 f16 matmul tile compiles to tensor-core PTX (mma.sync
// m16n8k16, f32 accumulation) without local-memory spills. `a` has the
// accumulator's layout and stays in registers; `b` is staged row-major and
// its fragments read with ldmatrix.trans (two n-tiles per instruction).
//
// RUN: tile-compile %s -o - | FileCheck %s --implicit-check-not=.local --implicit-check-not=local_depot

// CHECK: .visible .entry mma_tile(
// CHECK: st.shared
// CHECK: bar.sync
// CHECK: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK: st.global
func.func @mma_tile(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = tile.range 0, 64 : tensor<64xi32>
  %rows = tile.expand_dims %r axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %rows64 = arith.constant dense<64> : tensor<64x1xi32>
  %rowoff = arith.muli %rows, %rows64 : tensor<64x1xi32>
  %rowb = tile.broadcast %rowoff : tensor<64x1xi32> -> tensor<64x64xi32>
  %cols = tile.expand_dims %r axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %colb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %off = arith.addi %rowb, %colb : tensor<64x64xi32>
  %pa = tile.splat %a : tensor<64x64x!tile.ptr<f16>>
  %pb = tile.splat %b : tensor<64x64x!tile.ptr<f16>>
  %pc = tile.splat %c : tensor<64x64x!tile.ptr<f32>>
  %va = tile.addptr %pa, %off : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  %x = tile.load %va : tensor<64x64x!tile.ptr<f16>>
  %vb = tile.addptr %pb, %off : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  %y = tile.load %vb : tensor<64x64x!tile.ptr<f16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %z = tile.dot %x, %y, %zero : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
  %vc = tile.addptr %pc, %off : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %vc, %z : tensor<64x64x!tile.ptr<f32>>
  return
}
