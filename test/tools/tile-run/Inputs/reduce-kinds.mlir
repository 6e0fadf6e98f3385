// Every reduction of tile.reduce over the rows and the columns of a
// ROWS x COLS block (rows split over warps, so the cross-warp step runs
// too): max, min, sum and prod of f32; argmax and argmin of f32 (with a NaN
// placed in every third row, at a position that depends on the row), and of
// i32 with ties (values modulo 7). Run by tile-run on the GPU and compared
// with the interpreter.
//
//   @reduce_kinds(%x: f32[ROWS x COLS], %row_out: f32[5 x ROWS],
//                 %row_arg: i32[5 x ROWS], %col_arg: i32[2 x COLS])

tile.param ROWS = 64
tile.param COLS = 128
tile.param NUM_WARPS = 8

func.func @reduce_kinds(%x: !tile.ptr<f32>, %row_out: !tile.ptr<f32>,
                        %row_arg: !tile.ptr<i32>, %col_arg: !tile.ptr<i32>)
    attributes {tile.kernel, tile.num_warps = ${NUM_WARPS} : i32} {
  %rows = tile.range 0, ${ROWS} : tensor<${ROWS}xi32>
  %cols = tile.range 0, ${COLS} : tensor<${COLS}xi32>
  %r2 = tile.expand_dims %rows axis = 1 : tensor<${ROWS}xi32> -> tensor<${ROWS}x1xi32>
  %c2 = tile.expand_dims %cols axis = 0 : tensor<${COLS}xi32> -> tensor<1x${COLS}xi32>
  %rb = tile.broadcast %r2 : tensor<${ROWS}x1xi32> -> tensor<${ROWS}x${COLS}xi32>
  %cb = tile.broadcast %c2 : tensor<1x${COLS}xi32> -> tensor<${ROWS}x${COLS}xi32>
  %ncols = arith.constant dense<${COLS}> : tensor<${ROWS}x${COLS}xi32>
  %rowStart = arith.muli %rb, %ncols : tensor<${ROWS}x${COLS}xi32>
  %offsets = arith.addi %rowStart, %cb : tensor<${ROWS}x${COLS}xi32>
  %base = tile.splat %x : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %ptrs = tile.addptr %base, %offsets : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>, tensor<${ROWS}x${COLS}xi32>
  %v = tile.load %ptrs : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>

  // Factors near 1 keep the products finite.
  %tenth = arith.constant dense<0.1> : tensor<${ROWS}x${COLS}xf32>
  %one = arith.constant dense<1.0> : tensor<${ROWS}x${COLS}xf32>
  %scaled = arith.mulf %v, %tenth : tensor<${ROWS}x${COLS}xf32>
  %factors = arith.addf %scaled, %one : tensor<${ROWS}x${COLS}xf32>

  // A NaN in every third row, at column (3 * row) mod COLS.
  %three = arith.constant dense<3> : tensor<${ROWS}x${COLS}xi32>
  %zero = arith.constant dense<0> : tensor<${ROWS}x${COLS}xi32>
  %rmod = arith.remsi %rb, %three : tensor<${ROWS}x${COLS}xi32>
  %third = arith.cmpi eq, %rmod, %zero : tensor<${ROWS}x${COLS}xi32>
  %r3 = arith.muli %rb, %three : tensor<${ROWS}x${COLS}xi32>
  %nanCol = arith.remsi %r3, %ncols : tensor<${ROWS}x${COLS}xi32>
  %atCol = arith.cmpi eq, %cb, %nanCol : tensor<${ROWS}x${COLS}xi32>
  %putNaN = arith.andi %third, %atCol : tensor<${ROWS}x${COLS}xi1>
  %nan = arith.constant dense<0x7FC00000> : tensor<${ROWS}x${COLS}xf32>
  %withNaN = arith.select %putNaN, %nan, %v : tensor<${ROWS}x${COLS}xi1>, tensor<${ROWS}x${COLS}xf32>

  // Small integers with many ties.
  %seven = arith.constant dense<7> : tensor<${ROWS}x${COLS}xi32>
  %prod_rc = arith.muli %rb, %cb : tensor<${ROWS}x${COLS}xi32>
  %mixed = arith.addi %prod_rc, %cb : tensor<${ROWS}x${COLS}xi32>
  %ints = arith.remsi %mixed, %seven : tensor<${ROWS}x${COLS}xi32>

  %max = tile.reduce max %v axis = 1 : tensor<${ROWS}x${COLS}xf32> -> tensor<${ROWS}xf32>
  %min = tile.reduce min %v axis = 1 : tensor<${ROWS}x${COLS}xf32> -> tensor<${ROWS}xf32>
  %sum = tile.reduce sum %v axis = 1 : tensor<${ROWS}x${COLS}xf32> -> tensor<${ROWS}xf32>
  %prod = tile.reduce prod %factors axis = 1 : tensor<${ROWS}x${COLS}xf32> -> tensor<${ROWS}xf32>
  %amax = tile.reduce argmax %v axis = 1 : tensor<${ROWS}x${COLS}xf32> -> tensor<${ROWS}xi32>
  %amin = tile.reduce argmin %v axis = 1 : tensor<${ROWS}x${COLS}xf32> -> tensor<${ROWS}xi32>
  %nmax = tile.reduce argmax %withNaN axis = 1 : tensor<${ROWS}x${COLS}xf32> -> tensor<${ROWS}xi32>
  %nmaxv = tile.reduce max %withNaN axis = 1 : tensor<${ROWS}x${COLS}xf32> -> tensor<${ROWS}xf32>
  %imax = tile.reduce argmax %ints axis = 1 : tensor<${ROWS}x${COLS}xi32> -> tensor<${ROWS}xi32>
  %imin = tile.reduce argmin %ints axis = 1 : tensor<${ROWS}x${COLS}xi32> -> tensor<${ROWS}xi32>
  %cmax = tile.reduce argmax %v axis = 0 : tensor<${ROWS}x${COLS}xf32> -> tensor<${COLS}xi32>
  %cmin = tile.reduce argmin %ints axis = 0 : tensor<${ROWS}x${COLS}xi32> -> tensor<${COLS}xi32>

  %ob = tile.splat %row_out : tensor<${ROWS}x!tile.ptr<f32>>
  %o0 = tile.addptr %ob, %rows : tensor<${ROWS}x!tile.ptr<f32>>, tensor<${ROWS}xi32>
  %rstep = arith.constant dense<${ROWS}> : tensor<${ROWS}xi32>
  %o1 = tile.addptr %o0, %rstep : tensor<${ROWS}x!tile.ptr<f32>>, tensor<${ROWS}xi32>
  %o2 = tile.addptr %o1, %rstep : tensor<${ROWS}x!tile.ptr<f32>>, tensor<${ROWS}xi32>
  %o3 = tile.addptr %o2, %rstep : tensor<${ROWS}x!tile.ptr<f32>>, tensor<${ROWS}xi32>
  %o4 = tile.addptr %o3, %rstep : tensor<${ROWS}x!tile.ptr<f32>>, tensor<${ROWS}xi32>
  tile.store %o0, %max : tensor<${ROWS}x!tile.ptr<f32>>
  tile.store %o1, %min : tensor<${ROWS}x!tile.ptr<f32>>
  tile.store %o2, %sum : tensor<${ROWS}x!tile.ptr<f32>>
  tile.store %o3, %prod : tensor<${ROWS}x!tile.ptr<f32>>
  tile.store %o4, %nmaxv : tensor<${ROWS}x!tile.ptr<f32>>

  %ab = tile.splat %row_arg : tensor<${ROWS}x!tile.ptr<i32>>
  %a0 = tile.addptr %ab, %rows : tensor<${ROWS}x!tile.ptr<i32>>, tensor<${ROWS}xi32>
  %a1 = tile.addptr %a0, %rstep : tensor<${ROWS}x!tile.ptr<i32>>, tensor<${ROWS}xi32>
  %a2 = tile.addptr %a1, %rstep : tensor<${ROWS}x!tile.ptr<i32>>, tensor<${ROWS}xi32>
  %a3 = tile.addptr %a2, %rstep : tensor<${ROWS}x!tile.ptr<i32>>, tensor<${ROWS}xi32>
  %a4 = tile.addptr %a3, %rstep : tensor<${ROWS}x!tile.ptr<i32>>, tensor<${ROWS}xi32>
  tile.store %a0, %amax : tensor<${ROWS}x!tile.ptr<i32>>
  tile.store %a1, %amin : tensor<${ROWS}x!tile.ptr<i32>>
  tile.store %a2, %nmax : tensor<${ROWS}x!tile.ptr<i32>>
  tile.store %a3, %imax : tensor<${ROWS}x!tile.ptr<i32>>
  tile.store %a4, %imin : tensor<${ROWS}x!tile.ptr<i32>>

  %cbase = tile.splat %col_arg : tensor<${COLS}x!tile.ptr<i32>>
  %c0p = tile.addptr %cbase, %cols : tensor<${COLS}x!tile.ptr<i32>>, tensor<${COLS}xi32>
  %cstep = arith.constant dense<${COLS}> : tensor<${COLS}xi32>
  %c1p = tile.addptr %c0p, %cstep : tensor<${COLS}x!tile.ptr<i32>>, tensor<${COLS}xi32>
  tile.store %c0p, %cmax : tensor<${COLS}x!tile.ptr<i32>>
  tile.store %c1p, %cmin : tensor<${COLS}x!tile.ptr<i32>>
  return
}
