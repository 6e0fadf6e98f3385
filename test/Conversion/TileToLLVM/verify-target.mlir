// tile-verify-target rejects what the chip cannot run, at the op.
//
// RUN: tile-opt %s -split-input-file -tile-verify-target="chip=sm_80" -verify-diagnostics
// RUN: tile-opt %s -split-input-file -tile-verify-target="chip=sm_90a" -o /dev/null

func.func @bf16_atomic_add(%p: !tile.ptr<bf16>, %v: bf16) {
  // expected-error @+1 {{an atomic add of bf16 needs sm_90 or newer; the target is sm_80}}
  %0 = tile.atomic_rmw add %p, %v : !tile.ptr<bf16>
  return
}

// -----

// f16 atomic additions exist on every chip Tile compiles for.
func.func @f16_atomic_add(%p: !tile.ptr<f16>, %v: f16) {
  %0 = tile.atomic_rmw add %p, %v : !tile.ptr<f16>
  return
}

// -----

// A producer warpgroup sets its registers with setmaxnreg (sm_90a).
func.func @producer(%n: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  // expected-error @+1 {{tile.warp_specialize needs sm_90a (setmaxnreg); the target is sm_80}}
  tile.warp_specialize registers(24, 240) {
  }
  return
}
