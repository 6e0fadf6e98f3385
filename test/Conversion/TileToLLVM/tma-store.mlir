// tile.tma_store lowered (tile-warp-specialize, within --tile-to-llvm,
// makes one where a persistent program stores a block staged in a one-shot
// buffer): the staging tile.local_store has fenced the writes for the async
// proxy and met the program's threads, so the first thread issues the
// copies at once, one 64 x 8 box at a time as Q's buffer takes wgmma's
// 8-row groups, through the output's own map, and closes a bulk group. The
// stage's release at the tile's end waits for the group to have read it.
//
// RUN: tile-opt %s -split-input-file --tile-to-llvm=chip=sm_90a | FileCheck %s

// CHECK-LABEL: func.func @tiles_store(
// CHECK-SAME:    %[[OMAP:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>}) attributes
// CHECK-SAME:    tma arg1 f16 shape arg2 64 strides 64 1 box 8 64 swizzle 128 groups 0
// CHECK:         llvm.store %{{.*}} : vector<2xf16>, !llvm.ptr<3>
// CHECK:         nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:    %[[ID:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[THREADS:.*]] = arith.constant 128 : i32
// CHECK-NEXT:    nvvm.barrier id = %[[ID]] number_of_threads = %[[THREADS]]
// CHECK-NOT:     nvvm.fence.proxy
// CHECK-NOT:     nvvm.barrier
// CHECK:         scf.if
// CHECK-COUNT-8:   nvvm.cp.async.bulk.tensor.global.shared.cta %[[OMAP]], %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr, <3>
// CHECK-NEXT:      nvvm.cp.async.bulk.commit.group
// CHECK-NEXT:    }
// CHECK-NOT:     llvm.store
// CHECK:         nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT:    nvvm.mbarrier.arrive
// CHECK-NEXT:    scf.yield
func.func @tiles_store(%k: !tile.ptr<f16>, %o: !tile.ptr<f16>, %n: i32, %tiles: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %n64 = arith.extsi %n : i32 to i64
  %pid = tile.program_id 0
  %np = tile.num_programs 0
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %qbuf = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8>
  %vbuf = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
  scf.for %t = %pid to %tiles step %np : i32 {
    %qptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%t, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    %qblk = tile.block_load %qptr check = [0] padding = zero : !tile.block_ptr<tensor<64x64xf16>>
    tile.local_store %qblk, %qbuf[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8>
    %vptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%n, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    %vblk = tile.block_load %vptr check = [0] padding = zero : !tile.block_ptr<tensor<64x64xf16>>
    tile.local_store %vblk, %vbuf[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
    %ptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%t, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    %res:2 = scf.for %i = %t to %n step %c64 iter_args(%acc = %zero, %p = %ptr) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>) : i32 {
      %blk = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
      %q = tile.local_load %qbuf[%c0] : !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8> -> tensor<64x64xf16>
      %s = tile.dot %q, %blk, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      %next = tile.advance %p, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
      scf.yield %s, %next : tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>
    } {tile.warp_specialize}
    %v = tile.local_load %vbuf[%c0] : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8> -> tensor<64x64xf16>
    %res16 = arith.truncf %res#0 : tensor<64x64xf32> to tensor<64x64xf16>
    %sum = arith.addf %res16, %v : tensor<64x64xf16>
    // The output staged through Q's stage, which Q no longer needs.
    tile.local_store %sum, %qbuf[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8>
    %out = tile.local_load %qbuf[%c0] : !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8> -> tensor<64x64xf16>
    %row = arith.muli %t, %c64 : i32
    %op = tile.make_block_ptr %o, [%n64, %d], [%d, %one], [%row, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    tile.block_store %op, %out : !tile.block_ptr<tensor<64x64xf16>>
  }
  return
}



// -----

// Where the writes before it did not fence for the async proxy (a
// tile.local_store outside wgmma kernels does not), the op fences and
// meets the program's threads itself; a 64 x 128 block of a buffer of
// 128-byte swizzled rows goes out as two 64 x 64 boxes.
// CHECK-LABEL: func.func @store_fences(
// CHECK:         llvm.store
// CHECK:         nvvm.barrier0
// CHECK-NEXT:    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:    nvvm.barrier0
// CHECK:         scf.if
// CHECK-COUNT-2:   nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr, <3>
// CHECK-NEXT:      nvvm.cp.async.bulk.commit.group
// CHECK-NEXT:    }
func.func @store_fences(%o: !tile.ptr<f16>, %n: i32,
                        %map: !tile.tensormap {tile.tma = {base = 0 : i64, shape = ["arg1", "128"], strides = ["128", "1"]}})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 128 : i64
  %n64 = arith.extsi %n : i32 to i64
  %v = arith.constant dense<1.0> : tensor<64x128xf16>
  %buf = tile.alloc_shared : !tile.shared<tensor<64x128xf16>, stages = 1, pad = 8>
  tile.local_store %v, %buf[%c0] : tensor<64x128xf16>, !tile.shared<tensor<64x128xf16>, stages = 1, pad = 8>
  %op = tile.make_block_ptr %o, [%n64, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x128xf16>>
  tile.tma_store %buf[%c0], %op map %map : !tile.shared<tensor<64x128xf16>, stages = 1, pad = 8>, !tile.block_ptr<tensor<64x128xf16>>
  return
}
