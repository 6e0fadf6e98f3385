// A kernel cut off in the middle of a type.
func.func @copy(%in: !tile.ptr<f32>, %out: !tile.ptr<f32>) attributes {tile.kernel} {
  %cols = tile.range 0, 128 : tensor<128xi32>
  %bases = tile.splat %in : tensor<128x!tile.ptr<f32>>
  %ptrs = tile.addptr %bases, %cols : tensor<128x!tile.ptr<f32>>, tens