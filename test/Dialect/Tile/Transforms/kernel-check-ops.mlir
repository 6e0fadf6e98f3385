// The kernel checker accepts exactly the arith and math ops of Tile's table
// (ElementwiseOps.h), which both the interpreter and the GPU compute, and
// says what to do instead of any other.
//
// RUN: tile-opt %s -split-input-file -tile-kernel-check -verify-diagnostics

func.func @fpowi(%x: f32, %n: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error @+1 {{'math.fpowi' is not supported by Tile: raise to a power with math.powf on floats, or multiply}}
  %y = math.fpowi %x, %n : f32, i32
  return
}

// -----

func.func @isnan(%s: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.splat %s : tensor<128xf32>
  // expected-error @+1 {{'math.isnan' is not supported by Tile: compare instead (x != x is NaN; math.absf(x) == inf is infinite)}}
  %y = math.isnan %x : tensor<128xf32>
  return
}

// -----

func.func @ctpop(%x: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error @+1 {{'math.ctpop' is not supported by Tile: integer bit counts and math.absi are not supported yet}}
  %y = math.ctpop %x : i32
  return
}

// -----

func.func @bitcast(%x: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error @+1 {{'arith.bitcast' is not supported by Tile: reinterpreting bits is not supported on tiles}}
  %y = arith.bitcast %x : f32 to i32
  return
}

// -----

// Every op of the table passes (a sample of each lowering).
func.func @supported(%s: f32, %n: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.splat %s : tensor<128xf32>
  %i = tile.splat %n : tensor<128xi32>
  %a = math.erf %x : tensor<128xf32>
  %b = math.tanh %a : tensor<128xf32>
  %c = math.powf %b, %x : tensor<128xf32>
  %d = math.exp %c : tensor<128xf32>
  %e = arith.remsi %i, %i : tensor<128xi32>
  %f = arith.sitofp %e : tensor<128xi32> to tensor<128xf32>
  %g = arith.maxnumf %d, %f : tensor<128xf32>
  return
}
