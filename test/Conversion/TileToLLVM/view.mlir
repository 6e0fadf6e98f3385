// Indexing and shape ops: program_id/num_programs read special registers;
// range builds each slot's index from tid.x; splat, broadcast and
// expand_dims only pick slots; convert_layout, trans and reshape exchange
// elements through the shared-memory array between two barriers.
//
// RUN: tile-opt %s -split-input-file -tile-convert-to-llvm | FileCheck %s

// CHECK-LABEL: func.func @grid_queries(
// CHECK-NEXT:    nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK-NEXT:    nvvm.read.ptx.sreg.ctaid.y : i32
// CHECK-NEXT:    nvvm.read.ptx.sreg.ctaid.z : i32
// CHECK-NEXT:    nvvm.read.ptx.sreg.nctaid.x : i32
// CHECK-NEXT:    nvvm.read.ptx.sreg.nctaid.y : i32
// CHECK-NEXT:    nvvm.read.ptx.sreg.nctaid.z : i32
// CHECK-NEXT:    return
func.func @grid_queries() attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.program_id 0
  %y = tile.program_id 1
  %z = tile.program_id 2
  %nx = tile.num_programs 0
  %ny = tile.num_programs 1
  %nz = tile.num_programs 2
  return
}

// -----

// 512 elements, sizePerThread = 2, 32 lanes, 4 warps: the CTA covers 256
// elements, so each thread holds index base + {0, 1, 256, 257} with
// base = warp * 64 + lane * 2, and the range adds its start.
#b = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// CHECK-LABEL: func.func @range(
// CHECK:         %[[START:.*]] = arith.constant 5 : i32
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[LANE:.*]] = arith.andi %[[TID]], %{{.*}} : i32
// CHECK:         %[[WARP:.*]] = arith.shrui %[[TID]], %{{.*}} : i32
// CHECK:         %[[C31:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[LANE_ALONG:.*]] = arith.andi %[[LANE]], %[[C31]] : i32
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : i32
// CHECK-NEXT:    %[[WARP_ALONG:.*]] = arith.andi %[[WARP]], %[[C3]] : i32
// CHECK-NEXT:    %[[C64:.*]] = arith.constant 64 : i32
// CHECK-NEXT:    %[[W64:.*]] = arith.muli %[[WARP_ALONG]], %[[C64]] : i32
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[L2:.*]] = arith.muli %[[LANE_ALONG]], %[[C2]] : i32
// CHECK-NEXT:    %[[BASE:.*]] = arith.addi %[[W64]], %[[L2]] : i32
// CHECK-NEXT:    %[[O0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[I0:.*]] = arith.addi %[[BASE]], %[[O0]] : i32
// CHECK-NEXT:    %[[O1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[I1:.*]] = arith.addi %[[BASE]], %[[O1]] : i32
// CHECK-NEXT:    %[[O2:.*]] = arith.constant 256 : i32
// CHECK-NEXT:    %[[I2:.*]] = arith.addi %[[BASE]], %[[O2]] : i32
// CHECK-NEXT:    %[[O3:.*]] = arith.constant 257 : i32
// CHECK-NEXT:    %[[I3:.*]] = arith.addi %[[BASE]], %[[O3]] : i32
// CHECK-NEXT:    arith.addi %[[START]], %[[I0]] : i32
// CHECK-NEXT:    arith.addi %[[START]], %[[I1]] : i32
// CHECK-NEXT:    arith.addi %[[START]], %[[I2]] : i32
// CHECK-NEXT:    arith.addi %[[START]], %[[I3]] : i32
// CHECK-NEXT:    return
func.func @range() attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = tile.range 5, 517 : tensor<512xi32, #b>
  return
}

// -----

// A range smaller than the layout's footprint wraps: index & (16 - 1).
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @range_wraps(
// CHECK:         nvvm.read.ptx.sreg.tid.x
// CHECK:         %[[C15:.*]] = arith.constant 15 : i32
// CHECK-NEXT:    %[[W:.*]] = arith.andi %{{.*}}, %[[C15]] : i32
// CHECK-NEXT:    arith.addi %{{.*}}, %[[W]] : i32
// CHECK-NEXT:    return
func.func @range_wraps() attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.range 0, 16 : tensor<16xi32, #b>
  return
}

// -----

// Lane and warp fields of a 2-d layout: lanes are numbered with dimension 1
// fastest (8 lanes, stride 1), then dimension 0 (4 lanes, stride 8); warps
// likewise (dimension 1: 2 warps, stride 1; dimension 0: 2 warps, stride 2).
#p = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
#cols = #tile.slice<{dim = 0, parent = #p}>
#rows = #tile.slice<{dim = 1, parent = #p}>

// CHECK-LABEL: func.func @lane_fields(
// Rows: lane >> 3 & 3, warp >> 1 & 1.
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[LANE:.*]] = arith.andi %[[TID]], %{{.*}} : i32
// CHECK:         %[[WARP:.*]] = arith.shrui %[[TID]], %{{.*}} : i32
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : i32
// CHECK-NEXT:    %[[L1:.*]] = arith.shrui %[[LANE]], %[[C3]] : i32
// CHECK-NEXT:    %[[C3B:.*]] = arith.constant 3 : i32
// CHECK-NEXT:    arith.andi %[[L1]], %[[C3B]] : i32
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[W1:.*]] = arith.shrui %[[WARP]], %[[C1]] : i32
// CHECK-NEXT:    %[[C1B:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    arith.andi %[[W1]], %[[C1B]] : i32
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : i32
// Columns: lane & 7, warp & 1.
// CHECK:         %[[TID2:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[LANE2:.*]] = arith.andi %[[TID2]], %{{.*}} : i32
// CHECK:         %[[WARP2:.*]] = arith.shrui %[[TID2]], %{{.*}} : i32
// CHECK-NEXT:    %[[C7:.*]] = arith.constant 7 : i32
// CHECK-NEXT:    arith.andi %[[LANE2]], %[[C7]] : i32
// CHECK-NEXT:    %[[C1C:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    arith.andi %[[WARP2]], %[[C1C]] : i32
// CHECK-NEXT:    %[[C8:.*]] = arith.constant 8 : i32
func.func @lane_fields() attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = tile.range 0, 8 : tensor<8xi32, #rows>
  %c = tile.range 0, 16 : tensor<16xi32, #cols>
  return
}

// -----

// splat: the scalar in every slot.
#b = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @splat(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: f32, %[[B:[a-z0-9]+]]: f32)
// CHECK-NEXT:    arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:    arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:    arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:    arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:    return
func.func @splat(%a: f32, %b: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.splat %a : tensor<128xf32, #b>
  %y = tile.splat %b : tensor<128xf32, #b>
  %z = arith.addf %x, %y : tensor<128xf32, #b>
  return
}

// -----

// expand_dims and broadcast of row and column vectors (slices of one root)
// only pick slots. The parent gives each thread 2x2 elements: slots
// (r, c) in the order (0,0), (0,1), (1,0), (1,1). The row vector's two
// slots R0, R1 and the column vector's C0, C1 combine as R0+C0, R0+C1,
// R1+C0, R1+C1, with no shared memory and no barrier.
#p = #tile.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#rows = #tile.slice<{dim = 1, parent = #p}>
#cols = #tile.slice<{dim = 0, parent = #p}>

// CHECK-LABEL: func.func @broadcast_expand_dims(
// CHECK-NOT:     tile_smem
// CHECK-NOT:     nvvm.barrier0
// CHECK:         %[[C0:.*]] = arith.constant 0 : i32
// CHECK:         %[[R0:.*]] = arith.addi %[[C0]], %{{.*}} : i32
// CHECK-NEXT:    %[[R1:.*]] = arith.addi %[[C0]], %{{.*}} : i32
// CHECK-NEXT:    %[[C100:.*]] = arith.constant 100 : i32
// CHECK:         %[[K0:.*]] = arith.addi %[[C100]], %{{.*}} : i32
// CHECK-NEXT:    %[[K1:.*]] = arith.addi %[[C100]], %{{.*}} : i32
// CHECK-NEXT:    arith.addi %[[R0]], %[[K0]] : i32
// CHECK-NEXT:    arith.addi %[[R0]], %[[K1]] : i32
// CHECK-NEXT:    arith.addi %[[R1]], %[[K0]] : i32
// CHECK-NEXT:    arith.addi %[[R1]], %[[K1]] : i32
// CHECK-NOT:     tile_smem
// CHECK-NOT:     nvvm.barrier0
// CHECK:         return
func.func @broadcast_expand_dims() attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.range 0, 8 : tensor<8xi32, #rows>
  %c = tile.range 100, 116 : tensor<16xi32, #cols>
  %re = tile.expand_dims %r axis = 1 : tensor<8xi32, #rows> -> tensor<8x1xi32, #p>
  %ce = tile.expand_dims %c axis = 0 : tensor<16xi32, #cols> -> tensor<1x16xi32, #p>
  %rb = tile.broadcast %re : tensor<8x1xi32, #p> -> tensor<8x16xi32, #p>
  %cb = tile.broadcast %ce : tensor<1x16xi32, #p> -> tensor<8x16xi32, #p>
  %s = arith.addi %rb, %cb : tensor<8x16xi32, #p>
  return
}

// -----

// convert_layout: every slot stored at its linear index in shared memory,
// a barrier, then the slots of the new layout read back; a barrier first
// too, for earlier readers. 256 f32 need 1024 bytes.
#a = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
#c = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>

// CHECK:       llvm.mlir.global external @tile_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: func.func @convert_layout(
// CHECK-SAME:    %[[V:[a-z0-9]+]]: f32)
// CHECK-SAME:    tile.shared_bytes = 1024 : i64
// CHECK:         %[[SMEM:.*]] = llvm.mlir.addressof @tile_smem : !llvm.ptr<3>
// CHECK-NEXT:    nvvm.barrier0
// CHECK-COUNT-4: llvm.store %[[V]], %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NOT:     llvm.store
// CHECK:         nvvm.barrier0
// The new layout holds base + {0, 64, 128, 192}.
// CHECK:         %[[C64:.*]] = arith.constant 64 : i32
// CHECK-NEXT:    arith.addi %[[B:.*]], %[[C64]] : i32
// CHECK-NEXT:    %[[C128:.*]] = arith.constant 128 : i32
// CHECK-NEXT:    arith.addi %[[B]], %[[C128]] : i32
// CHECK-NEXT:    %[[C192:.*]] = arith.constant 192 : i32
// CHECK-NEXT:    arith.addi %[[B]], %[[C192]] : i32
// CHECK:         %[[P0:.*]] = llvm.getelementptr %[[SMEM]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    %[[X0:.*]] = llvm.load %[[P0]] : !llvm.ptr<3> -> f32
// CHECK-COUNT-3: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT:     llvm.load
// CHECK:         arith.negf %[[X0]] : f32
// CHECK-COUNT-3: arith.negf
// CHECK-NOT:     nvvm.barrier0
// CHECK:         return
func.func @convert_layout(%v: f32) attributes {tile.kernel, tile.num_warps = 2 : i32} {
  %x = tile.splat %v : tensor<256xf32, #a>
  %y = tile.convert_layout %x : tensor<256xf32, #a> -> tensor<256xf32, #c>
  %z = arith.negf %y : tensor<256xf32, #c>
  return
}

// -----

// i1 tiles go through shared memory as bytes.
#a = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#c = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @convert_layout_i1(
// CHECK-SAME:    %[[M:[a-z0-9]+]]: i1)
// CHECK-SAME:    tile.shared_bytes = 128 : i64
// CHECK:         nvvm.barrier0
// CHECK-COUNT-4: %[[B:.*]] = arith.extui %[[M]] : i1 to i8
// CHECK:         nvvm.barrier0
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> i8
// CHECK:         arith.trunci %{{.*}} : i8 to i1
func.func @convert_layout_i1(%m: i1) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.splat %m : tensor<128xi1, #a>
  %y = tile.convert_layout %x : tensor<128xi1, #a> -> tensor<128xi1, #c>
  return
}

// -----

// reshape keeps the row-major order: a 256-element range is stored at its
// own index and read back as 8x32 at row * 32 + column. trans stores each
// (r, c) of the 8x32 tile at c * 8 + r of the 32x8 result.
#c = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
#r = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
#t = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 2], order = [0, 1]}>

// CHECK-LABEL: func.func @reshape_trans(
// CHECK-SAME:    tile.shared_bytes = 1024 : i64
// reshape: store at the source's linear index...
// CHECK:         %[[SMEM:.*]] = llvm.mlir.addressof @tile_smem : !llvm.ptr<3>
// CHECK-NEXT:    nvvm.barrier0
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
// CHECK-NOT:     llvm.store
// CHECK:         nvvm.barrier0
// ... read back at row * 32 + column.
// CHECK:         %[[LR:.*]] = arith.muli %{{[0-9]+}}, %c32_i32{{[_0-9]*}} : i32
// CHECK-NEXT:    %[[L:.*]] = arith.addi %{{.*}}, %[[LR]] : i32
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr %[[SMEM]][%[[L]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK-NEXT:    llvm.load %[[P]] : !llvm.ptr<3> -> i32
// CHECK-COUNT-3: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// trans: store (r, c) at c * 8 + r...
// CHECK:         %[[SMEM2:.*]] = llvm.mlir.addressof @tile_smem : !llvm.ptr<3>
// CHECK-NEXT:    nvvm.barrier0
// CHECK:         %[[TC:.*]] = arith.muli %{{[0-9]+}}, %{{c8_i32[_0-9]*}} : i32
// CHECK-NEXT:    %[[TL:.*]] = arith.addi %{{.*}}, %[[TC]] : i32
// CHECK-NEXT:    %[[TP:.*]] = llvm.getelementptr %[[SMEM2]][%[[TL]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK-NEXT:    llvm.store %{{.*}}, %[[TP]] : i32, !llvm.ptr<3>
// CHECK-COUNT-3: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
// ... and read the 32x8 result at row * 8 + column.
// CHECK:         nvvm.barrier0
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK-NOT:     nvvm.barrier0
// CHECK:         return
func.func @reshape_trans() attributes {tile.kernel, tile.num_warps = 2 : i32} {
  %r = tile.range 0, 256 : tensor<256xi32, #c>
  %m = tile.reshape %r : tensor<256xi32, #c> -> tensor<8x32xi32, #r>
  %t = tile.trans %m order = [1, 0] : tensor<8x32xi32, #r> -> tensor<32x8xi32, #t>
  return
}

// -----

// tile.print is an interpreter aid: GPU code drops it.
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @print(
// CHECK-NOT:     tile.print
// CHECK:         return
func.func @print(%v: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.splat %v : tensor<32xf32, #b>
  tile.print "x = " %x : tensor<32xf32, #b>
  return
}

// -----

// optimization_barrier: one side-effecting register move per distinct slot
// value (a splat's four slots are one value: one move), through the
// integer type of the element's width.
#b = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @optimization_barrier(
// CHECK:         %[[BITS:.*]] = llvm.bitcast %{{.*}} : f16 to i16
// CHECK-NEXT:    %[[MOVED:.*]] = llvm.inline_asm has_side_effects "mov.b16 $0, $1;", "=h,h" %[[BITS]] : (i16) -> i16
// CHECK-NEXT:    llvm.bitcast %[[MOVED]] : i16 to f16
// CHECK-NOT:     llvm.inline_asm
// CHECK:         llvm.inline_asm has_side_effects "mov.b32 $0, $1;", "=r,r" %{{.*}} : (i32) -> i32
// CHECK-NOT:     llvm.inline_asm
// CHECK:         return
func.func @optimization_barrier(%f: f32, %i: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %h = arith.truncf %f : f32 to f16
  %hs = tile.splat %h : tensor<128xf16, #b>
  %hb = tile.optimization_barrier %hs : tensor<128xf16, #b>
  %is = tile.splat %i : tensor<128xi32, #b>
  %ib = tile.optimization_barrier %is : tensor<128xi32, #b>
  return
}
