// A module without any tile kernel.
func.func @helper(%x: f32) -> f32 {
  return %x : f32
}
