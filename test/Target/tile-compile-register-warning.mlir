// tile-compile reports a kernel close to its register limit with a warning
// and compiles it: 6 programs of 128 threads per SM leave a thread 80
// registers, and the kernel needs about 78 (two 4096-element f32 tiles).
//
// RUN: tile-compile %s --chip sm_90a -o %t.ptx 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
//
// WARN: tile-compile-register-warning.mlir:[[@LINE+5]]:1: warning: kernel 'scale' needs about 78 registers per thread, within 10% of the 80 a thread may use with 128 threads and 6 programs per SM: registers may spill to local memory
// WARN: note: peak register use is here
// WARN-NOT: error
//
// PTX: .entry scale(
func.func @scale(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.min_programs_per_sm = 6 : i32} {
  %r = tile.range 0, 4096 : tensor<4096xi32>
  %px = tile.splat %x : tensor<4096x!tile.ptr<f32>>
  %ax = tile.addptr %px, %r : tensor<4096x!tile.ptr<f32>>, tensor<4096xi32>
  %py = tile.splat %y : tensor<4096x!tile.ptr<f32>>
  %ay = tile.addptr %py, %r : tensor<4096x!tile.ptr<f32>>, tensor<4096xi32>
  %v = tile.load %ax : tensor<4096x!tile.ptr<f32>>
  %w = tile.load %ay : tensor<4096x!tile.ptr<f32>>
  %s = arith.addf %v, %w : tensor<4096xf32>
  tile.store %ax, %s : tensor<4096x!tile.ptr<f32>>
  tile.store %ay, %v : tensor<4096x!tile.ptr<f32>>
  return
}
