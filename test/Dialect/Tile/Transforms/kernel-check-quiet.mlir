// Without `report`, tile-kernel-check is silent on kernels that fit and
// leaves the IR as it is; errors come without remarks.
//
// RUN: tile-opt %s -tile-kernel-check 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=remark: --implicit-check-not=error:
// RUN: not tile-opt %s -tile-kernel-check=max-registers=1 -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ERR --implicit-check-not=remark:

// CHECK-LABEL: func.func @add(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: !tile.ptr<f32>, %[[Y:[a-z0-9]+]]: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 2 : i32}
// CHECK-NEXT:    %[[R:.*]] = tile.range 0, 256 : tensor<256xi32>
// CHECK-NEXT:    %[[XS:.*]] = tile.splat %[[X]] : tensor<256x!tile.ptr<f32>>
// CHECK-NEXT:    %[[XP:.*]] = tile.addptr %[[XS]], %[[R]] : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
// CHECK-NEXT:    %[[V:.*]] = tile.load %[[XP]] : tensor<256x!tile.ptr<f32>>
// CHECK-NEXT:    %[[YS:.*]] = tile.splat %[[Y]] : tensor<256x!tile.ptr<f32>>
// CHECK-NEXT:    %[[YP:.*]] = tile.addptr %[[YS]], %[[R]] : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
// CHECK-NEXT:    %[[W:.*]] = arith.addf %[[V]], %[[V]] : tensor<256xf32>
// CHECK-NEXT:    tile.store %[[YP]], %[[W]] : tensor<256x!tile.ptr<f32>>
// CHECK-NEXT:    return
// ERR: kernel-check-quiet.mlir:[[@LINE+2]]:1: error: out of resources: kernel 'add' needs about {{[0-9]+}} registers per thread with 2 warps; the limit is 1 (use smaller tiles or more warps)
// ERR: note: peak register use is here
func.func @add(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 2 : i32} {
  %r = tile.range 0, 256 : tensor<256xi32>
  %xs = tile.splat %x : tensor<256x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %v = tile.load %xp : tensor<256x!tile.ptr<f32>>
  %ys = tile.splat %y : tensor<256x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %w = arith.addf %v, %v : tensor<256xf32>
  tile.store %yp, %w : tensor<256x!tile.ptr<f32>>
  return
}

// Not a kernel, and called by none: never checked.
// CHECK-LABEL: func.func @helper(
// CHECK-NEXT:    arith.constant dense<1.000000e+00> : tensor<4194304xf32>
func.func @helper() -> tensor<4194304xf32> {
  %c = arith.constant dense<1.0> : tensor<4194304xf32>
  return %c : tensor<4194304xf32>
}
