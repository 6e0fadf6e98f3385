// tile-kernel-check rejects thread counts a program instance cannot have.
// The dialect verifier rejects such tile.num_warps first (see invalid.mlir),
// so the verifier is turned off on parsing to reach the pass.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics \
// RUN:   --mlir-very-unsafe-disable-verifier-on-parsing -tile-kernel-check=report

// expected-error @+1 {{kernel 'too_many_warps' has 64 warps; a program instance holds at most 32 warps (1024 threads)}}
func.func @too_many_warps(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 64 : i32} {
  return
}

// -----

// expected-error @+1 {{kernel 'odd_warps' has 3 warps; a program instance holds at most 32 warps (1024 threads)}}
func.func @odd_warps(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 3 : i32} {
  return
}

// -----

// expected-error @+1 {{kernel 'no_warps' has 0 warps}}
func.func @no_warps(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 0 : i32} {
  return
}

// -----

// Each kernel is checked: the second one is still reported.
// expected-error @+1 {{kernel 'first' has 48 warps}}
func.func @first() attributes {tile.kernel, tile.num_warps = 48 : i32} {
  return
}
// expected-remark @+1 {{kernel 'second': 1024 threads, about 12 registers per thread}}
func.func @second() attributes {tile.kernel, tile.num_warps = 32 : i32} {
  return
}
