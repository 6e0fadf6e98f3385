// A value used with another type than its own: the parser's error gets a
// note naming the shape change or conversion that is missing.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

func.func @scalar_for_tile(%s: f32) {
  // expected-note @-1 {{prior use here}}
  %r = tile.range 0, 128 : tensor<128xi32>
  %v = arith.sitofp %r : tensor<128xi32> to tensor<128xf32>
  // expected-error @+2 {{use of value '%s' expects different type than prior uses: 'tensor<128xf32>' vs 'f32'}}
  // expected-note @+1 {{'%s' is a scalar where a tile is needed: splat it first, %t = tile.splat %s : tensor<128xf32>}}
  %y = arith.addf %v, %s : tensor<128xf32>
  return
}

// -----

func.func @missing_broadcast(%s: f32) {
  %r = tile.splat %s : tensor<1x128xf32>
  // expected-note @-1 {{prior use here}}
  %w = tile.splat %s : tensor<64x128xf32>
  // expected-error @+2 {{use of value '%r' expects different type than prior uses: 'tensor<64x128xf32>' vs 'tensor<1x128xf32>'}}
  // expected-note @+1 {{'%r' has shape [1, 128] where [64, 128] is needed: broadcast it first, tile.broadcast %r : tensor<1x128xf32> -> tensor<64x128xf32>}}
  %y = arith.addf %w, %r : tensor<64x128xf32>
  return
}

// -----

func.func @missing_axis(%s: f32) {
  %r = tile.splat %s : tensor<128xf32>
  // expected-note @-1 {{prior use here}}
  %w = tile.splat %s : tensor<128x64xf32>
  // expected-error @+2 {{expects different type than prior uses}}
  // expected-note @+1 {{'%r' has shape [128] where [128, 64] is needed: add the axis, tile.expand_dims %r axis = 1 : tensor<128xf32> -> tensor<128x1xf32>, then tile.broadcast it to tensor<128x64xf32>}}
  %y = arith.addf %w, %r : tensor<128x64xf32>
  return
}

// -----

func.func @element_type(%s: f16) {
  %r = tile.splat %s : tensor<128xf16>
  // expected-note @-1 {{prior use here}}
  %w = arith.constant dense<1.0> : tensor<128xf32>
  // expected-error @+2 {{expects different type than prior uses}}
  // expected-note @+1 {{'%r' holds f16 where f32 is needed: convert the elements (arith.extf, arith.truncf, arith.sitofp, arith.fptosi, ...)}}
  %y = arith.addf %w, %r : tensor<128xf32>
  return
}

// -----

func.func @tile_for_scalar(%s: f32) {
  %r = tile.splat %s : tensor<128xf32>
  // expected-note @-1 {{prior use here}}
  // expected-error @+2 {{expects different type than prior uses}}
  // expected-note @+1 {{'%r' is a tile where a scalar is needed: reduce it (tile.reduce) or take one element}}
  %y = arith.addf %s, %r : f32
  return
}
