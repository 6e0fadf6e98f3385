// Math ops without an instruction call libdevice, which the compile links
// from the CUDA toolkit and LLVM inlines: the PTX keeps no call and no
// extern declaration. f16 goes through the f32 function, f64 through the
// f64 one (also for exp and log, whose f32 forms use the hardware's
// approximations). Without libdevice such a kernel is rejected at the op.
//
// RUN: tile-compile %s --chip=sm_90 -o %t.ptx
// RUN: FileCheck %s --implicit-check-not=__nv_ --implicit-check-not=call < %t.ptx
// RUN: env CUDA_HOME=%t.missing not tile-compile %s --chip=sm_90 -o %t2.ptx 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING
//
// CHECK: .entry erf_sin_f32(
// CHECK: .entry powf_f16(
// CHECK: cvt.f32.f16
// CHECK: .entry exp_log_f64(
// CHECK-NOT: ex2.approx
// CHECK: ret;
//
// MISSING: ptx-libdevice.mlir:[[@LINE+8]]:8: error: kernel 'erf_sin_f32' calls libdevice's __nv_erff, and no libdevice was found: set CUDA_HOME to a CUDA toolkit (its nvvm/libdevice/libdevice.10.bc)

func.func @erf_sin_f32(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = tile.range 0, 128 : tensor<128xi32>
  %xb = tile.splat %x : tensor<128x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %v = tile.load %xp : tensor<128x!tile.ptr<f32>>
  %e = math.erf %v : tensor<128xf32>
  %s = math.sin %v : tensor<128xf32>
  %t = arith.addf %e, %s : tensor<128xf32>
  %yb = tile.splat %y : tensor<128x!tile.ptr<f32>>
  %yp = tile.addptr %yb, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  tile.store %yp, %t : tensor<128x!tile.ptr<f32>>
  return
}

func.func @powf_f16(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = tile.range 0, 128 : tensor<128xi32>
  %xb = tile.splat %x : tensor<128x!tile.ptr<f16>>
  %xp = tile.addptr %xb, %r : tensor<128x!tile.ptr<f16>>, tensor<128xi32>
  %v = tile.load %xp : tensor<128x!tile.ptr<f16>>
  %p = math.powf %v, %v : tensor<128xf16>
  %yb = tile.splat %y : tensor<128x!tile.ptr<f16>>
  %yp = tile.addptr %yb, %r : tensor<128x!tile.ptr<f16>>, tensor<128xi32>
  tile.store %yp, %p : tensor<128x!tile.ptr<f16>>
  return
}

func.func @exp_log_f64(%x: !tile.ptr<f64>, %y: !tile.ptr<f64>)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = tile.range 0, 128 : tensor<128xi32>
  %xb = tile.splat %x : tensor<128x!tile.ptr<f64>>
  %xp = tile.addptr %xb, %r : tensor<128x!tile.ptr<f64>>, tensor<128xi32>
  %v = tile.load %xp : tensor<128x!tile.ptr<f64>>
  %e = math.exp %v : tensor<128xf64>
  %l = math.log %e : tensor<128xf64>
  %yb = tile.splat %y : tensor<128x!tile.ptr<f64>>
  %yp = tile.addptr %yb, %r : tensor<128x!tile.ptr<f64>>, tensor<128xi32>
  tile.store %yp, %l : tensor<128x!tile.ptr<f64>>
  return
}
