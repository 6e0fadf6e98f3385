// tile-outline-kernels rejects a kernel whose tile.shared_bytes exceeds what
// one CTA may use on the target chip (it would otherwise only fail at
// launch): 232448 bytes on sm_90, 166912 on sm_80, 101376 on sm_86.
//
// RUN: not tile-opt %s -split-input-file -tile-outline-kernels 2>%t.sm90.err \
// RUN:   | FileCheck %s --check-prefix=SM90
// RUN: FileCheck %s --check-prefix=SM90-ERR < %t.sm90.err
// RUN: not tile-opt %s -split-input-file -tile-outline-kernels='chip=sm_80' 2>%t.sm80.err \
// RUN:   | FileCheck %s --check-prefix=SM80
// RUN: FileCheck %s --check-prefix=SM80-ERR < %t.sm80.err
// RUN: not tile-opt %s -split-input-file -tile-outline-kernels='chip=sm_86' 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=SM86-ERR

// Exactly the sm_80 limit.
// SM90: llvm.func @at_sm80_limit() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 1, 1>}
// SM80: llvm.func @at_sm80_limit() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 1, 1>}
// SM86-ERR: outline-kernels-shared-limit.mlir:[[@LINE+2]]:3: error: out of resources: kernel 'at_sm80_limit' needs 166912 bytes of shared memory; sm_86 allows 101376 per CTA (use smaller tiles)
module {
  llvm.func @at_sm80_limit() attributes {tile.metadata = "tile-kernel v1\0Aname at_sm80_limit\0Anum_warps 1\0Ashared_bytes 166912\0Aend\0A", tile.num_warps = 1 : i32, tile.shared_bytes = 166912 : i64} {
    llvm.return
  }
}

// -----

// One byte over the sm_80 limit: fine on sm_90.
// SM90: llvm.func @over_sm80_limit() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 1, 1>}
// SM80-ERR: outline-kernels-shared-limit.mlir:[[@LINE+2]]:3: error: out of resources: kernel 'over_sm80_limit' needs 166913 bytes of shared memory; sm_80 allows 166912 per CTA (use smaller tiles)
module {
  llvm.func @over_sm80_limit() attributes {tile.metadata = "tile-kernel v1\0Aname over_sm80_limit\0Anum_warps 1\0Ashared_bytes 166913\0Aend\0A", tile.num_warps = 1 : i32, tile.shared_bytes = 166913 : i64} {
    llvm.return
  }
}

// -----

// Exactly the sm_90 limit.
// SM90: llvm.func @at_sm90_limit() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 1, 1>}
module {
  llvm.func @at_sm90_limit() attributes {tile.metadata = "tile-kernel v1\0Aname at_sm90_limit\0Anum_warps 1\0Ashared_bytes 232448\0Aend\0A", tile.num_warps = 1 : i32, tile.shared_bytes = 232448 : i64} {
    llvm.return
  }
}

// -----

// One byte over the sm_90 limit.
// SM90-ERR: outline-kernels-shared-limit.mlir:[[@LINE+3]]:3: error: out of resources: kernel 'over_sm90_limit' needs 232449 bytes of shared memory; sm_90 allows 232448 per CTA (use smaller tiles)
// SM90-NOT: @over_sm90_limit
module {
  llvm.func @over_sm90_limit() attributes {tile.metadata = "tile-kernel v1\0Aname over_sm90_limit\0Anum_warps 1\0Ashared_bytes 232449\0Aend\0A", tile.num_warps = 1 : i32, tile.shared_bytes = 232449 : i64} {
    llvm.return
  }
}
