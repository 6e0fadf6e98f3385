// tile.print and tile.assert on the GPU. tile.print: vprintf with a global
// format string and the arguments in a stack buffer (allocated in the entry
// block); a scalar is printed by the program's first thread, a tile one line
// per slot with the element's index. `%` in the prefix is escaped.
//
// RUN: tile-opt %s -split-input-file --tile-to-llvm | FileCheck %s

// CHECK-DAG: llvm.mlir.global internal constant @tile_debug_string_{{[0-9]+}}("[pid (%d, %d, %d)] 50%% [%d] %g\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @tile_debug_string_{{[0-9]+}}("[pid (%d, %d, %d)] n %d\0A\00")
// CHECK-DAG: llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32
// CHECK-LABEL: func.func @print
// CHECK-DAG:     llvm.alloca %{{.*}} x !llvm.struct<(i32, i32, i32, i32, f64)>
// CHECK-DAG:     llvm.alloca %{{.*}} x !llvm.struct<(i32, i32, i32, i32)>
// CHECK:         tile_debug_string
// CHECK-COUNT-2: llvm.call @vprintf
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK:         %[[FIRST:.*]] = arith.cmpi eq, %[[TID]]
// CHECK:         scf.if %[[FIRST]] {
// CHECK:           llvm.call @vprintf
func.func @print(%x: !tile.ptr<f32>, %n: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.range 0, 64 : tensor<64xi32>
  %b = tile.splat %x : tensor<64x!tile.ptr<f32>>
  %p = tile.addptr %b, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %p : tensor<64x!tile.ptr<f32>>
  tile.print "50%" %v : tensor<64xf32>
  tile.print "n" %n : i32
  return
}

// -----

// tile.assert: the thread's false elements, or-ed, guard one call of
// __assertfail(message, file, line, function, 1).
// CHECK-DAG: llvm.func @__assertfail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64)
// CHECK-DAG: llvm.mlir.global internal constant @tile_debug_string_{{[0-9]+}}("x is below n\00")
// CHECK-DAG: llvm.mlir.global internal constant @tile_debug_string_{{[0-9]+}}("check\00")
// CHECK-LABEL: func.func @check
// CHECK:         arith.xori
// CHECK:         arith.ori
// CHECK:         scf.if
// CHECK:           %[[LINE:.*]] = arith.constant [[@LINE+9]] : i32
// CHECK:           llvm.call @__assertfail(%{{.*}}, %{{.*}}, %[[LINE]], %{{.*}}, %{{.*}})
func.func @check(%x: !tile.ptr<i32>, %n: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.range 0, 64 : tensor<64xi32>
  %b = tile.splat %x : tensor<64x!tile.ptr<i32>>
  %p = tile.addptr %b, %r : tensor<64x!tile.ptr<i32>>, tensor<64xi32>
  %v = tile.load %p : tensor<64x!tile.ptr<i32>>
  %ns = tile.splat %n : tensor<64xi32>
  %ok = arith.cmpi slt, %v, %ns : tensor<64xi32>
  tile.assert %ok, "x is below n" : tensor<64xi1>
  return
}

