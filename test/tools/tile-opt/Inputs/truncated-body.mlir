// A kernel whose body ends after an op: no terminator, no closing brace.
func.func @copy(%in: !tile.ptr<f32>) attributes {tile.kernel} {
  %pid = tile.program_id 0
