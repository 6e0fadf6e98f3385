// Programs that wait for one another through global memory
// (tile.wait_at_least) run as a GPU keeps programs resident: up to 256 at
// once, on threads of their own, one at a time, handing over when a
// program waits for a value not yet written. When every running program
// waits and no other can start, the interpreter reports the deadlock (on
// a GPU the kernel would hang) with the exit status of a kernel error.
//
// REQUIRES: tile-run
//
// DEFINE: %{run} = %python %S/Inputs/run.py tile-run --mode=interp --quiet

// Each program takes a ticket t, writes t * t, arrives at the barrier
// counter and waits for every program, then reads its successor's square.
// RUN: %{run} %s --kernel ring --grid 5 --arg 'counters=i32[2]:zeros' \
// RUN:     --arg 'squares=i32[5]' --arg 'seen=i32[5]' --arg i32:5 \
// RUN:     --print counters --print seen \
// RUN:   | FileCheck %s --check-prefix=RING
// RING:      $ tile-run
// RING-NEXT: counters = [5, 5]
// RING-NEXT: seen = [1, 4, 9, 16, 0]
// RING-NEXT: [exit 0]

// 300 programs: the first 256 all wait for the 300th arrival.
// RUN: %{run} %s --kernel ring --grid 300 --arg 'counters=i32[2]:zeros' \
// RUN:     --arg 'squares=i32[300]' --arg 'seen=i32[300]' --arg i32:300 \
// RUN:   | FileCheck %s --check-prefix=WINDOW -DFILE=%s
// WINDOW:      $ tile-run
// WINDOW-NEXT: [[FILE]]:{{[0-9]+}}:3: error: in program ({{[0-9]+}}, 0, 0): every running program (256, at most 256 at once) waits in tile.wait_at_least for a value no program has written (on a GPU the kernel would hang)
// WINDOW:      [exit 1]

// Three programs wait for a fourth that never runs.
// RUN: %{run} %s --kernel ring --grid 3 --arg 'counters=i32[2]:zeros' \
// RUN:     --arg 'squares=i32[3]' --arg 'seen=i32[3]' --arg i32:4 \
// RUN:   | FileCheck %s --check-prefix=SHORT
// SHORT:      $ tile-run
// SHORT-NEXT: {{.*}}grid-sync.mlir:{{[0-9]+}}:3: error: in program ({{[0-9]}}, 0, 0): every running program (3, at most 256 at once) waits
// SHORT:      [exit 1]
func.func @ring(%counters: !tile.ptr<i32>, %squares: !tile.ptr<i32>,
                %seen: !tile.ptr<i32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %c1 = arith.constant 1 : i32
  %t = tile.atomic_add %counters, %c1 : !tile.ptr<i32>
  %square = arith.muli %t, %t : i32
  %p = tile.addptr %squares, %t : !tile.ptr<i32>, i32
  tile.store %p, %square : !tile.ptr<i32>
  %arrivals = tile.addptr %counters, %c1 : !tile.ptr<i32>, i32
  %arrived = tile.atomic_add %arrivals, %c1 : !tile.ptr<i32>
  tile.wait_at_least %arrivals, %n : !tile.ptr<i32>
  %next = arith.addi %t, %c1 : i32
  %wrapped = arith.remui %next, %n : i32
  %q = tile.addptr %squares, %wrapped : !tile.ptr<i32>, i32
  %v = tile.load %q : !tile.ptr<i32>
  %s = tile.addptr %seen, %t : !tile.ptr<i32>, i32
  tile.store %s, %v : !tile.ptr<i32>
  return
}

// A program alone: its wait can never end.
// RUN: %{run} %s --kernel alone --grid 1 --arg 'counter=i32[1]:zeros' \
// RUN:   | FileCheck %s --check-prefix=ALONE -DFILE=%s
// ALONE:      $ tile-run
// ALONE-NEXT: [[FILE]]:{{[0-9]+}}:3: error: in program (0, 0, 0): every running program (1, at most 256 at once) waits in tile.wait_at_least
// ALONE:      [exit 1]
func.func @alone(%counter: !tile.ptr<i32>)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %c1 = arith.constant 1 : i32
  tile.wait_at_least %counter, %c1 : !tile.ptr<i32>
  return
}
