// Integers travel through the interpreter exactly: an i64 beyond 2^53
// (2^53 + 1 = 0x0020000000000001) is copied, printed and dumped unchanged.
//
// RUN: printf '\001\000\000\000\000\000\040\000' > %t.in
// RUN: tile-run %s --mode=interp --quiet --arg 'a=i64[1]:file(%t.in)' \
// RUN:   --arg 'b=i64[1]:zeros' --print b --dump b=%t.out | FileCheck %s
// RUN: od -An -tx1 %t.out | FileCheck %s --check-prefix=BYTES

// CHECK: b = [9007199254740993]
// BYTES: 01 00 00 00 00 00 20 00

func.func @copy(%in: !tile.ptr<i64>, %out: !tile.ptr<i64>)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %v = tile.load %in : !tile.ptr<i64>
  tile.store %out, %v : !tile.ptr<i64>
  return
}
