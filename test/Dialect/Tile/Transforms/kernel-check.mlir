// tile-kernel-check with its default limits (1048576 elements per tile, 255
// registers per thread).
//
// The register counts are matched with a regex here: kernel-check-estimate.mlir
// pins the exact estimates; kernel-check-quiet.mlir runs without `report`.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics -tile-kernel-check=report

// expected-remark-re @+1 {{kernel 'softmax': 128 threads, about {{[0-9]+}} registers per thread}}
func.func @softmax(%in: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %pid = tile.program_id 0
  %row = arith.muli %pid, %n : i32
  %base = tile.addptr %in, %row : !tile.ptr<f32>, i32
  %cols = tile.range 0, 1024 : tensor<1024xi32>
  %bases = tile.splat %base : tensor<1024x!tile.ptr<f32>>
  %ptrs = tile.addptr %bases, %cols : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %nn = tile.splat %n : tensor<1024xi32>
  %mask = arith.cmpi slt, %cols, %nn : tensor<1024xi32>
  %ninf = arith.constant dense<0xFF800000> : tensor<1024xf32>
  %x = tile.load %ptrs, %mask, %ninf : tensor<1024x!tile.ptr<f32>>
  %m = tile.reduce max %x axis = 0 : tensor<1024xf32> -> f32
  %ms = tile.splat %m : tensor<1024xf32>
  %z = arith.subf %x, %ms : tensor<1024xf32>
  %e = math.exp %z : tensor<1024xf32>
  %s = tile.reduce sum %e axis = 0 : tensor<1024xf32> -> f32
  %ss = tile.splat %s : tensor<1024xf32>
  %y = arith.divf %e, %ss : tensor<1024xf32>
  %obase = tile.addptr %out, %row : !tile.ptr<f32>, i32
  %obases = tile.splat %obase : tensor<1024x!tile.ptr<f32>>
  %optrs = tile.addptr %obases, %cols : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %optrs, %y, %mask : tensor<1024x!tile.ptr<f32>>
  return
}

// -----

// The thread count is 32 x tile.num_warps.

// expected-remark @+1 {{kernel 'one_warp': 32 threads, about}}
func.func @one_warp(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.range 0, 64 : tensor<64xi32>
  tile.print "r" %r : tensor<64xi32>
  return
}

// expected-remark @+1 {{kernel 'eight_warps': 256 threads, about}}
func.func @eight_warps(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %r = tile.range 0, 64 : tensor<64xi32>
  tile.print "r" %r : tensor<64xi32>
  return
}

// expected-remark @+1 {{kernel 'max_warps': 1024 threads, about}}
func.func @max_warps(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 32 : i64} {
  %r = tile.range 0, 64 : tensor<64xi32>
  tile.print "r" %r : tensor<64xi32>
  return
}

// A kernel without tiles needs the registers of its scalars only.
// expected-remark @+1 {{kernel 'scalars_only': 128 threads, about 12 registers per thread}}
func.func @scalars_only(%p: !tile.ptr<f32>, %x: f32) attributes {tile.kernel} {
  tile.store %p, %x : !tile.ptr<f32>
  return
}

// -----

// Functions that no kernel calls are not checked, whatever their tiles.
func.func @helper() -> tensor<2097152xf32> {
  %c = arith.constant dense<1.0> : tensor<2097152xf32>
  return %c : tensor<2097152xf32>
}

// -----

// 64K f32 over 128 threads is 512 registers per thread at least.
// expected-remark @+2 {{kernel 'too_big': 128 threads, about}}
// expected-error-re @+1 {{out of resources: kernel 'too_big' needs about {{[0-9]+}} registers per thread with 4 warps; the limit is 255 (use smaller tiles or more warps)}}
func.func @too_big(%p: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %r = tile.range 0, 65536 : tensor<65536xi32>
  // expected-note @+1 {{peak register use is here}}
  %x = arith.sitofp %r : tensor<65536xi32> to tensor<65536xf32>
  tile.print "x" %x : tensor<65536xf32>
  return
}

// -----

// The same tiles are 64 registers per thread with 32 warps: under 255, but
// 1024 threads share the register file, 64 registers each.
// expected-remark @+2 {{kernel 'more_warps': 1024 threads, about 76 registers per thread (limit 64)}}
// expected-warning @+1 {{kernel 'more_warps' needs about 76 registers per thread, more than the 64 a thread may use with 1024 threads: registers may spill to local memory}}
func.func @more_warps(%p: !tile.ptr<f32>, %n: i32) attributes {tile.kernel, tile.num_warps = 32 : i32} {
  %r = tile.range 0, 65536 : tensor<65536xi32>
  // expected-note @+1 {{peak register use is here}}
  %x = arith.sitofp %r : tensor<65536xi32> to tensor<65536xf32>
  tile.print "x" %x : tensor<65536xf32>
  return
}

// -----

// The peak may be inside a loop body; each kernel of a module is checked
// and reported, also after an error in another one.
// expected-remark @+2 {{kernel 'peak_in_loop': 32 threads, about}}
// expected-error-re @+1 {{out of resources: kernel 'peak_in_loop' needs about {{[0-9]+}} registers per thread with 1 warps; the limit is 255}}
func.func @peak_in_loop(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %r = tile.range 0, 16384 : tensor<16384xi32>
    // expected-note @+1 {{peak register use is here}}
    %x = arith.sitofp %r : tensor<16384xi32> to tensor<16384xf32>
    tile.print "x" %x : tensor<16384xf32>
  }
  return
}

// expected-remark @+1 {{kernel 'fits': 32 threads, about}}
func.func @fits(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.range 0, 32 : tensor<32xi32>
  tile.print "r" %r : tensor<32xi32>
  return
}

// -----

// A tile above max-tile-elements is rejected before the register estimate
// (no remark).
func.func @huge_tile(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 32 : i32} {
  // expected-error @+1 {{tile 'tensor<2097152xf32>' in kernel 'huge_tile' has 2097152 elements; the limit is 1048576}}
  %c = arith.constant dense<1.0> : tensor<2097152xf32>
  tile.print "c" %c : tensor<2097152xf32>
  return
}

// -----

// A tile of exactly max-tile-elements passes the size check (and then gives
// each thread more elements than the lowering unrolls).
func.func @limit_tile(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 32 : i32} {
  // expected-error @+1 {{tile 'tensor<1024x1024xf32>' gives each of the 1024 threads of kernel 'limit_tile' 1024 elements; the limit is 512 (the lowering unrolls tiles per element)}}
  %c = arith.constant dense<1.0> : tensor<1024x1024xf32>
  tile.print "c" %c : tensor<1024x1024xf32>
  return
}

// -----

// Exactly max-thread-elements per thread passes that check (and then needs
// too many registers). Index tiles are held to it too.
// expected-remark @+2 {{kernel 'limit_thread': 1024 threads}}
// expected-error @+1 {{out of resources: kernel 'limit_thread'}}
func.func @limit_thread(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 32 : i32} {
  %r = tile.range 0, 524288 : tensor<524288xi32>
  // expected-note @+1 {{peak register use is here}}
  %x = arith.sitofp %r : tensor<524288xi32> to tensor<524288xf32>
  tile.print "x" %x : tensor<524288xf32>
  return
}

// -----

func.func @index_per_thread(%p: !tile.ptr<i32>) attributes {tile.kernel} {
  // expected-error @+1 {{tile 'tensor<131072xi32>' gives each of the 128 threads of kernel 'index_per_thread' 1024 elements; the limit is 512}}
  %r = tile.range 0, 131072 : tensor<131072xi32>
  %ps = tile.splat %p : tensor<131072x!tile.ptr<i32>>
  %pp = tile.addptr %ps, %r : tensor<131072x!tile.ptr<i32>>, tensor<131072xi32>
  tile.store %pp, %r : tensor<131072x!tile.ptr<i32>>
  return
}
