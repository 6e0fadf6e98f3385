// A kernel that takes a tensor map itself (tile-warp-specialize appends
// them to the kernels it specializes): tile-run cannot supply one.
func.func @stores_by_tma(%o: !tile.ptr<f16>, %n: i32,
                         %map: !tile.tensormap {tile.tma = {base = 0 : i64, shape = ["arg1", "128"], strides = ["128", "1"]}})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 128 : i64
  %n64 = arith.extsi %n : i32 to i64
  %v = arith.constant dense<1.0> : tensor<64x128xf16>
  %buf = tile.alloc_shared : !tile.shared<tensor<64x128xf16>, stages = 1, pad = 8>
  tile.local_store %v, %buf[%c0] : tensor<64x128xf16>, !tile.shared<tensor<64x128xf16>, stages = 1, pad = 8>
  %op = tile.make_block_ptr %o, [%n64, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x128xf16>>
  tile.tma_store %buf[%c0], %op map %map : !tile.shared<tensor<64x128xf16>, stages = 1, pad = 8>, !tile.block_ptr<tensor<64x128xf16>>
  return
}
