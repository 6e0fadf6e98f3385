// -tile-test-axis-info reports, for every integer, index and pointer result,
// its contiguity, divisibility and constancy per dimension (scalars have one
// pseudo-dimension), and the vector width of every load and store.
//
// RUN: tile-opt %s -split-input-file -tile-test-axis-info -verify-diagnostics -o /dev/null

// tile.range s, e: one run of e - s values starting at s.
func.func @range() {
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1]}}
  %0 = tile.range 0, 128 : tensor<128xi32>
  // expected-remark @below {{contiguity = [16], divisibility = [8], constancy = [1]}}
  %1 = tile.range 8, 24 : tensor<16xi32>
  // expected-remark @below {{contiguity = [4], divisibility = [1], constancy = [1]}}
  %2 = tile.range 3, 7 : tensor<4xi32>
  return
}

// -----

// Scalar constants: the power of two dividing the value (0: the cap, 2^30).
// Splat constants: constant over each whole dimension. Other dense
// constants: exact facts.
func.func @constants() {
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %0 = arith.constant 48 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [1]}}
  %1 = arith.constant 0 : i64
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1]}}
  %2 = arith.constant -24 : index
  // expected-remark @below {{contiguity = [1, 1], divisibility = [4, 4], constancy = [4, 8]}}
  %3 = arith.constant dense<12> : tensor<4x8xi32>
  // expected-remark @below {{contiguity = [4], divisibility = [8], constancy = [1]}}
  %4 = arith.constant dense<[0, 1, 2, 3, 8, 9, 10, 11]> : tensor<8xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [4]}}
  %5 = arith.constant dense<[5, 5, 5, 5, 7, 7, 7, 7]> : tensor<8xi32>
  // expected-remark @below {{contiguity = [1, 4], divisibility = [1, 16], constancy = [1, 1]}}
  %6 = arith.constant dense<[[0, 1, 2, 3], [16, 17, 18, 19]]> : tensor<2x4xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [2]}}
  %7 = arith.constant dense<[true, true, false, false]> : tensor<4xi1>
  // Floats are not tracked: no remark.
  %8 = arith.constant 1.0 : f32
  return
}

// -----

func.func @program_ids() {
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %0 = tile.program_id 0
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %1 = tile.num_programs 1
  return
}

// -----

// Kernel pointer arguments are 16-byte aligned; `tile.divisibility` replaces
// that (its power-of-two part: 24 -> 8), also when it promises less.
func.func @kernel_args(%p: !tile.ptr<f32>, %q: !tile.ptr<f32> {tile.divisibility = 64 : i32},
                       %n: i32 {tile.divisibility = 16 : i32},
                       %m: i32 {tile.divisibility = 24 : i32}, %k: i32,
                       %u: !tile.ptr<f32> {tile.divisibility = 4 : i32})
    attributes {tile.kernel} {
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64]}}
  %0 = tile.splat %p : tensor<64x!tile.ptr<f32>>
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [64]}}
  %1 = tile.splat %q : tensor<64x!tile.ptr<f32>>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64]}}
  %2 = tile.splat %n : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [64]}}
  %3 = tile.splat %m : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [64]}}
  %4 = tile.splat %k : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [64]}}
  %5 = tile.splat %u : tensor<64x!tile.ptr<f32>>
  return
}

// -----

// A helper function may be handed any interior pointer.
func.func @helper_args(%p: !tile.ptr<f32>, %q: !tile.ptr<f32> {tile.divisibility = 32 : i32}) {
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [64]}}
  %0 = tile.splat %p : tensor<64x!tile.ptr<f32>>
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [64]}}
  %1 = tile.splat %q : tensor<64x!tile.ptr<f32>>
  return
}

// -----

// expand_dims: the new size-1 dimension may only claim a divisibility of
// every element (1 for a range, whose run starts are divisible by 2^30).
// broadcast: constant along the broadcast dimensions.
func.func @shapes(%n: i32 {tile.divisibility = 8 : i32}) {
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1]}}
  %r = tile.range 0, 128 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1, 128], divisibility = [1, 1073741824], constancy = [1, 1]}}
  %row = tile.expand_dims %r axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  // expected-remark @below {{contiguity = [128, 1], divisibility = [1073741824, 1], constancy = [1, 1]}}
  %col = tile.expand_dims %r axis = 1 : tensor<128xi32> -> tensor<128x1xi32>
  // expected-remark @below {{contiguity = [1, 128], divisibility = [1, 1073741824], constancy = [64, 1]}}
  %rows = tile.broadcast %row : tensor<1x128xi32> -> tensor<64x128xi32>
  // expected-remark @below {{contiguity = [128, 1], divisibility = [1073741824, 1], constancy = [1, 64]}}
  %cols = tile.broadcast %col : tensor<128x1xi32> -> tensor<128x64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [32]}}
  %s = tile.splat %n : tensor<32xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [8, 8], constancy = [32, 1]}}
  %se = tile.expand_dims %s axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [8, 8], constancy = [32, 16]}}
  %sb = tile.broadcast %se : tensor<32x1xi32> -> tensor<32x16xi32>
  // expected-remark @below {{contiguity = [128, 1], divisibility = [1073741824, 1], constancy = [1, 64]}}
  %t = tile.trans %rows order = [1, 0] : tensor<64x128xi32> -> tensor<128x64xi32>
  // reshape keeps runs along the innermost dimension only.
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1]}}
  %f = tile.reshape %rows : tensor<64x128xi32> -> tensor<8192xi32>
  // expected-remark @below {{contiguity = [1, 32], divisibility = [1, 32], constancy = [1, 1]}}
  %g = tile.reshape %r : tensor<128xi32> -> tensor<4x32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [64]}}
  %h = tile.reshape %cols : tensor<128x64xi32> -> tensor<8192xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [512]}}
  %u = tile.reshape %sb : tensor<32x16xi32> -> tensor<512xi32>
  return
}

// -----

#a = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// Layouts are ignored.
func.func @convert_layout() {
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1]}}
  %r = tile.range 16, 144 : tensor<128xi32, #a>
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1]}}
  %c = tile.convert_layout %r : tensor<128xi32, #a> -> tensor<128xi32, #b>
  return
}

// -----

// addi: a run plus a value constant over the run is a run; run starts are
// at multiples of the result's run length, where neither operand need start
// a run of its own.
func.func @add_sub(%a: i32 {tile.divisibility = 64 : i32}, %b: i32) {
  // expected-remark @below {{contiguity = [16], divisibility = [1073741824], constancy = [1]}}
  %r = tile.range 0, 16 : tensor<16xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [16]}}
  %sa = tile.splat %a : tensor<16xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %sb = tile.splat %b : tensor<16xi32>
  // expected-remark @below {{contiguity = [16], divisibility = [64], constancy = [1]}}
  %0 = arith.addi %r, %sa : tensor<16xi32>
  // expected-remark @below {{contiguity = [16], divisibility = [1], constancy = [1]}}
  %1 = arith.addi %sb, %r : tensor<16xi32>
  // Runs of 4 starting at 0, 12, 24, 36: divisible by 4 only.
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [4]}}
  %c = arith.constant dense<[0, 0, 0, 0, 8, 8, 8, 8, 16, 16, 16, 16, 24, 24, 24, 24]> : tensor<16xi32>
  // expected-remark @below {{contiguity = [4], divisibility = [4], constancy = [1]}}
  %2 = arith.addi %r, %c : tensor<16xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %3 = arith.addi %r, %r : tensor<16xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %4 = arith.addi %sa, %sb : tensor<16xi32>
  // subi: run - constant is a run, constant - run is not; run - run is
  // constant.
  // expected-remark @below {{contiguity = [16], divisibility = [64], constancy = [1]}}
  %5 = arith.subi %0, %sa : tensor<16xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %6 = arith.subi %sa, %r : tensor<16xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %7 = arith.subi %1, %r : tensor<16xi32>
  // Constants fold.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %c3 = arith.constant 3 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %c5 = arith.constant 5 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1]}}
  %8 = arith.addi %c3, %c5 : i32
  return
}

// -----

// muli: x * 1 keeps x's runs; the divisibility of a product is the product
// of the divisibilities of every element (1 for a range).
func.func @mul(%a: i32 {tile.divisibility = 4 : i32}, %b: i32 {tile.divisibility = 8 : i32}) {
  // expected-remark @below {{contiguity = [32], divisibility = [1073741824], constancy = [1]}}
  %r = tile.range 0, 32 : tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [32]}}
  %one = arith.constant dense<1> : tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [32]}}
  %zero = arith.constant dense<0> : tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [32]}}
  %sa = tile.splat %a : tensor<32xi32>
  // expected-remark @below {{contiguity = [32], divisibility = [1073741824], constancy = [1]}}
  %0 = arith.muli %r, %one : tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1]}}
  %1 = arith.muli %r, %sa : tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [32]}}
  %2 = arith.muli %r, %zero : tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [1]}}
  %3 = arith.muli %a, %b : i32
  return
}

// -----

// Division and remainder by powers of two.
func.func @div_rem() {
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1]}}
  %r = tile.range 0, 128 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [128]}}
  %c4 = arith.constant dense<4> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [128]}}
  %c8 = arith.constant dense<8> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [2], constancy = [128]}}
  %c2 = arith.constant dense<2> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %c3 = arith.constant dense<3> : tensor<128xi32>
  // x / 4 (rounding down) is constant over aligned groups of 4 of a run.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [4]}}
  %0 = arith.divui %r, %c4 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [4]}}
  %1 = arith.shrui %r, %c2 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [4]}}
  %2 = arith.shrsi %r, %c2 : tensor<128xi32>
  // divsi truncates: -4 / 4 = -1 but -3 / 4 = 0.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %3 = arith.divsi %r, %c4 : tensor<128xi32>
  // x % 8 keeps runs of 8 that start at 0.
  // expected-remark @below {{contiguity = [8], divisibility = [1073741824], constancy = [1]}}
  %4 = arith.remui %r, %c8 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %5 = arith.remsi %r, %c8 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %6 = arith.remui %r, %c3 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1]}}
  %s = arith.muli %r, %c8 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [2], constancy = [1]}}
  %7 = arith.divsi %s, %c4 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [1]}}
  %8 = arith.remsi %s, %c4 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1]}}
  %9 = arith.shli %r, %c2 : tensor<128xi32>
  return
}

// -----

func.func @bitwise_minmax_select(%a: i32 {tile.divisibility = 16 : i32},
                                 %b: i32 {tile.divisibility = 4 : i32}, %c: i1) {
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64]}}
  %sa = tile.splat %a : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [64]}}
  %sb = tile.splat %b : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = tile.range 0, 64 : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64]}}
  %0 = arith.andi %sa, %sb : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [64]}}
  %1 = arith.ori %sa, %sb : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [64]}}
  %2 = arith.xori %sa, %sb : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [64]}}
  %3 = arith.maxsi %sa, %sb : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %4 = arith.minui %r, %sa : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [16], constancy = [1]}}
  %x = arith.addi %r, %sa : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [4], constancy = [1]}}
  %y = arith.addi %r, %sb : tensor<64xi32>
  // A scalar condition picks a whole tile.
  // expected-remark @below {{contiguity = [64], divisibility = [4], constancy = [1]}}
  %5 = arith.select %c, %x, %y : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %mask = arith.cmpi slt, %r, %sa : tensor<64xi32>
  // expected-remark @below {{contiguity = [16], divisibility = [4], constancy = [1]}}
  %6 = arith.select %mask, %x, %y : tensor<64xi1>, tensor<64xi32>
  return
}

// -----

func.func @casts(%a: i32 {tile.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = tile.range 0, 64 : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64]}}
  %sa = tile.splat %a : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [16], constancy = [1]}}
  %x = arith.addi %r, %sa : tensor<64xi32>
  // Sign extension keeps the values; zero extension and truncation may
  // break runs (-1, 0 -> 2^32 - 1, 0).
  // expected-remark @below {{contiguity = [64], divisibility = [16], constancy = [1]}}
  %0 = arith.extsi %x : tensor<64xi32> to tensor<64xi64>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %1 = arith.extui %x : tensor<64xi32> to tensor<64xi64>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %2 = arith.trunci %0 : tensor<64xi64> to tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %3 = arith.index_cast %a : i32 to index
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %4 = arith.index_cast %3 : index to i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %c = arith.constant -1 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %5 = arith.extui %c : i32 to i64
  return
}

// -----

// The mask pattern `offsets < splat(n)`: over aligned groups of g lanes the
// offsets are s .. s+g-1 with g | s, and g | n, so the comparison is
// uniform; g is bounded by the offsets' contiguity and the divisibility of
// both sides.
func.func @cmp_mask(%pid: i32, %n16: i32 {tile.divisibility = 16 : i32}, %n: i32) {
  // expected-remark @below {{contiguity = [1], divisibility = [256], constancy = [1]}}
  %c256 = arith.constant 256 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [256], constancy = [1]}}
  %start = arith.muli %pid, %c256 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [256], constancy = [256]}}
  %starts = tile.splat %start : tensor<256xi32>
  // expected-remark @below {{contiguity = [256], divisibility = [1073741824], constancy = [1]}}
  %r = tile.range 0, 256 : tensor<256xi32>
  // expected-remark @below {{contiguity = [256], divisibility = [256], constancy = [1]}}
  %offs = arith.addi %starts, %r : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [256]}}
  %b16 = tile.splat %n16 : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [256]}}
  %b = tile.splat %n : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %0 = arith.cmpi slt, %offs, %b16 : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %1 = arith.cmpi ult, %offs, %b16 : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %2 = arith.cmpi sge, %offs, %b16 : tensor<256xi32>
  // n > offsets is offsets < n.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %3 = arith.cmpi sgt, %b16, %offs : tensor<256xi32>
  // Not uniform: offsets <= n holds for s = n only; == singles one lane out.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %4 = arith.cmpi sle, %offs, %b16 : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %5 = arith.cmpi eq, %offs, %b16 : tensor<256xi32>
  // Nothing known about n.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %6 = arith.cmpi slt, %offs, %b : tensor<256xi32>
  // Offsets whose runs start at odd values: s = 3.
  // expected-remark @below {{contiguity = [256], divisibility = [1], constancy = [1]}}
  %r3 = tile.range 3, 259 : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %7 = arith.cmpi slt, %r3, %b16 : tensor<256xi32>
  // Two uniform operands.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [256]}}
  %8 = arith.cmpi eq, %b16, %b : tensor<256xi32>
  return
}

// -----

// addptr: contiguity in elements, divisibility in bytes (offsets are scaled
// by the element size).
func.func @addptr(%h: !tile.ptr<f16>, %d: !tile.ptr<f64>, %c: !tile.ptr<i8>, %pid: i32)
    attributes {tile.kernel} {
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1]}}
  %c8 = arith.constant 8 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1]}}
  %start = arith.muli %pid, %c8 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [64]}}
  %starts = tile.splat %start : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = tile.range 0, 64 : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [8], constancy = [1]}}
  %offs = arith.addi %starts, %r : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64]}}
  %hs = tile.splat %h : tensor<64x!tile.ptr<f16>>
  // expected-remark @below {{contiguity = [64], divisibility = [16], constancy = [1]}}
  %hp = tile.addptr %hs, %offs : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64]}}
  %ds = tile.splat %d : tensor<64x!tile.ptr<f64>>
  // expected-remark @below {{contiguity = [64], divisibility = [16], constancy = [1]}}
  %dp = tile.addptr %ds, %offs : tensor<64x!tile.ptr<f64>>, tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64]}}
  %cs = tile.splat %c : tensor<64x!tile.ptr<i8>>
  // expected-remark @below {{contiguity = [64], divisibility = [8], constancy = [1]}}
  %cp = tile.addptr %cs, %offs : tensor<64x!tile.ptr<i8>>, tensor<64xi32>
  // At most 16 bytes of alignment: 8 f16, 2 f64 or 8 i8 (divisibility 8).
  // expected-remark @below {{vector width = [8]}}
  %0 = tile.load %hp : tensor<64x!tile.ptr<f16>>
  // expected-remark @below {{vector width = [2]}}
  %1 = tile.load %dp : tensor<64x!tile.ptr<f64>>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  // expected-remark @below {{vector width = [8]}}
  %2 = tile.load %cp : tensor<64x!tile.ptr<i8>>
  // Scalar pointers.
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %p = tile.addptr %h, %start : !tile.ptr<f16>, i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %q = tile.addptr %c, %pid : !tile.ptr<i8>, i32
  // Loaded integers are unknown.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  // expected-remark @below {{vector width = [1]}}
  %4 = tile.load %q : !tile.ptr<i8>
  return
}

// -----

// 2-d pointer tiles: rows of a row-major matrix with a row stride divisible
// by 16 elements.
func.func @addptr_2d(%a: !tile.ptr<f32>, %stride: i32 {tile.divisibility = 16 : i32},
                     %M: i32, %N: i32 {tile.divisibility = 16 : i32})
    attributes {tile.kernel} {
  // expected-remark @below {{contiguity = [32], divisibility = [1073741824], constancy = [1]}}
  %r = tile.range 0, 32 : tensor<32xi32>
  // expected-remark @below {{contiguity = [32, 1], divisibility = [1073741824, 1], constancy = [1, 1]}}
  %rows = tile.expand_dims %r axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  // expected-remark @below {{contiguity = [1, 32], divisibility = [1, 1073741824], constancy = [1, 1]}}
  %cols = tile.expand_dims %r axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [32, 1]}}
  %s = tile.splat %stride : tensor<32x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 1]}}
  %row_offs = arith.muli %rows, %s : tensor<32x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 32]}}
  %row_offs2 = tile.broadcast %row_offs : tensor<32x1xi32> -> tensor<32x32xi32>
  // expected-remark @below {{contiguity = [1, 32], divisibility = [1, 1073741824], constancy = [32, 1]}}
  %cols2 = tile.broadcast %cols : tensor<1x32xi32> -> tensor<32x32xi32>
  // expected-remark @below {{contiguity = [1, 32], divisibility = [1, 16], constancy = [1, 1]}}
  %offs = arith.addi %row_offs2, %cols2 : tensor<32x32xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [32, 32]}}
  %base = tile.splat %a : tensor<32x32x!tile.ptr<f32>>
  // expected-remark @below {{contiguity = [1, 32], divisibility = [4, 16], constancy = [1, 1]}}
  %ptrs = tile.addptr %base, %offs : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
  // expected-remark @below {{vector width = [1, 4]}}
  %v = tile.load %ptrs : tensor<32x32x!tile.ptr<f32>>
  // Masks: rows < M is uniform along each row, cols < N over groups of 16.
  // expected-remark @below {{contiguity = [1, 1], divisibility = [1, 1], constancy = [32, 1]}}
  %Ms = tile.splat %M : tensor<32x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 32]}}
  %Ns = tile.splat %N : tensor<1x32xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [1, 1], constancy = [1, 1]}}
  %row_in = arith.cmpi slt, %rows, %Ms : tensor<32x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [1, 1], constancy = [1, 16]}}
  %col_in = arith.cmpi slt, %cols, %Ns : tensor<1x32xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [1, 1], constancy = [1, 32]}}
  %row_mask = tile.broadcast %row_in : tensor<32x1xi1> -> tensor<32x32xi1>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [1, 1], constancy = [32, 16]}}
  %col_mask = tile.broadcast %col_in : tensor<1x32xi1> -> tensor<32x32xi1>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [1, 1], constancy = [1, 16]}}
  %mask = arith.andi %row_mask, %col_mask : tensor<32x32xi1>
  // expected-remark @below {{vector width = [1, 4]}}
  %w = tile.load %ptrs, %mask : tensor<32x32x!tile.ptr<f32>>
  return
}

// -----

// examples/softmax.mlir as written: the row start is only 4-byte aligned
// and the mask `cols < n_cols` is per lane, so every access is scalar.
func.func @softmax(%out: !tile.ptr<f32>, %in: !tile.ptr<f32>,
                   %in_row_stride: i32, %out_row_stride: i32,
                   %n_rows: i32, %n_cols: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %row = tile.program_id 0
  // expected-remark @below {{contiguity = [1024], divisibility = [1073741824], constancy = [1]}}
  %cols = tile.range 0, 1024 : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1024]}}
  %n_cols_splat = tile.splat %n_cols : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %col_mask = arith.cmpi slt, %cols, %n_cols_splat : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %in_row_offset = arith.muli %row, %in_row_stride : i32
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1]}}
  %in_row_start = tile.addptr %in, %in_row_offset : !tile.ptr<f32>, i32
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1024]}}
  %in_row_starts = tile.splat %in_row_start : tensor<1024x!tile.ptr<f32>>
  // expected-remark @below {{contiguity = [1024], divisibility = [4], constancy = [1]}}
  %in_ptrs = tile.addptr %in_row_starts, %cols : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<1024xf32>
  // expected-remark @below {{vector width = [1]}}
  %x = tile.load %in_ptrs, %col_mask, %neg_inf : tensor<1024x!tile.ptr<f32>>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %out_row_offset = arith.muli %row, %out_row_stride : i32
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1]}}
  %out_row_start = tile.addptr %out, %out_row_offset : !tile.ptr<f32>, i32
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1024]}}
  %out_row_starts = tile.splat %out_row_start : tensor<1024x!tile.ptr<f32>>
  // expected-remark @below {{contiguity = [1024], divisibility = [4], constancy = [1]}}
  %out_ptrs = tile.addptr %out_row_starts, %cols : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  // expected-remark @below {{vector width = [1]}}
  tile.store %out_ptrs, %x, %col_mask : tensor<1024x!tile.ptr<f32>>
  return
}

// -----

// The same kernel with strides and n_cols promised divisible by 16: 16-byte
// vectors (4 x f32) with one mask bit each.
func.func @softmax_hinted(%out: !tile.ptr<f32>, %in: !tile.ptr<f32>,
                          %in_row_stride: i32 {tile.divisibility = 16 : i32},
                          %out_row_stride: i32 {tile.divisibility = 16 : i32},
                          %n_rows: i32, %n_cols: i32 {tile.divisibility = 16 : i32})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %row = tile.program_id 0
  // expected-remark @below {{contiguity = [1024], divisibility = [1073741824], constancy = [1]}}
  %cols = tile.range 0, 1024 : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1024]}}
  %n_cols_splat = tile.splat %n_cols : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %col_mask = arith.cmpi slt, %cols, %n_cols_splat : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %in_row_offset = arith.muli %row, %in_row_stride : i32
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %in_row_start = tile.addptr %in, %in_row_offset : !tile.ptr<f32>, i32
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1024]}}
  %in_row_starts = tile.splat %in_row_start : tensor<1024x!tile.ptr<f32>>
  // expected-remark @below {{contiguity = [1024], divisibility = [16], constancy = [1]}}
  %in_ptrs = tile.addptr %in_row_starts, %cols : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<1024xf32>
  // expected-remark @below {{vector width = [4]}}
  %x = tile.load %in_ptrs, %col_mask, %neg_inf : tensor<1024x!tile.ptr<f32>>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %out_row_offset = arith.muli %row, %out_row_stride : i32
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %out_row_start = tile.addptr %out, %out_row_offset : !tile.ptr<f32>, i32
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1024]}}
  %out_row_starts = tile.splat %out_row_start : tensor<1024x!tile.ptr<f32>>
  // expected-remark @below {{contiguity = [1024], divisibility = [16], constancy = [1]}}
  %out_ptrs = tile.addptr %out_row_starts, %cols : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  // expected-remark @below {{vector width = [4]}}
  tile.store %out_ptrs, %x, %col_mask : tensor<1024x!tile.ptr<f32>>
  return
}

// -----

// scf.for: the induction variable is lb + i * step; loop-carried values are
// joined with what the body yields until nothing changes.
func.func @for_loop(%p: !tile.ptr<f32>, %K: i32) attributes {tile.kernel} {
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [1]}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [1]}}
  %c32 = arith.constant 32 : i32
  // expected-remark @below {{contiguity = [32], divisibility = [1073741824], constancy = [1]}}
  %r = tile.range 0, 32 : tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [32]}}
  %base = tile.splat %p : tensor<32x!tile.ptr<f32>>
  // expected-remark @below {{contiguity = [32], divisibility = [16], constancy = [1]}}
  %ptrs0 = tile.addptr %base, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [32]}}
  %step = tile.splat %c32 : tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [32]}}
  %zero = arith.constant dense<0> : tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [32]}}
  %c8 = arith.constant dense<8> : tensor<32xi32>
  // expected-remark @below {{result #0: contiguity = [32], divisibility = [16], constancy = [1]}}
  // expected-remark @below {{result #1: contiguity = [1], divisibility = [8], constancy = [32]}}
  // expected-remark @below {{result #2: contiguity = [1], divisibility = [1], constancy = [1]}}
  %res:3 = scf.for %k = %c0 to %K step %c32
      iter_args(%ptrs = %ptrs0, %acc = %zero, %other = %r)
      -> (tensor<32x!tile.ptr<f32>>, tensor<32xi32>, tensor<32xi32>) : i32 {
    // %k = 0 + i * 32.
    // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [32]}}
    %ks = tile.splat %k : tensor<32xi32>
    // expected-remark @below {{vector width = [4]}}
    %v = tile.load %ptrs : tensor<32x!tile.ptr<f32>>
    // expected-remark @below {{contiguity = [32], divisibility = [16], constancy = [1]}}
    %next = tile.addptr %ptrs, %step : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
    // 0 on entry, a multiple of 8 afterwards.
    // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [32]}}
    %acc_next = arith.addi %acc, %c8 : tensor<32xi32>
    // %other is the range on entry, then a splat: nothing in common.
    scf.yield %next, %acc_next, %acc : tensor<32x!tile.ptr<f32>>, tensor<32xi32>, tensor<32xi32>
  }
  return
}

// -----

// Nested loops over index: iv = 4 + i * 8 is a multiple of 4; the inner
// loop's carried offsets start from the outer iv each time.
func.func @nested_loops(%n: index) {
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1]}}
  %c4 = arith.constant 4 : index
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1]}}
  %c8 = arith.constant 8 : index
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1]}}
  %c64 = arith.constant 64 : index
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = tile.range 0, 64 : tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [4], constancy = [1]}}
  %res = scf.for %i = %c4 to %n step %c8 iter_args(%x = %r) -> (tensor<64xi32>) {
    // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1]}}
    %i32 = arith.index_cast %i : index to i32
    // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [64]}}
    %is = tile.splat %i32 : tensor<64xi32>
    // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [64]}}
    %y = scf.for %j = %c64 to %n step %c64 iter_args(%z = %is) -> (tensor<64xi32>) {
      // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1]}}
      %j32 = arith.index_cast %j : index to i32
      // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [64]}}
      %js = tile.splat %j32 : tensor<64xi32>
      // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [64]}}
      %z2 = arith.addi %z, %js : tensor<64xi32>
      scf.yield %z2 : tensor<64xi32>
    }
    // expected-remark @below {{contiguity = [64], divisibility = [4], constancy = [1]}}
    %x2 = arith.addi %x, %y : tensor<64xi32>
    scf.yield %x2 : tensor<64xi32>
  }
  return
}

// -----

// scf.if: the facts common to both branches.
func.func @if_join(%c: i1, %a: i32 {tile.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [16], divisibility = [1073741824], constancy = [1]}}
  %r = tile.range 0, 16 : tensor<16xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [16]}}
  %s = tile.splat %a : tensor<16xi32>
  // expected-remark @below {{contiguity = [16], divisibility = [16], constancy = [1]}}
  %x = arith.addi %r, %s : tensor<16xi32>
  // expected-remark @below {{contiguity = [16], divisibility = [16], constancy = [1]}}
  %0 = scf.if %c -> (tensor<16xi32>) {
    scf.yield %x : tensor<16xi32>
  } else {
    scf.yield %r : tensor<16xi32>
  }
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %1 = scf.if %c -> (tensor<16xi32>) {
    scf.yield %x : tensor<16xi32>
  } else {
    scf.yield %s : tensor<16xi32>
  }
  return
}

// -----

// Anything else is unknown: reductions, loop-carried values of scf.while.
func.func @unknown(%n: i32) {
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = tile.range 0, 64 : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %0 = tile.reduce sum %r axis = 0 : tensor<64xi32> -> i32
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %1 = scf.while (%i = %n) : (i32) -> i32 {
    // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [1]}}
    %c = arith.constant 0 : i32
    // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
    %cond = arith.cmpi slt, %i, %c : i32
    scf.condition(%cond) %i : i32
  } do {
  ^bb0(%j: i32):
    // expected-remark @below {{contiguity = [1], divisibility = [2], constancy = [1]}}
    %c2 = arith.constant 2 : i32
    // expected-remark @below {{contiguity = [1], divisibility = [2], constancy = [1]}}
    %next = arith.muli %j, %c2 : i32
    scf.yield %next : i32
  }
  return
}
