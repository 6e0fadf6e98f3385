// A kernel whose expressions fail for some settings of its parameters.
tile.param BLOCK = 128
tile.param DIVISOR = 2

func.func @k() attributes {tile.kernel} {
  %r = tile.range 0, ${BLOCK} : tensor<${BLOCK}xi32>
  %h = arith.constant ${BLOCK / DIVISOR} : i32
  return
}
