// tile-outline-kernels moves the lowered kernels (llvm.func carrying
// tile.metadata) and @tile_smem into gpu.module @tile_kernels with an
// #nvvm.target, marks them nvvm.kernel with nvvm.maxntid = 32 x warps,
// drops the tile.* attributes (function and argument ones) and gathers the
// metadata, in kernel order, on the enclosing module.
//
// RUN: tile-opt %s -split-input-file -tile-outline-kernels | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-outline-kernels='chip=sm_80 features=+ptx75 O=1' | FileCheck %s --check-prefix=SM80

// CHECK:       module attributes {gpu.container_module, tile.metadata = "tile-kernel v1\0Aname first\0Anum_warps 4\0Ashared_bytes 512\0Aarg ptr f32 16\0Aarg i32 16\0Aend\0Atile-kernel v1\0Aname second\0Anum_warps 1\0Ashared_bytes 0\0Aend\0A"} {
// Functions that are not kernels stay outside.
// CHECK-NEXT:    llvm.func @helper() {
// CHECK-NEXT:      llvm.return
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.module @tile_kernels [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">] {
// CHECK-NEXT:      llvm.mlir.global external @tile_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-NEXT:      llvm.func @first(%{{[a-z0-9]+}}: !llvm.ptr<1>, %{{[a-z0-9]+}}: i32) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
// CHECK-NEXT:        llvm.mlir.addressof @tile_smem : !llvm.ptr<3>
// CHECK-NEXT:        llvm.return
// CHECK-NEXT:      }
// CHECK-NEXT:      llvm.func @second() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 1, 1>} {
// CHECK-NEXT:        llvm.return
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// SM80:        gpu.module @tile_kernels [#nvvm.target<O = 1, chip = "sm_80", features = "+ptx75">] {

module {
  llvm.mlir.global external @tile_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.func @first(%arg0: !llvm.ptr<1>, %arg1: i32 {tile.divisibility = 16 : i32})
      attributes {tile.metadata = "tile-kernel v1\0Aname first\0Anum_warps 4\0Ashared_bytes 512\0Aarg ptr f32 16\0Aarg i32 16\0Aend\0A",
                  tile.num_warps = 4 : i32, tile.shared_bytes = 512 : i64} {
    %0 = llvm.mlir.addressof @tile_smem : !llvm.ptr<3>
    llvm.return
  }
  llvm.func @helper() {
    llvm.return
  }
  llvm.func @second()
      attributes {tile.metadata = "tile-kernel v1\0Aname second\0Anum_warps 1\0Ashared_bytes 0\0Aend\0A",
                  tile.num_warps = 1 : i32, tile.shared_bytes = 0 : i64} {
    llvm.return
  }
}

// -----

// Without tile.num_warps a kernel gets 4 warps (128 threads).
// CHECK:       module attributes {gpu.container_module, tile.metadata = "tile-kernel v1\0Aname no_warps\0Anum_warps 4\0Ashared_bytes 0\0Aend\0A"} {
// CHECK-NEXT:    gpu.module @tile_kernels
// CHECK-NEXT:      llvm.func @no_warps() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>}
module {
  llvm.func @no_warps() attributes {tile.metadata = "tile-kernel v1\0Aname no_warps\0Anum_warps 4\0Ashared_bytes 0\0Aend\0A"} {
    llvm.return
  }
}

// -----

// No lowered kernel: nothing happens (no gpu.module, no container module).
// CHECK:       module {
// CHECK-NEXT:    llvm.func @plain() {
// CHECK-NOT:   gpu.module
module {
  llvm.func @plain() {
    llvm.return
  }
}
