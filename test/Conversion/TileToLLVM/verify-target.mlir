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

// -----

// TMA copies and stores (cp.async.bulk.tensor, fence.proxy.async) exist
// from sm_90 on.
func.func @tma_copy(%x: !tile.ptr<f16>, %n: i64,
                    %map: !tile.tensormap {tile.tma = {base = 0 : i64, shape = ["arg1", "64"], strides = ["64", "1"]}})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %true = arith.constant true
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %bp = tile.make_block_ptr %x, [%n, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %buf = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
  %bars = tile.alloc_mbarriers : !tile.mbarriers<1, arrivals = 1>
  // expected-error @+1 {{tile.tma_copy needs sm_90 or newer (the tensor memory accelerator); the target is sm_80}}
  tile.tma_copy %bp, %buf[%c0] map %map, %bars if %true : !tile.block_ptr<tensor<64x64xf16>>, !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>, !tile.mbarriers<1, arrivals = 1>
  return
}

// -----

func.func @tma_store(%o: !tile.ptr<f16>, %n: i64,
                     %map: !tile.tensormap {tile.tma = {base = 0 : i64, shape = ["arg1", "64"], strides = ["64", "1"]}})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %v = arith.constant dense<0.0> : tensor<64x64xf16>
  %buf = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
  tile.local_store %v, %buf[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
  %op = tile.make_block_ptr %o, [%n, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  // expected-error @+1 {{tile.tma_store needs sm_90 or newer (the tensor memory accelerator); the target is sm_80}}
  tile.tma_store %buf[%c0], %op map %map : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>, !tile.block_ptr<tensor<64x64xf16>>
  return
}
