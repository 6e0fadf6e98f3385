// Kernel bodies compute only with the element types both the GPU backend
// and the interpreter support (f16, bf16, f32, f64, i1, i8, i16, i32, i64,
// index, pointers); tiles hold at most 2^31 elements; regions nest at most
// 64 deep; kernel names are identifiers. Each case used to crash a later
// stage or give a wrong answer.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

func.func @complex_tile(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  // expected-error @+1 {{'arith.constant' op result has type 'tensor<2xcomplex<f32>>', which tile kernel 'complex_tile' cannot compute with}}
  %c = arith.constant dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>
  return
}

// -----

// An f8 sum is rounded to f8 on the GPU; the interpreter computed it in f32.
func.func @f8_add(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  // expected-error @+1 {{'arith.constant' op result has type 'f8E4M3FN', which tile kernel 'f8_add' cannot compute with}}
  %a = arith.constant 1.0 : f8E4M3FN
  %b = arith.addf %a, %a : f8E4M3FN
  %c = arith.extf %b : f8E4M3FN to f32
  tile.store %p, %c : !tile.ptr<f32>
  return
}

// -----

func.func @f6_tile(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  // expected-error @+1 {{'arith.constant' op result has type 'tensor<4xf6E2M3FN>', which tile kernel 'f6_tile' cannot compute with}}
  %a = arith.constant dense<1.0> : tensor<4xf6E2M3FN>
  return
}

// -----

// The interpreter computed i128 in 64 bits.
func.func @i128_scalar(%p: !tile.ptr<i64>, %x: i64) attributes {tile.kernel} {
  // expected-error @+1 {{'arith.extsi' op result has type 'i128', which tile kernel 'i128_scalar' cannot compute with}}
  %w = arith.extsi %x : i64 to i128
  %m = arith.muli %w, %w : i128
  %t = arith.trunci %m : i128 to i64
  tile.store %p, %t : !tile.ptr<i64>
  return
}

// -----

func.func @loop_carried_f8(%p: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant 0.0 : f16
  // expected-error @+1 {{'arith.truncf' op result has type 'f8E5M2', which tile kernel 'loop_carried_f8' cannot compute with}}
  %z8 = arith.truncf %z : f16 to f8E5M2
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z8) -> (f8E5M2) : i32 {
    scf.yield %a : f8E5M2
  }
  return
}

// -----

// 2^64 elements used to wrap to an empty tile (printed as [] with exit 0).
func.func @tile_2_64(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  // expected-error @+1 {{'arith.constant' op result 'tensor<4294967296x4294967296xf32>' has more elements than a tile may hold (2^31)}}
  %c = arith.constant dense<1.0> : tensor<4294967296x4294967296xf32>
  return
}

// -----

func.func @splat_2_32(%x: f32) {
  // expected-error @+1 {{'tile.splat' op result #0 'tensor<4294967296xf32>' has more elements than a tile may hold (2^31)}}
  %r = tile.splat %x : tensor<4294967296xf32>
  return
}

// -----

// expected-error @+1 {{block 'tensor<65536x65536xf32>' has more elements than a tile may hold (2^31)}}
func.func @huge_block(%b: !tile.block_ptr<tensor<65536x65536xf32>>)

// -----

func.func @nested_65(%p: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
    scf.for %i0 = %c0 to %n step %c1 : i32 {
    scf.for %i1 = %c0 to %n step %c1 : i32 {
    scf.for %i2 = %c0 to %n step %c1 : i32 {
    scf.for %i3 = %c0 to %n step %c1 : i32 {
    scf.for %i4 = %c0 to %n step %c1 : i32 {
    scf.for %i5 = %c0 to %n step %c1 : i32 {
    scf.for %i6 = %c0 to %n step %c1 : i32 {
    scf.for %i7 = %c0 to %n step %c1 : i32 {
    scf.for %i8 = %c0 to %n step %c1 : i32 {
    scf.for %i9 = %c0 to %n step %c1 : i32 {
    scf.for %i10 = %c0 to %n step %c1 : i32 {
    scf.for %i11 = %c0 to %n step %c1 : i32 {
    scf.for %i12 = %c0 to %n step %c1 : i32 {
    scf.for %i13 = %c0 to %n step %c1 : i32 {
    scf.for %i14 = %c0 to %n step %c1 : i32 {
    scf.for %i15 = %c0 to %n step %c1 : i32 {
    scf.for %i16 = %c0 to %n step %c1 : i32 {
    scf.for %i17 = %c0 to %n step %c1 : i32 {
    scf.for %i18 = %c0 to %n step %c1 : i32 {
    scf.for %i19 = %c0 to %n step %c1 : i32 {
    scf.for %i20 = %c0 to %n step %c1 : i32 {
    scf.for %i21 = %c0 to %n step %c1 : i32 {
    scf.for %i22 = %c0 to %n step %c1 : i32 {
    scf.for %i23 = %c0 to %n step %c1 : i32 {
    scf.for %i24 = %c0 to %n step %c1 : i32 {
    scf.for %i25 = %c0 to %n step %c1 : i32 {
    scf.for %i26 = %c0 to %n step %c1 : i32 {
    scf.for %i27 = %c0 to %n step %c1 : i32 {
    scf.for %i28 = %c0 to %n step %c1 : i32 {
    scf.for %i29 = %c0 to %n step %c1 : i32 {
    scf.for %i30 = %c0 to %n step %c1 : i32 {
    scf.for %i31 = %c0 to %n step %c1 : i32 {
    scf.for %i32 = %c0 to %n step %c1 : i32 {
    scf.for %i33 = %c0 to %n step %c1 : i32 {
    scf.for %i34 = %c0 to %n step %c1 : i32 {
    scf.for %i35 = %c0 to %n step %c1 : i32 {
    scf.for %i36 = %c0 to %n step %c1 : i32 {
    scf.for %i37 = %c0 to %n step %c1 : i32 {
    scf.for %i38 = %c0 to %n step %c1 : i32 {
    scf.for %i39 = %c0 to %n step %c1 : i32 {
    scf.for %i40 = %c0 to %n step %c1 : i32 {
    scf.for %i41 = %c0 to %n step %c1 : i32 {
    scf.for %i42 = %c0 to %n step %c1 : i32 {
    scf.for %i43 = %c0 to %n step %c1 : i32 {
    scf.for %i44 = %c0 to %n step %c1 : i32 {
    scf.for %i45 = %c0 to %n step %c1 : i32 {
    scf.for %i46 = %c0 to %n step %c1 : i32 {
    scf.for %i47 = %c0 to %n step %c1 : i32 {
    scf.for %i48 = %c0 to %n step %c1 : i32 {
    scf.for %i49 = %c0 to %n step %c1 : i32 {
    scf.for %i50 = %c0 to %n step %c1 : i32 {
    scf.for %i51 = %c0 to %n step %c1 : i32 {
    scf.for %i52 = %c0 to %n step %c1 : i32 {
    scf.for %i53 = %c0 to %n step %c1 : i32 {
    scf.for %i54 = %c0 to %n step %c1 : i32 {
    scf.for %i55 = %c0 to %n step %c1 : i32 {
    scf.for %i56 = %c0 to %n step %c1 : i32 {
    scf.for %i57 = %c0 to %n step %c1 : i32 {
    scf.for %i58 = %c0 to %n step %c1 : i32 {
    scf.for %i59 = %c0 to %n step %c1 : i32 {
    scf.for %i60 = %c0 to %n step %c1 : i32 {
    scf.for %i61 = %c0 to %n step %c1 : i32 {
    scf.for %i62 = %c0 to %n step %c1 : i32 {
    scf.for %i63 = %c0 to %n step %c1 : i32 {
    // expected-error @+1 {{'scf.for' op is nested 65 regions deep in tile kernel 'nested_65'; the limit is 64}}
    scf.for %inner = %c0 to %n step %c1 : i32 {
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
    }
  return
}

// -----

// expected-error @+1 {{'tile.metadata' must be a string}}
module attributes {tile.metadata = 3 : i32} {
}

// -----

// expected-error @+1 {{'tile.shared_bytes' must be a non-negative integer}}
module attributes {tile.shared_bytes = -1 : i64} {
}

// -----

// expected-error @+1 {{'tile.k_major' must be a unit attribute}}
module attributes {tile.k_major = 1 : i64} {
}

// -----

// Kernel names become PTX entry names: LLVM aborted on "a b".
// expected-error @+1 {{tile kernel name 'a b' is not an identifier (letters, digits and '_', not starting with a digit)}}
func.func @"a b"() attributes {tile.kernel} {
  return
}

// -----

// expected-error @+1 {{tile kernel name '1k' is not an identifier}}
func.func @"1k"() attributes {tile.kernel} {
  return
}

// -----

// expected-error @+1 {{tile kernel 'hidden' must be public (it is launched from the host)}}
func.func private @hidden(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  return
}

// -----

// A misspelled property leaves func.func without its type; the kernel
// attribute's verifier runs first and read it (a crash).
// expected-error @+1 {{'tile.kernel' on a func.func without a name or type}}
"func.func"() <{functoin_type = () -> (), sym_name = "untyped"}> ({
  "func.return"() : () -> ()
}) {tile.kernel} : () -> ()
