// --print, --dump and the buffer initializers, with the small kernels
// below (--kernel picks one).
//
// REQUIRES: tile-run
//
// DEFINE: %{run} = %python %S/Inputs/run.py tile-run --mode=interp %s --quiet
// (run.py always exits 0; where no FileCheck follows, tile-run runs directly.)
// DEFINE: %{direct} = tile-run --mode=interp %s --quiet

// --print: every element of a 16-element buffer, in --print order, after
// the run; iota in the comma form of a shape counts in row-major order.
// RUN: %{run} --kernel copy16 --arg dst=f32[16] --arg src=f32[4,4]:iota \
// RUN:     --print dst --print src \
// RUN:   | FileCheck %s --check-prefix=IOTA --match-full-lines
// IOTA:      $ tile-run
// IOTA-NEXT: dst = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
// IOTA-NEXT: src = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
// IOTA-NEXT: [exit 0]

// Without --quiet the progress lines come first, then the prints.
// RUN: %python %S/Inputs/run.py tile-run --mode=interp %s --kernel copy16 \
// RUN:     --arg dst=f32[16] --arg src=f32[16]:ones --print dst \
// RUN:   | FileCheck %s --check-prefix=LOUD --match-full-lines
// LOUD:      $ tile-run
// LOUD-NEXT: tile-run: kernel @copy16, grid (1, 1, 1), in the interpreter
// LOUD-NEXT: tile-run: interpreter done in {{.*}} s
// LOUD-NEXT: dst = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
// LOUD-NEXT: [exit 0]

// At most 64 elements are printed. The kernel writes the first 16 of 100;
// the rest keep their zeros.
// RUN: %{run} --kernel copy16 --arg dst=f32[100]:zeros --arg 'src=f32[16]:fill(2.5)' \
// RUN:     --print dst \
// RUN:   | FileCheck %s --check-prefix=LONG --match-full-lines
// LONG:      $ tile-run
// LONG-NEXT: dst = [{{(2\.5, ){16}(0, ){47}0}}, ... (36 more)]
// LONG-NEXT: [exit 0]

// poison: NaN for floats; printed as nan. A buffer the kernel does not
// write keeps it.
// RUN: %{run} --kernel copy16_f16 --arg dst=f32[16] --arg src=f32[16]:zeros \
// RUN:     --arg 'h=f16[4]:poison' --print h \
// RUN:   | FileCheck %s --check-prefix=POISON --match-full-lines
// POISON:      $ tile-run
// POISON-NEXT: h = [nan, nan, nan, nan]
// POISON-NEXT: [exit 0]

// rand(LO,HI) stays in [LO, HI).
// RUN: %{run} --kernel copy16 --arg dst=f32[16] --arg 'src=f32[16]:rand(2,3)' \
// RUN:     --print dst \
// RUN:   | FileCheck %s --check-prefix=RAND --match-full-lines
// RAND:      $ tile-run
// RAND-NEXT: dst = [{{(2(\.[0-9]+)?, ){15}2(\.[0-9]+)?}}]
// RAND-NEXT: [exit 0]

// --dump writes the raw little-endian elements: 16 f32 are 64 bytes, 4 f16
// are 8 bytes; dumping creates the file.
// RUN: rm -f %t.dst.bin %t.h.bin
// RUN: %{run} --kernel copy16_f16 --arg dst=f32[16] --arg src=f32[16]:iota \
// RUN:     --arg 'h=f16[4]:ones' --dump dst=%t.dst.bin --dump h=%t.h.bin \
// RUN:   | FileCheck %s --check-prefix=DUMP --match-full-lines
// DUMP:      $ tile-run
// DUMP-NEXT: [exit 0]
// RUN: wc -c < %t.dst.bin | FileCheck %s --check-prefix=SIZE64
// SIZE64: {{^ *}}64{{$}}
// RUN: wc -c < %t.h.bin | FileCheck %s --check-prefix=SIZE8
// SIZE8: {{^ *}}8{{$}}
// f16 1.0 is 0x3c00, little-endian: 00 3c, four times.
// RUN: od -An -tx1 -v %t.h.bin | FileCheck %s --check-prefix=HALF-BYTES
// HALF-BYTES: 00 3c 00 3c 00 3c 00 3c

// file(PATH) reads a dump back: the copy of iota is iota.
// RUN: %{run} --kernel copy16 --arg dst=f32[16]:poison --arg 'src=f32[16]:file(%t.dst.bin)' \
// RUN:     --print dst \
// RUN:   | FileCheck %s --check-prefix=FILE --match-full-lines
// FILE:      $ tile-run
// FILE-NEXT: dst = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
// FILE-NEXT: [exit 0]

// The same file as a 2-d buffer of the same size.
// RUN: %{run} --kernel copy16 --arg dst=f32[16]:poison --arg 'src=f32[2x8]:file(%t.dst.bin)' \
// RUN:     --print dst \
// RUN:   | FileCheck %s --check-prefix=FILE --match-full-lines

// A dump of the buffer before and after the kernel: --dump writes the final
// contents. dst starts as fill(7) and becomes the copy of src.
// RUN: %{direct} --kernel copy16 --arg 'dst=f32[16]:fill(7)' --arg src=f32[16]:iota \
// RUN:     --dump dst=%t.after.bin
// RUN: cmp %t.dst.bin %t.after.bin

// --seed: the same seed gives the same random inputs, another seed others.
// RUN: %{direct} --kernel copy16 --arg dst=f32[16]:zeros --arg src=f32[16]:randn \
// RUN:     --seed 5 --dump src=%t.seed5a.bin
// RUN: %{direct} --kernel copy16 --arg dst=f32[16]:zeros --arg src=f32[16]:randn \
// RUN:     --seed 5 --dump src=%t.seed5b.bin
// RUN: %{direct} --kernel copy16 --arg dst=f32[16]:zeros --arg src=f32[16]:randn \
// RUN:     --seed 6 --dump src=%t.seed6.bin
// RUN: cmp %t.seed5a.bin %t.seed5b.bin
// RUN: not cmp -s %t.seed5a.bin %t.seed6.bin
// Each buffer draws from its own stream: src's values do not depend on
// whether the buffer before it is random (dst without an initializer, and
// not the output of a check, is randn) or not.
// RUN: %{direct} --kernel copy16 --arg dst=f32[16] --arg src=f32[16]:randn \
// RUN:     --seed 5 --dump src=%t.seed5c.bin
// RUN: cmp %t.seed5a.bin %t.seed5c.bin
// The default seed is 0.
// RUN: %{direct} --kernel copy16 --arg dst=f32[16]:zeros --arg src=f32[16]:randn \
// RUN:     --dump src=%t.default.bin
// RUN: %{direct} --kernel copy16 --arg dst=f32[16]:zeros --arg src=f32[16]:randn \
// RUN:     --seed 0 --dump src=%t.seed0.bin
// RUN: cmp %t.default.bin %t.seed0.bin

// Integer buffers print exactly (not rounded to 7 digits): 2000000000 / 7,
// the wrapped 2000000000 + 2000000000, 1e20 saturated by fptosi, and the
// untouched last element left at its poison bytes 0x5A5A5A5A.
// RUN: %{run} --kernel ints --arg 'out=i32[4]:poison' --arg a=i32:2000000000 \
// RUN:     --arg b=i32:7 --arg f=f32:1e20 --print out \
// RUN:   | FileCheck %s --check-prefix=INTS --match-full-lines
// INTS:      $ tile-run
// INTS-NEXT: out = [285714285, -294967296, 2147483647, 1515870810]
// INTS-NEXT: [exit 0]

func.func @copy16(%dst: !tile.ptr<f32>, %src: !tile.ptr<f32>)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %offs = tile.range 0, 16 : tensor<16xi32>
  %src_base = tile.splat %src : tensor<16x!tile.ptr<f32>>
  %src_ptrs = tile.addptr %src_base, %offs : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  %x = tile.load %src_ptrs : tensor<16x!tile.ptr<f32>>
  %dst_base = tile.splat %dst : tensor<16x!tile.ptr<f32>>
  %dst_ptrs = tile.addptr %dst_base, %offs : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  tile.store %dst_ptrs, %x : tensor<16x!tile.ptr<f32>>
  return
}

// copy16 with an extra f16 buffer it does not touch.
func.func @copy16_f16(%dst: !tile.ptr<f32>, %src: !tile.ptr<f32>, %h: !tile.ptr<f16>)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %offs = tile.range 0, 16 : tensor<16xi32>
  %src_base = tile.splat %src : tensor<16x!tile.ptr<f32>>
  %src_ptrs = tile.addptr %src_base, %offs : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  %x = tile.load %src_ptrs : tensor<16x!tile.ptr<f32>>
  %dst_base = tile.splat %dst : tensor<16x!tile.ptr<f32>>
  %dst_ptrs = tile.addptr %dst_base, %offs : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  tile.store %dst_ptrs, %x : tensor<16x!tile.ptr<f32>>
  return
}

// out[0] = a / b, out[1] = a + a, out[2] = fptosi(f); out[3] is not written.
func.func @ints(%out: !tile.ptr<i32>, %a: i32, %b: i32, %f: f32)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %q = arith.divsi %a, %b : i32
  tile.store %out, %q : !tile.ptr<i32>
  %c1 = arith.constant 1 : i32
  %p1 = tile.addptr %out, %c1 : !tile.ptr<i32>, i32
  %s = arith.addi %a, %a : i32
  tile.store %p1, %s : !tile.ptr<i32>
  %c2 = arith.constant 2 : i32
  %p2 = tile.addptr %out, %c2 : !tile.ptr<i32>, i32
  %i = arith.fptosi %f : f32 to i32
  tile.store %p2, %i : !tile.ptr<i32>
  return
}
