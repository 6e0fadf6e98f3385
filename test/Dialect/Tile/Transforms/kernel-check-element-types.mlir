// tile-kernel-check on tiles of index elements; tiles of other element
// types never reach it.
//
// Regression: index tiles are estimated as 64-bit (this used to crash).
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics -tile-kernel-check=report

// expected-remark-re @+1 {{kernel 'index_tile': 128 threads, about {{[0-9]+}} registers per thread}}
func.func @index_tile(%p: !tile.ptr<i64>) attributes {tile.kernel} {
  %r = tile.range 0, 128 : tensor<128xi32>
  %i = arith.index_cast %r : tensor<128xi32> to tensor<128xindex>
  %l = arith.index_cast %i : tensor<128xindex> to tensor<128xi64>
  %ps = tile.splat %p : tensor<128x!tile.ptr<i64>>
  %pp = tile.addptr %ps, %r : tensor<128x!tile.ptr<i64>>, tensor<128xi32>
  tile.store %pp, %l : tensor<128x!tile.ptr<i64>>
  return
}

// -----

// Element types neither the GPU backend nor the interpreter computes with
// are rejected by the verifier, before any pass runs (this used to reach the
// register estimate, then crash in the lowering).
func.func @complex_tile(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  // expected-error @+1 {{'arith.constant' op result has type 'tensor<4xcomplex<f32>>', which tile kernel 'complex_tile' cannot compute with; kernels use f16, bf16, f32, f64, i1, i8, i16, i32, i64, index, !tile.ptr<T> and tiles of these}}
  %c = arith.constant dense<(1.0, 2.0)> : tensor<4xcomplex<f32>>
  return
}
