// tile-warp-specialize in a persistent program: the marked loop sits in an
// scf.if inside a loop over the program's tiles. The producer reproduces
// the loop over tiles and the if, and both sides carry the iterations the
// ring served in earlier tiles (`base`), so that stages and barrier phases
// go on where the previous tile left them: each if yields its trip count
// (0 where it does not run the loop), which the loop over tiles adds.
//
// RUN: tile-opt %s -split-input-file -tile-warp-specialize=chip=sm_90a | FileCheck %s

// CHECK-LABEL: func.func @tiles(
// CHECK:         tile.warp_specialize registers(24, 240) {
// CHECK:           %[[PT:.*]] = scf.for %[[T:[^ ]*]] = %{{.*}} iter_args(%[[PBASE:.*]] = %{{.*}}) -> (i32)
// CHECK:             %[[PCOUNT:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK:               scf.for %[[PI:[^ ]*]] = %[[PLB:[^ ]*]] to
// CHECK:                 %[[PSUB:.*]] = arith.subi %[[PI]], %[[PLB]]
// CHECK-NEXT:            %[[PDIV:.*]] = arith.divsi %[[PSUB]]
// CHECK-NEXT:            arith.addi %[[PDIV]], %[[PBASE]]
// CHECK:                 tile.tma_copy
// CHECK:               %[[PN:.*]] = arith.maxsi
// CHECK-NEXT:          scf.yield %[[PN]] : i32
// CHECK-NEXT:        } else {
// CHECK-NEXT:          %[[PZ:.*]] = arith.constant 0 : i32
// CHECK-NEXT:          scf.yield %[[PZ]] : i32
// CHECK:             %[[PNEXT:.*]] = arith.addi %[[PBASE]], %[[PCOUNT]]
// CHECK-NEXT:        scf.yield %[[PNEXT]] : i32
// CHECK:         scf.for %{{.*}} iter_args(%[[BASE:.*]] = %{{.*}}) -> (i32)
// CHECK:           %[[R:.*]]:2 = scf.if %{{.*}} -> (tensor<64x64xf32>, i32) {
// CHECK:             scf.for %[[I:[^ ]*]] = %[[LB:[^ ]*]] to
// CHECK:               %[[SUB:.*]] = arith.subi %[[I]], %[[LB]]
// CHECK-NEXT:          %[[DIV:.*]] = arith.divsi %[[SUB]]
// CHECK-NEXT:          arith.addi %[[DIV]], %[[BASE]]
// CHECK:               tile.mbarrier_wait
// CHECK:               tile.local_load
// CHECK:               tile.mbarrier_arrive
// CHECK:             %[[N:.*]] = arith.maxsi
// CHECK-NEXT:        scf.yield %{{.*}}, %[[N]] : tensor<64x64xf32>, i32
// CHECK:           tile.block_store
// CHECK:           %[[NEXT:.*]] = arith.addi %[[BASE]], %[[R]]#1
// CHECK-NEXT:      scf.yield %[[NEXT]] : i32
// CHECK-NOT:     tile.block_load
func.func @tiles(%k: !tile.ptr<f16>, %o: !tile.ptr<f32>, %n: i32, %tiles: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %n64 = arith.extsi %n : i32 to i64
  %pid = tile.program_id 0
  %np = tile.num_programs 0
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %q = arith.constant dense<1.0> : tensor<64x64xf16>
  scf.for %t = %pid to %tiles step %np : i32 {
    // Tile t reads rows [t, n) of K.
    %ptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%t, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    %any = arith.cmpi slt, %t, %n : i32
    %r = scf.if %any -> tensor<64x64xf32> {
      %res:2 = scf.for %i = %t to %n step %c64 iter_args(%acc = %zero, %p = %ptr) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>) : i32 {
        %blk = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
        %s = tile.dot %q, %blk, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
        %next = tile.advance %p, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
        scf.yield %s, %next : tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>
      } {tile.warp_specialize}
      scf.yield %res#0 : tensor<64x64xf32>
    } else {
      scf.yield %zero : tensor<64x64xf32>
    }
    %row = arith.muli %t, %c64 : i32
    %op = tile.make_block_ptr %o, [%n64, %d], [%d, %one], [%row, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
    tile.block_store %op, %r : !tile.block_ptr<tensor<64x64xf32>>
  }
  return
}

// -----

// A loop over tiles directly around the marked loop: no if to pass the
// count out of.
// CHECK-LABEL: func.func @tiles_without_if(
// CHECK:         tile.warp_specialize registers(24, 240) {
// CHECK:           scf.for %{{.*}} iter_args(%[[PBASE:.*]] = %{{.*}}) -> (i32)
// CHECK:             scf.for
// CHECK:               tile.tma_copy
// CHECK:             %[[PN:.*]] = arith.maxsi
// CHECK-NEXT:        %[[PNEXT:.*]] = arith.addi %[[PBASE]], %[[PN]]
// CHECK-NEXT:        scf.yield %[[PNEXT]] : i32
// CHECK:         scf.for %{{.*}} iter_args(%[[BASE:.*]] = %{{.*}}) -> (i32)
// CHECK:           scf.for
// CHECK:             tile.local_load
// CHECK:           %[[N:.*]] = arith.maxsi
// CHECK:           %[[NEXT:.*]] = arith.addi %[[BASE]], %[[N]]
// CHECK-NEXT:      scf.yield %[[NEXT]] : i32
func.func @tiles_without_if(%k: !tile.ptr<f16>, %o: !tile.ptr<f32>, %n: i32, %tiles: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %n64 = arith.extsi %n : i32 to i64
  %pid = tile.program_id 0
  %np = tile.num_programs 0
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %q = arith.constant dense<1.0> : tensor<64x64xf16>
  scf.for %t = %pid to %tiles step %np : i32 {
    %ptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%t, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    %res:2 = scf.for %i = %t to %n step %c64 iter_args(%acc = %zero, %p = %ptr) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>) : i32 {
      %blk = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
      %s = tile.dot %q, %blk, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      %next = tile.advance %p, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
      scf.yield %s, %next : tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>
    } {tile.warp_specialize}
    %row = arith.muli %t, %c64 : i32
    %op = tile.make_block_ptr %o, [%n64, %d], [%d, %one], [%row, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
    tile.block_store %op, %res#0 : !tile.block_ptr<tensor<64x64xf32>>
  }
  return
}

// -----

// A one-shot copy inside the loop over tiles: each tile refills the buffer
// once the program released the previous tile's block. The producer waits
// on the buffer's `emptied` barrier (the phase before this tile's, which a
// fresh barrier passes) before copying; the program waits on `ready` with
// the parity of the tiles that copied before, and arrives on `emptied`
// after the buffer's last use (here the marked loop, whose dots read it).
// Both sides count the copying tiles next to the ring's iterations. Once
// it has issued a tile's copies, the producer brings the next tile's Q into
// L2, predicated on there being a next tile.
// CHECK-LABEL: func.func @tiles_one_shot(
// CHECK-SAME:    %[[KMAP:[^:]*]]: !tile.tensormap {{.*}}, %[[QMAP:[^:]*]]: !tile.tensormap
// CHECK:         %[[READY:.*]] = tile.alloc_mbarriers : !tile.mbarriers<1, arrivals = 1>
// CHECK-NEXT:    %[[EMPTIED:.*]] = tile.alloc_mbarriers : !tile.mbarriers<1, arrivals = 128>
// CHECK-NEXT:    %[[QBUF:.*]] = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
// CHECK:         tile.warp_specialize registers(24, 240) {
// CHECK:           scf.for %[[PT:[^ ]*]] = %{{.*}} to %[[PTILES:[^ ]*]] step %[[PSTEP:[^ ]*]] iter_args(%[[PBASE:.*]] = %{{.*}}, %[[PUSES:.*]] = %{{.*}}) -> (i32, i32)
// CHECK:             %[[PBIT:.*]] = arith.andi %[[PUSES]], %{{.*}} : i32
// CHECK:             %[[RELEASED:.*]] = arith.xori %[[PBIT]], %{{.*}} : i32
// CHECK-NEXT:        tile.mbarrier_wait %[[EMPTIED]][%{{.*}}], phase %[[RELEASED]] nosync
// CHECK:             tile.tma_copy %{{.*}}, %[[QBUF]][%{{.*}}] map %[[QMAP]], %[[READY]] if
// CHECK-NEXT:        scf.for
// CHECK:               tile.tma_copy %{{.*}} map %[[KMAP]]
// CHECK:             }
// CHECK:             %[[PN:.*]] = arith.maxsi
// CHECK:             %[[NT:.*]] = arith.addi %[[PT]], %[[PSTEP]] : i32
// CHECK-NEXT:        %[[HAS:.*]] = arith.cmpi slt, %[[NT]], %[[PTILES]] : i32
// CHECK-NEXT:        %[[NQ:.*]] = tile.make_block_ptr %{{.*}}, [%{{.*}}], [%{{.*}}], [%[[NT]], %{{.*}}]
// CHECK-NEXT:        tile.tma_prefetch %[[NQ]] map %[[QMAP]] if %[[HAS]] : !tile.block_ptr<tensor<64x64xf16>>
// CHECK-NOT:         tile.tma_prefetch
// CHECK:             %[[PNEXT:.*]] = arith.addi %[[PBASE]], %[[PN]]
// CHECK-NEXT:        %[[PUSED:.*]] = arith.addi %[[PUSES]], %{{.*}}
// CHECK-NEXT:        scf.yield %[[PNEXT]], %[[PUSED]] : i32, i32
// CHECK:         scf.for %{{.*}} iter_args(%[[BASE:.*]] = %{{.*}}, %[[USES:.*]] = %{{.*}}) -> (i32, i32)
// CHECK-NOT:       tile.block_load
// CHECK:           %[[BIT:.*]] = arith.andi %[[USES]], %{{.*}} : i32
// CHECK:           tile.mbarrier_wait %[[READY]][%{{.*}}], phase %[[BIT]] nosync
// CHECK:           %[[R:.*]]:2 = scf.for
// CHECK:             tile.local_load %[[QBUF]]
// CHECK:           tile.mbarrier_arrive %[[EMPTIED]][%{{.*}}] after %[[R]]#0, %[[R]]#1
// CHECK:           tile.block_store
// CHECK:           %[[USED:.*]] = arith.addi %[[USES]], %{{.*}}
// CHECK-NEXT:      scf.yield %{{.*}}, %[[USED]] : i32, i32
func.func @tiles_one_shot(%k: !tile.ptr<f16>, %o: !tile.ptr<f32>, %n: i32, %tiles: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %n64 = arith.extsi %n : i32 to i64
  %pid = tile.program_id 0
  %np = tile.num_programs 0
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %qbuf = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
  scf.for %t = %pid to %tiles step %np : i32 {
    // Tile t's Q block: rows [t, t + 64) of K.
    %qptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%t, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    %qblk = tile.block_load %qptr check = [0] padding = zero : !tile.block_ptr<tensor<64x64xf16>>
    tile.local_store %qblk, %qbuf[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
    %ptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%t, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    %res:2 = scf.for %i = %t to %n step %c64 iter_args(%acc = %zero, %p = %ptr) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>) : i32 {
      %blk = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
      %q = tile.local_load %qbuf[%c0] : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8> -> tensor<64x64xf16>
      %s = tile.dot %q, %blk, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      %next = tile.advance %p, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
      scf.yield %s, %next : tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>
    } {tile.warp_specialize}
    %row = arith.muli %t, %c64 : i32
    %op = tile.make_block_ptr %o, [%n64, %d], [%d, %one], [%row, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
    tile.block_store %op, %res#0 : !tile.block_ptr<tensor<64x64xf32>>
  }
  return
}

// -----

// One-shot buffers in a loop over tiles. Q's has two stages: tile i's block
// goes into stage i mod 2 (the (i / 2)-th use of that stage), so that the
// producer copies the next tile's Q while this tile still reads its own;
// every read and write of the buffer moves to the tile's stage, and the
// stage is released after the last of them (the output staged through it).
// V's block, first read after the marked loop, is copied once the producer
// has issued the loop's copies, not before them; neither is prefetched.
// CHECK-LABEL: func.func @tiles_one_shot_stages(
// CHECK-SAME:    %[[KMAP:[^:]*]]: !tile.tensormap {{.*}}, %[[QMAP:[^:]*]]: !tile.tensormap {{.*}}, %[[VMAP:[^:]*]]: !tile.tensormap {{.*}}, %[[OMAP:[^:]*]]: !tile.tensormap {tile.tma = {base = 1 : i64
// CHECK:         tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 128>
// CHECK-NEXT:    %[[QREADY:.*]] = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 1>
// CHECK-NEXT:    %[[QEMPTIED:.*]] = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 128>
// CHECK-NEXT:    %[[VREADY:.*]] = tile.alloc_mbarriers : !tile.mbarriers<1, arrivals = 1>
// CHECK-NEXT:    %[[VEMPTIED:.*]] = tile.alloc_mbarriers : !tile.mbarriers<1, arrivals = 128>
// CHECK-NEXT:    %[[QBUF:.*]] = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8>
// CHECK-NEXT:    %[[VBUF:.*]] = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
// CHECK:         tile.warp_specialize registers(24, 240) {
// CHECK:           scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[PUSES:.*]] = %{{.*}}) -> (i32, i32)
// CHECK:             %[[PSTAGE:.*]] = arith.remui %[[PUSES]], %[[TWO:.*]] : i32
// CHECK-NEXT:        %[[TWO2:.*]] = arith.constant 2 : i32
// CHECK-NEXT:        %[[PTURN:.*]] = arith.divui %[[PUSES]], %[[TWO2]] : i32
// CHECK-NEXT:        %[[TWO3:.*]] = arith.constant 2 : i32
// CHECK-NEXT:        %[[PPHASE:.*]] = arith.remui %[[PTURN]], %[[TWO3]] : i32
// CHECK-NEXT:        %[[RELEASED:.*]] = arith.xori %[[PPHASE]], %{{.*}} : i32
// CHECK-NEXT:        tile.mbarrier_wait %[[QEMPTIED]][%[[PSTAGE]]], phase %[[RELEASED]] nosync
// CHECK:             tile.tma_copy %{{.*}}, %[[QBUF]][%[[PSTAGE]]] map %[[QMAP]], %[[QREADY]] if
// CHECK-NOT:         tile.tma_copy
// CHECK:             scf.for
// CHECK:               tile.tma_copy %{{.*}} map %[[KMAP]]
// CHECK:             }
// CHECK:             tile.mbarrier_wait %[[VEMPTIED]]
// CHECK-NEXT:        arith.constant true
// CHECK-NEXT:        tile.tma_copy %{{.*}}, %[[VBUF]][%{{.*}}] map %[[VMAP]], %[[VREADY]] if
// CHECK-NOT:         tile.tma_prefetch
// CHECK:             scf.yield
// CHECK:         scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[USES:.*]] = %{{.*}}) -> (i32, i32)
// CHECK:           %[[STAGE:.*]] = arith.remui %[[USES]], %{{.*}} : i32
// CHECK:           %[[TURN:.*]] = arith.divui %[[USES]], %{{.*}} : i32
// CHECK:           %[[PHASE:.*]] = arith.remui %[[TURN]], %{{.*}} : i32
// CHECK:           tile.mbarrier_wait %[[QREADY]][%[[STAGE]]], phase %[[PHASE]] nosync
// CHECK:           %[[R:.*]]:2 = scf.for
// CHECK:             tile.local_load %[[QBUF]][%[[STAGE]]]
// CHECK:           tile.mbarrier_wait %[[VREADY]]
// CHECK-NEXT:      tile.local_load %[[VBUF]]
// CHECK:           tile.mbarrier_arrive %[[VEMPTIED]]
// The output staged in Q's stage goes out by TMA; the stage's release, at
// the tile's end, waits for the copy to have read it.
// CHECK:           tile.local_store %{{.*}}, %[[QBUF]][%[[STAGE]]]
// CHECK-NOT:       tile.local_load %[[QBUF]]
// CHECK:           %[[OPTR:.*]] = tile.make_block_ptr %arg1
// CHECK-NEXT:      tile.tma_store %[[QBUF]][%[[STAGE]]], %[[OPTR]] map %[[OMAP]]
// CHECK-NOT:       tile.block_store
// CHECK:           tile.mbarrier_arrive %[[QEMPTIED]][%[[STAGE]]] stores after
// CHECK-NEXT:      scf.yield
func.func @tiles_one_shot_stages(%k: !tile.ptr<f16>, %o: !tile.ptr<f16>, %n: i32, %tiles: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %n64 = arith.extsi %n : i32 to i64
  %pid = tile.program_id 0
  %np = tile.num_programs 0
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %qbuf = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8>
  %vbuf = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
  scf.for %t = %pid to %tiles step %np : i32 {
    %qptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%t, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    %qblk = tile.block_load %qptr check = [0] padding = zero : !tile.block_ptr<tensor<64x64xf16>>
    tile.local_store %qblk, %qbuf[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8>
    %vptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%n, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    %vblk = tile.block_load %vptr check = [0] padding = zero : !tile.block_ptr<tensor<64x64xf16>>
    tile.local_store %vblk, %vbuf[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
    %ptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%t, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    %res:2 = scf.for %i = %t to %n step %c64 iter_args(%acc = %zero, %p = %ptr) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>) : i32 {
      %blk = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
      %q = tile.local_load %qbuf[%c0] : !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8> -> tensor<64x64xf16>
      %s = tile.dot %q, %blk, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      %next = tile.advance %p, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
      scf.yield %s, %next : tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>
    } {tile.warp_specialize}
    %v = tile.local_load %vbuf[%c0] : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8> -> tensor<64x64xf16>
    %res16 = arith.truncf %res#0 : tensor<64x64xf32> to tensor<64x64xf16>
    %sum = arith.addf %res16, %v : tensor<64x64xf16>
    // The output staged through Q's stage, which Q no longer needs.
    tile.local_store %sum, %qbuf[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8>
    %out = tile.local_load %qbuf[%c0] : !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8> -> tensor<64x64xf16>
    %row = arith.muli %t, %c64 : i32
    %op = tile.make_block_ptr %o, [%n64, %d], [%d, %one], [%row, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    tile.block_store %op, %out : !tile.block_ptr<tensor<64x64xf16>>
  }
  return
}

// -----

// A block stored from Q's stage whose value has another use stays a
// tile.block_store (the value is needed in registers anyway), and the
// stage's release waits for no copy.
// CHECK-LABEL: func.func @tiles_one_shot_store_kept(
// CHECK-NOT:     tile.tma_store
// CHECK:         tile.local_store %{{.*}}, %[[QBUF:.*]][%[[STAGE:.*]]] :
// CHECK-NEXT:    %[[OUT:.*]] = tile.local_load %[[QBUF]][%[[STAGE]]]
// CHECK-NEXT:    tile.mbarrier_arrive %{{.*}}[%[[STAGE]]] after
// CHECK:         tile.block_store %{{.*}}, %[[OUT]]
// CHECK:         tile.block_store
// CHECK-NOT:     tile.tma_store
func.func @tiles_one_shot_store_kept(%k: !tile.ptr<f16>, %o: !tile.ptr<f16>, %n: i32, %tiles: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %n64 = arith.extsi %n : i32 to i64
  %pid = tile.program_id 0
  %np = tile.num_programs 0
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %qbuf = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8>
  scf.for %t = %pid to %tiles step %np : i32 {
    %qptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%t, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    %qblk = tile.block_load %qptr check = [0] padding = zero : !tile.block_ptr<tensor<64x64xf16>>
    tile.local_store %qblk, %qbuf[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8>
    %ptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%t, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    %res:2 = scf.for %i = %t to %n step %c64 iter_args(%acc = %zero, %p = %ptr) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>) : i32 {
      %blk = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
      %q = tile.local_load %qbuf[%c0] : !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8> -> tensor<64x64xf16>
      %s = tile.dot %q, %blk, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      %next = tile.advance %p, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
      scf.yield %s, %next : tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>
    } {tile.warp_specialize}
    %res16 = arith.truncf %res#0 : tensor<64x64xf32> to tensor<64x64xf16>
    tile.local_store %res16, %qbuf[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8>
    %out = tile.local_load %qbuf[%c0] : !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8> -> tensor<64x64xf16>
    %row = arith.muli %t, %c64 : i32
    %op = tile.make_block_ptr %o, [%n64, %d], [%d, %one], [%row, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    tile.block_store %op, %out : !tile.block_ptr<tensor<64x64xf16>>
    %twice = arith.addf %out, %out : tensor<64x64xf16>
    %op2 = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%row, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    tile.block_store %op2, %twice : !tile.block_ptr<tensor<64x64xf16>>
  }
  return
}

// -----

// A block stored from Q's stage before the program writes the stage again
// in the same tile stays a tile.block_store: a TMA copy could still be
// reading the stage then.
// CHECK-LABEL: func.func @tiles_one_shot_store_rewritten(
// CHECK-NOT:     tile.tma_store
// CHECK:         tile.block_store
// CHECK-NOT:     tile.tma_store
func.func @tiles_one_shot_store_rewritten(%k: !tile.ptr<f16>, %o: !tile.ptr<f16>, %n: i32, %tiles: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %n64 = arith.extsi %n : i32 to i64
  %pid = tile.program_id 0
  %np = tile.num_programs 0
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %qbuf = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8>
  scf.for %t = %pid to %tiles step %np : i32 {
    %qptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%t, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    %qblk = tile.block_load %qptr check = [0] padding = zero : !tile.block_ptr<tensor<64x64xf16>>
    tile.local_store %qblk, %qbuf[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8>
    %ptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%t, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    %res:2 = scf.for %i = %t to %n step %c64 iter_args(%acc = %zero, %p = %ptr) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>) : i32 {
      %blk = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
      %q = tile.local_load %qbuf[%c0] : !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8> -> tensor<64x64xf16>
      %s = tile.dot %q, %blk, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      %next = tile.advance %p, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
      scf.yield %s, %next : tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>
    } {tile.warp_specialize}
    %res16 = arith.truncf %res#0 : tensor<64x64xf32> to tensor<64x64xf16>
    %row = arith.muli %t, %c64 : i32
    %op = tile.make_block_ptr %o, [%n64, %d], [%d, %one], [%row, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    tile.local_store %res16, %qbuf[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8>
    %out = tile.local_load %qbuf[%c0] : !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8> -> tensor<64x64xf16>
    tile.block_store %op, %out : !tile.block_ptr<tensor<64x64xf16>>
    %twice = arith.addf %res16, %res16 : tensor<64x64xf16>
    tile.local_store %twice, %qbuf[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8>
  }
  return
}

// -----

// A branch that stages and stores the block goes out by TMA though the
// other branch writes the stage too: only one of them runs.
// CHECK-LABEL: func.func @tiles_one_shot_store_branches(
// CHECK:         scf.if
// CHECK:           tile.local_store
// CHECK-NEXT:      tile.tma_store
// CHECK:         } else {
// CHECK:           tile.local_store
// CHECK-NOT:       tile.tma_store
// CHECK:           tile.block_store
// CHECK:         }
// CHECK:         tile.mbarrier_arrive %{{.*}} stores
func.func @tiles_one_shot_store_branches(%k: !tile.ptr<f16>, %o: !tile.ptr<f16>, %n: i32, %tiles: i32, %flag: i1)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %n64 = arith.extsi %n : i32 to i64
  %pid = tile.program_id 0
  %np = tile.num_programs 0
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %qbuf = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8>
  scf.for %t = %pid to %tiles step %np : i32 {
    %qptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%t, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    %qblk = tile.block_load %qptr check = [0] padding = zero : !tile.block_ptr<tensor<64x64xf16>>
    tile.local_store %qblk, %qbuf[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8>
    %ptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%t, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    %res:2 = scf.for %i = %t to %n step %c64 iter_args(%acc = %zero, %p = %ptr) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>) : i32 {
      %blk = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
      %q = tile.local_load %qbuf[%c0] : !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8> -> tensor<64x64xf16>
      %s = tile.dot %q, %blk, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      %next = tile.advance %p, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
      scf.yield %s, %next : tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>
    } {tile.warp_specialize}
    %res16 = arith.truncf %res#0 : tensor<64x64xf32> to tensor<64x64xf16>
    %row = arith.muli %t, %c64 : i32
    %op = tile.make_block_ptr %o, [%n64, %d], [%d, %one], [%row, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    scf.if %flag {
      tile.local_store %res16, %qbuf[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8>
      %out = tile.local_load %qbuf[%c0] : !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8> -> tensor<64x64xf16>
      tile.block_store %op, %out : !tile.block_ptr<tensor<64x64xf16>>
    } else {
      %twice = arith.addf %res16, %res16 : tensor<64x64xf16>
      tile.local_store %twice, %qbuf[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8>
      tile.block_store %op, %twice : !tile.block_ptr<tensor<64x64xf16>>
    }
  }
  return
}
