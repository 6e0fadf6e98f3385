// --metadata writes the text the runtime reads to launch each kernel: name,
// warps, shared-memory bytes, then one line per argument (pointers with
// their pointee type and the 16-byte alignment the runtime checks, integers
// with their tile.divisibility, floats, i1).
//
// RUN: tile-compile %s -o %t.ptx --metadata %t.meta
// RUN: FileCheck %s --match-full-lines < %t.meta
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: tile-compile %S/../../examples/vector_add.mlir -o %t.va.ptx --metadata %t.va.meta
// RUN: FileCheck %s --check-prefix=VA --match-full-lines < %t.va.meta
// RUN: tile-compile %S/../../examples/softmax.mlir -o %t.sm.ptx --metadata %t.sm.meta
// RUN: FileCheck %s --check-prefix=SOFTMAX --match-full-lines < %t.sm.meta
// RUN: tile-compile %S/../../examples/softmax_matmul.mlir -o %t.smm.ptx --metadata %t.smm.meta
// RUN: FileCheck %s --check-prefix=SMM --match-full-lines < %t.smm.meta
// Without --metadata only the PTX is written.
// RUN: rm -rf %t.dir && mkdir %t.dir && cd %t.dir
// RUN: tile-compile %s -o out.ptx
// RUN: ls | FileCheck %s --check-prefix=FILES --match-full-lines

// CHECK:      tile-kernel v1
// CHECK-NEXT: name all_args
// CHECK-NEXT: num_warps 8
// CHECK-NEXT: shared_bytes 0
// CHECK-NEXT: arg ptr f32 16
// CHECK-NEXT: arg ptr f16 16
// CHECK-NEXT: arg ptr i8 16
// CHECK-NEXT: arg i32 16
// CHECK-NEXT: arg i32 1
// CHECK-NEXT: arg i64 8
// CHECK-NEXT: arg f32
// CHECK-NEXT: arg f64
// CHECK-NEXT: arg i1
// CHECK-NEXT: end
// CHECK-NEXT: tile-kernel v1
// CHECK-NEXT: name default_warps
// CHECK-NEXT: num_warps 4
// CHECK-NEXT: shared_bytes 0
// CHECK-NEXT: arg ptr i32 16
// CHECK-NEXT: end
// CHECK-EMPTY:

// PTX: .visible .entry all_args(
// PTX: .maxntid 256, 1, 1
// PTX: .visible .entry default_warps(
// PTX: .maxntid 128, 1, 1

func.func @all_args(%pf: !tile.ptr<f32>, %ph: !tile.ptr<f16>, %pb: !tile.ptr<i8>,
                    %n: i32 {tile.divisibility = 16 : i32}, %m: i32,
                    %l: i64 {tile.divisibility = 8 : i32},
                    %f: f32, %d: f64, %b: i1)
    attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %r = tile.range 0, 256 : tensor<256xi32>
  %base = tile.splat %pf : tensor<256x!tile.ptr<f32>>
  %ptrs = tile.addptr %base, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %v = tile.splat %f : tensor<256xf32>
  %ns = tile.splat %n : tensor<256xi32>
  %mask = arith.cmpi slt, %r, %ns : tensor<256xi32>
  tile.store %ptrs, %v, %mask : tensor<256x!tile.ptr<f32>>
  return
}

func.func @default_warps(%p: !tile.ptr<i32>) attributes {tile.kernel} {
  %c = arith.constant 7 : i32
  tile.store %p, %c : !tile.ptr<i32>
  return
}

// VA:      tile-kernel v1
// VA-NEXT: name vector_add
// VA-NEXT: num_warps 4
// VA-NEXT: shared_bytes 0
// VA-NEXT: arg ptr f32 16
// VA-NEXT: arg ptr f32 16
// VA-NEXT: arg ptr f32 16
// VA-NEXT: arg i32 1
// VA-NEXT: end
// VA-EMPTY:

// Two cross-warp reductions of a 1024-wide row over 4 warps: 4 x 4 bytes.
// SOFTMAX:      name softmax
// SOFTMAX-NEXT: num_warps 4
// SOFTMAX-NEXT: shared_bytes 16
// SOFTMAX-COUNT-2: arg ptr f32 16
// SOFTMAX-COUNT-4: arg i32 1
// SOFTMAX-NEXT: end

// The dot of a 16x16 and a 16x64 tile stages (256 + 1024) f32.
// SMM:      name softmax_matmul
// SMM-NEXT: num_warps 4
// SMM-NEXT: shared_bytes 5120
// SMM-COUNT-3: arg ptr f32 16
// SMM-COUNT-12: arg i32 1
// SMM-NEXT: end

// FILES:     out.ptx
// FILES-NOT: {{.}}
