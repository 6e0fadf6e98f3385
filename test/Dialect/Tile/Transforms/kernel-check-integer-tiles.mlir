// Integer tiles of index arithmetic (offsets and masks computed from ranges,
// program ids and scalars) hold no registers of their own; integer tiles
// that are data (loaded, reduced, converted from floats) count like float
// tiles. Every estimate includes the 12 registers of the thread's scalars,
// and a load or store the 2 of the 64-bit address of its accesses (one run
// of consecutive addresses here). A 1M-element i32 load used to pass the check, and the compiler
// then ran for over a minute in gigabytes of memory (it is now rejected for
// its code size too, see kernel-check-scaling.mlir).
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics -tile-kernel-check=report

// 64K i32 over 128 threads: 512 registers per thread, 526 in all.
// expected-remark @+2 {{kernel 'loaded_i32': 128 threads, about 526 registers per thread}}
// expected-error @+1 {{out of resources: kernel 'loaded_i32' needs about 526 registers per thread with 4 warps; the limit is 255}}
func.func @loaded_i32(%p: !tile.ptr<i32>) attributes {tile.kernel} {
  %r = tile.range 0, 65536 : tensor<65536xi32>
  %ps = tile.splat %p : tensor<65536x!tile.ptr<i32>>
  %pp = tile.addptr %ps, %r : tensor<65536x!tile.ptr<i32>>, tensor<65536xi32>
  // expected-note @+1 {{peak register use is here}}
  %v = tile.load %pp : tensor<65536x!tile.ptr<i32>>
  %w = arith.addi %v, %v : tensor<65536xi32>
  tile.store %pp, %w : tensor<65536x!tile.ptr<i32>>
  return
}

// -----

// Offsets and a mask of 1024 lanes: index arithmetic only, no registers
// but the base and the store's address.
// expected-remark @+1 {{kernel 'index_only': 128 threads, about 14 registers per thread}}
func.func @index_only(%p: !tile.ptr<i32>, %n: i32) attributes {tile.kernel} {
  %pid = tile.program_id 0
  %c = arith.constant 1024 : i32
  %start = arith.muli %pid, %c : i32
  %r = tile.range 0, 1024 : tensor<1024xi32>
  %s = tile.splat %start : tensor<1024xi32>
  %o = arith.addi %s, %r : tensor<1024xi32>
  %ns = tile.splat %n : tensor<1024xi32>
  %m = arith.cmpi slt, %o, %ns : tensor<1024xi32>
  %ps = tile.splat %p : tensor<1024x!tile.ptr<i32>>
  %pp = tile.addptr %ps, %o : tensor<1024x!tile.ptr<i32>>, tensor<1024xi32>
  tile.store %pp, %o, %m : tensor<1024x!tile.ptr<i32>>
  return
}

// -----

// The same store of loaded values: 1024 i32 over 128 threads is 8 registers.
// expected-remark @+1 {{kernel 'loaded_1024': 128 threads, about 22 registers per thread}}
func.func @loaded_1024(%p: !tile.ptr<i32>, %q: !tile.ptr<i32>) attributes {tile.kernel} {
  %r = tile.range 0, 1024 : tensor<1024xi32>
  %ps = tile.splat %p : tensor<1024x!tile.ptr<i32>>
  %pp = tile.addptr %ps, %r : tensor<1024x!tile.ptr<i32>>, tensor<1024xi32>
  %v = tile.load %pp : tensor<1024x!tile.ptr<i32>>
  %qs = tile.splat %q : tensor<1024x!tile.ptr<i32>>
  %qp = tile.addptr %qs, %r : tensor<1024x!tile.ptr<i32>>, tensor<1024xi32>
  tile.store %qp, %v : tensor<1024x!tile.ptr<i32>>
  return
}
