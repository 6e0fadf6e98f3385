// Software pipelining ops on the GPU: buffers are placed after the scratch
// space (offsets on tile.alloc_shared, their bytes in the kernel's shared
// memory need), tile.async_copy moves 16-byte chunks with cp.async (zero
// fill past the array) or, for blocks that are not contiguous and aligned,
// element by element in a loop; async_wait waits for its groups and then
// synchronizes. A dot whose operands are both read from buffers takes its
// fragments from them directly, `a` with ldmatrix and `b` with
// ldmatrix.trans: nothing is staged, no barrier is added. Its warps form the
// grid with the squarest warp tiles: 64x64 over 4 warps is 2x2 warps of
// 32x32 (2 m-tiles, 4 n-tiles: per k-step two ldmatrix for `a`, two for
// `b`, eight mma).
//
// RUN: tile-opt %s --tile-to-llvm | FileCheck %s

// CHECK-LABEL: func.func @pipelined_dot
// CHECK-SAME:    tile.shared_bytes = 19456
// CHECK:         scf.if
// CHECK-COUNT-2: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK:         } else {
// CHECK:         nvvm.cp.async.commit.group
// CHECK-NEXT:    nvvm.cp.async.wait.group 0
// CHECK-NEXT:    nvvm.barrier0
// CHECK-NOT:     nvvm.barrier0
// CHECK-COUNT-2: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NOT:     nvvm.barrier0
// CHECK-COUNT-2: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 4
// CHECK-NOT:     nvvm.barrier0
// CHECK-COUNT-8: nvvm.mma.sync {{.*}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT:     nvvm.barrier0
// CHECK:         nvvm.ldmatrix %{{.*}} layout = #nvvm.mma_layout<row>, num = 4
// CHECK-NOT:     nvvm.barrier0
// CHECK:         return
func.func @pipelined_dot(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %n: i64, %s: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %pa = tile.make_block_ptr %a, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x32xf16>>
  %pb = tile.make_block_ptr %b, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x64xf16>>
  %pc = tile.make_block_ptr %c, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  %bufa = tile.alloc_shared : !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8>
  %bufb = tile.alloc_shared : !tile.shared<tensor<32x64xf16>, stages = 2, pad = 8>
  tile.async_copy %pa, %bufa[%s] : !tile.block_ptr<tensor<64x32xf16>>, !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8>
  tile.async_copy %pb, %bufb[%s] : !tile.block_ptr<tensor<32x64xf16>>, !tile.shared<tensor<32x64xf16>, stages = 2, pad = 8>
  tile.async_commit
  tile.async_wait pending = 0
  %x = tile.local_load %bufa[%s] : !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8> -> tensor<64x32xf16>
  %y = tile.local_load %bufb[%s] : !tile.shared<tensor<32x64xf16>, stages = 2, pad = 8> -> tensor<32x64xf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %z = tile.dot %x, %y, %zero : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
  tile.block_store %pc, %z check = [0, 1] : !tile.block_ptr<tensor<64x64xf32>>
  return
}
