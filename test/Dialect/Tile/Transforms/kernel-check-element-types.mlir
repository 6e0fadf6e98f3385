// tile-kernel-check on tiles whose elements are neither integers nor floats.
//
// Regression: index tiles are estimated as 64-bit (this used to crash).
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics -tile-kernel-check=report

// expected-remark-re @+1 {{kernel 'index_tile': 128 threads, about {{[0-9]+}} registers per thread for tiles}}
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

// expected-remark-re @+1 {{kernel 'complex_tile': 128 threads, about {{[0-9]+}} registers per thread for tiles}}
func.func @complex_tile(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  %c = arith.constant dense<(1.0, 2.0)> : tensor<4xcomplex<f32>>
  return
}
