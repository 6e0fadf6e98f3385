// The interpreter runs the software-pipelining ops: a copy lands in its
// stage at once (elements outside the array as zero), commits and waits
// order nothing, and local_load reads the stage back. A 3x5 array is
// copied as 4x8 blocks at offsets (0, 0) and (2, 4) into the two stages of
// one buffer; both stages are stored to `y` (8 columns, 8 rows).
//
// RUN: tile-run %s --mode=interp --quiet --kernel stages --arg 'x=f32[3x5]:iota' \
// RUN:   --arg 'y=f32[8x8]:zeros' --print y | FileCheck %s

// CHECK:      y = [0, 1, 2, 3, 4, 0, 0, 0,
// CHECK-SAME:      5, 6, 7, 8, 9, 0, 0, 0,
// CHECK-SAME:      10, 11, 12, 13, 14, 0, 0, 0,
// CHECK-SAME:      0, 0, 0, 0, 0, 0, 0, 0,
// CHECK-SAME:      14, 0, 0, 0, 0, 0, 0, 0,
// CHECK-SAME:      0, 0, 0, 0, 0, 0, 0, 0,
// CHECK-SAME:      0, 0, 0, 0, 0, 0, 0, 0,
// CHECK-SAME:      0, 0, 0, 0, 0, 0, 0, 0]

func.func @stages(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %rows = arith.constant 3 : i64
  %cols = arith.constant 5 : i64
  %one = arith.constant 1 : i64
  %eight = arith.constant 8 : i64
  %px = tile.make_block_ptr %x, [%rows, %cols], [%cols, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<4x8xf32>>
  %buf = tile.alloc_shared : !tile.shared<tensor<4x8xf32>, stages = 2, pad = 4>
  tile.async_copy %px, %buf[%c0] : !tile.block_ptr<tensor<4x8xf32>>, !tile.shared<tensor<4x8xf32>, stages = 2, pad = 4>
  %px2 = tile.advance %px, [%c2, %c4] : !tile.block_ptr<tensor<4x8xf32>>
  tile.async_copy %px2, %buf[%c1] : !tile.block_ptr<tensor<4x8xf32>>, !tile.shared<tensor<4x8xf32>, stages = 2, pad = 4>
  tile.async_commit
  tile.async_wait pending = 0
  %t0 = tile.local_load %buf[%c0] : !tile.shared<tensor<4x8xf32>, stages = 2, pad = 4> -> tensor<4x8xf32>
  %t1 = tile.local_load %buf[%c1] : !tile.shared<tensor<4x8xf32>, stages = 2, pad = 4> -> tensor<4x8xf32>
  %py = tile.make_block_ptr %y, [%eight, %eight], [%eight, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<4x8xf32>>
  tile.block_store %py, %t0 : !tile.block_ptr<tensor<4x8xf32>>
  %py2 = tile.advance %py, [%c4, %c0] : !tile.block_ptr<tensor<4x8xf32>>
  tile.block_store %py2, %t1 : !tile.block_ptr<tensor<4x8xf32>>
  return
}

// A stage index outside the buffer is a located error.
// RUN: not tile-run %s --mode=interp --quiet --kernel bad_stage \
// RUN:   --arg 'x=f32[4x8]:iota' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: in program (0, 0, 0): stage 2 is outside the buffer's 2 stages
func.func @bad_stage(%x: !tile.ptr<f32>)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %n = arith.constant 4 : i64
  %m = arith.constant 8 : i64
  %one = arith.constant 1 : i64
  %px = tile.make_block_ptr %x, [%n, %m], [%m, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<4x8xf32>>
  %buf = tile.alloc_shared : !tile.shared<tensor<4x8xf32>, stages = 2, pad = 4>
  tile.async_copy %px, %buf[%c2] : !tile.block_ptr<tensor<4x8xf32>>, !tile.shared<tensor<4x8xf32>, stages = 2, pad = 4>
  return
}

// local_store writes a computed tile into a stage: x + 100 stored into stage
// 1, read back and written to y (4 rows of 8).
// RUN: tile-run %s --mode=interp --quiet --kernel store_stage \
// RUN:   --arg 'x=f32[4x8]:iota' --arg 'y=f32[4x8]:zeros' --print y \
// RUN:   | FileCheck %s --check-prefix=STORE
// STORE:      y = [100, 101, 102, 103, 104, 105, 106, 107,
// STORE-SAME:      108, 109, 110, 111, 112, 113, 114, 115,
// STORE-SAME:      116, 117, 118, 119, 120, 121, 122, 123,
// STORE-SAME:      124, 125, 126, 127, 128, 129, 130, 131]
func.func @store_stage(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %n = arith.constant 4 : i64
  %m = arith.constant 8 : i64
  %one = arith.constant 1 : i64
  %px = tile.make_block_ptr %x, [%n, %m], [%m, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<4x8xf32>>
  %t = tile.block_load %px : !tile.block_ptr<tensor<4x8xf32>>
  %hundred = arith.constant dense<100.0> : tensor<4x8xf32>
  %u = arith.addf %t, %hundred : tensor<4x8xf32>
  %buf = tile.alloc_shared : !tile.shared<tensor<4x8xf32>, stages = 2, pad = 4>
  tile.local_store %u, %buf[%c1] : tensor<4x8xf32>, !tile.shared<tensor<4x8xf32>, stages = 2, pad = 4>
  %r = tile.local_load %buf[%c1] : !tile.shared<tensor<4x8xf32>, stages = 2, pad = 4> -> tensor<4x8xf32>
  %py = tile.make_block_ptr %y, [%n, %m], [%m, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<4x8xf32>>
  tile.block_store %py, %r : !tile.block_ptr<tensor<4x8xf32>>
  return
}
