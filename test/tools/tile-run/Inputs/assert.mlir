// Asserts that every x[i] is below n: one program of BLOCK elements.
tile.param BLOCK = 64
func.func @check(%x: !tile.ptr<i32>, %n: i32) attributes {tile.kernel, tile.num_warps = 2 : i32} {
  %r = tile.range 0, ${BLOCK} : tensor<${BLOCK}xi32>
  %b = tile.splat %x : tensor<${BLOCK}x!tile.ptr<i32>>
  %p = tile.addptr %b, %r : tensor<${BLOCK}x!tile.ptr<i32>>, tensor<${BLOCK}xi32>
  %v = tile.load %p : tensor<${BLOCK}x!tile.ptr<i32>>
  %ns = tile.splat %n : tensor<${BLOCK}xi32>
  %ok = arith.cmpi slt, %v, %ns : tensor<${BLOCK}xi32>
  tile.assert %ok, "x is below n" : tensor<${BLOCK}xi1>
  return
}
