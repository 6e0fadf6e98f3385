// tile.scan of every kind, and tile.reduce with a combiner region, over a
// ROWS x COLS block: along the rows and along the columns, forward and
// reversed, in f32, f16 and i32. Run by tile-run on the GPU and compared
// with the interpreter; the sizes and warps decide which path of the GPU
// lowering runs (chunks within a warp, lines over several warps, whole
// lines per thread, fewer elements than threads).
//
//   @scan_kinds(%x: f32[ROWS x COLS], %o: f32[7 x ROWS x COLS],
//               %h: f16[ROWS x COLS], %n: i32[(2 ROWS + 1) x COLS],
//               %r: f32[ROWS])
//
// o: cumsum, cumprod(1 + x/10), cummax along the rows; cummin down the
//    columns; cumsum along the rows from the end; a "keep the left
//    operand" combiner along the rows (the row's first element everywhere)
//    and up the columns from the end (the column's last element);
// h: cumsum of f16(x) along the rows;
// n: cumsum of the integers (row * col + col) mod 7 - 3 along the rows;
//    the combiner a + b + 1 down the columns; the same combiner as a
//    reduction down the columns (the last row);
// r: a max |x| combiner reducing along the rows.

tile.param ROWS = 64
tile.param COLS = 128
tile.param NUM_WARPS = 4

func.func @scan_kinds(%x: !tile.ptr<f32>, %o: !tile.ptr<f32>,
                      %h: !tile.ptr<f16>, %n: !tile.ptr<i32>,
                      %r: !tile.ptr<f32>)
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
  %block = arith.constant dense<${ROWS * COLS}> : tensor<${ROWS}x${COLS}xi32>
  %xs = tile.splat %x : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offsets : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>, tensor<${ROWS}x${COLS}xi32>
  %v = tile.load %xp : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>

  %tenth = arith.constant dense<0.1> : tensor<${ROWS}x${COLS}xf32>
  %one = arith.constant dense<1.0> : tensor<${ROWS}x${COLS}xf32>
  %scaled = arith.mulf %v, %tenth : tensor<${ROWS}x${COLS}xf32>
  %factors = arith.addf %scaled, %one : tensor<${ROWS}x${COLS}xf32>

  %cumsum = tile.scan sum %v axis = 1 : tensor<${ROWS}x${COLS}xf32>
  %cumprod = tile.scan prod %factors axis = 1 : tensor<${ROWS}x${COLS}xf32>
  %cummax = tile.scan max %v axis = 1 : tensor<${ROWS}x${COLS}xf32>
  %cummin = tile.scan min %v axis = 0 : tensor<${ROWS}x${COLS}xf32>
  %revsum = tile.scan sum %v axis = 1 reverse : tensor<${ROWS}x${COLS}xf32>
  %first = tile.scan custom %v axis = 1 : tensor<${ROWS}x${COLS}xf32> {
  ^bb0(%a: f32, %b: f32):
    tile.yield %a : f32
  }
  %last = tile.scan custom %v axis = 0 reverse : tensor<${ROWS}x${COLS}xf32> {
  ^bb0(%a: f32, %b: f32):
    tile.yield %a : f32
  }
  %os = tile.splat %o : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %o0 = tile.addptr %os, %offsets : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>, tensor<${ROWS}x${COLS}xi32>
  tile.store %o0, %cumsum : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %o1 = tile.addptr %o0, %block : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>, tensor<${ROWS}x${COLS}xi32>
  tile.store %o1, %cumprod : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %o2 = tile.addptr %o1, %block : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>, tensor<${ROWS}x${COLS}xi32>
  tile.store %o2, %cummax : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %o3 = tile.addptr %o2, %block : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>, tensor<${ROWS}x${COLS}xi32>
  tile.store %o3, %cummin : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %o4 = tile.addptr %o3, %block : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>, tensor<${ROWS}x${COLS}xi32>
  tile.store %o4, %revsum : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %o5 = tile.addptr %o4, %block : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>, tensor<${ROWS}x${COLS}xi32>
  tile.store %o5, %first : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>
  %o6 = tile.addptr %o5, %block : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>, tensor<${ROWS}x${COLS}xi32>
  tile.store %o6, %last : tensor<${ROWS}x${COLS}x!tile.ptr<f32>>

  %half = arith.truncf %v : tensor<${ROWS}x${COLS}xf32> to tensor<${ROWS}x${COLS}xf16>
  %hsum = tile.scan sum %half axis = 1 : tensor<${ROWS}x${COLS}xf16>
  %hs = tile.splat %h : tensor<${ROWS}x${COLS}x!tile.ptr<f16>>
  %hp = tile.addptr %hs, %offsets : tensor<${ROWS}x${COLS}x!tile.ptr<f16>>, tensor<${ROWS}x${COLS}xi32>
  tile.store %hp, %hsum : tensor<${ROWS}x${COLS}x!tile.ptr<f16>>

  %seven = arith.constant dense<7> : tensor<${ROWS}x${COLS}xi32>
  %three = arith.constant dense<3> : tensor<${ROWS}x${COLS}xi32>
  %prod_rc = arith.muli %rb, %cb : tensor<${ROWS}x${COLS}xi32>
  %mixed = arith.addi %prod_rc, %cb : tensor<${ROWS}x${COLS}xi32>
  %mod = arith.remsi %mixed, %seven : tensor<${ROWS}x${COLS}xi32>
  %ints = arith.subi %mod, %three : tensor<${ROWS}x${COLS}xi32>
  %isum = tile.scan sum %ints axis = 1 : tensor<${ROWS}x${COLS}xi32>
  %iplus = tile.scan custom %ints axis = 0 : tensor<${ROWS}x${COLS}xi32> {
  ^bb0(%a: i32, %b: i32):
    %c1 = arith.constant 1 : i32
    %s = arith.addi %a, %b : i32
    %s1 = arith.addi %s, %c1 : i32
    tile.yield %s1 : i32
  }
  %icol = tile.reduce custom %ints axis = 0 : tensor<${ROWS}x${COLS}xi32> -> tensor<${COLS}xi32> {
  ^bb0(%a: i32, %b: i32):
    %c1 = arith.constant 1 : i32
    %s = arith.addi %a, %b : i32
    %s1 = arith.addi %s, %c1 : i32
    tile.yield %s1 : i32
  }
  %ns = tile.splat %n : tensor<${ROWS}x${COLS}x!tile.ptr<i32>>
  %n0 = tile.addptr %ns, %offsets : tensor<${ROWS}x${COLS}x!tile.ptr<i32>>, tensor<${ROWS}x${COLS}xi32>
  tile.store %n0, %isum : tensor<${ROWS}x${COLS}x!tile.ptr<i32>>
  %n1 = tile.addptr %n0, %block : tensor<${ROWS}x${COLS}x!tile.ptr<i32>>, tensor<${ROWS}x${COLS}xi32>
  tile.store %n1, %iplus : tensor<${ROWS}x${COLS}x!tile.ptr<i32>>
  %twoBlocks = arith.constant ${2 * ROWS * COLS} : i32
  %nrow = tile.addptr %n, %twoBlocks : !tile.ptr<i32>, i32
  %nrows = tile.splat %nrow : tensor<${COLS}x!tile.ptr<i32>>
  %n2 = tile.addptr %nrows, %cols : tensor<${COLS}x!tile.ptr<i32>>, tensor<${COLS}xi32>
  tile.store %n2, %icol : tensor<${COLS}x!tile.ptr<i32>>

  %maxabs = tile.reduce custom %v axis = 1 : tensor<${ROWS}x${COLS}xf32> -> tensor<${ROWS}xf32> {
  ^bb0(%a: f32, %b: f32):
    %aa = math.absf %a : f32
    %ba = math.absf %b : f32
    %m = arith.maximumf %aa, %ba : f32
    tile.yield %m : f32
  }
  %rs = tile.splat %r : tensor<${ROWS}x!tile.ptr<f32>>
  %rp = tile.addptr %rs, %rows : tensor<${ROWS}x!tile.ptr<f32>>, tensor<${ROWS}xi32>
  tile.store %rp, %maxabs : tensor<${ROWS}x!tile.ptr<f32>>
  return
}
