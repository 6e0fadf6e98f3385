// Shared-memory pointers are 32 bits wide in the PTX Tile emits: the NVVM
// ops on !llvm.ptr<3> (cp.async and ldmatrix on sm_80; mbarriers and TMA
// copies on sm_90a) take 32-bit registers or the shared array's symbol,
// with no conversion to or from 64-bit generic addresses. The try-wait on
// an mbarrier is a loop around the instruction.
//
// RUN: tile-compile %S/../../examples/matmul_f16.mlir --chip=sm_80 -o %t80.ptx
// RUN: FileCheck %s --check-prefix=SM80 --implicit-check-not=cvta.shared < %t80.ptx
// RUN: tile-compile %S/../../examples/matmul_f16_hopper.mlir --chip=sm_90a -o %t90.ptx
// RUN: FileCheck %s --check-prefix=SM90 --implicit-check-not=cvta.shared < %t90.ptx
//
// SM80:      .entry matmul_f16(
// SM80:      cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// SM80:      cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// SM80:      ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{.*}}, [%r{{[0-9]+}}];
// SM80:      ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {{.*}}, [%r{{[0-9]+}}];
//
// SM90:      .entry matmul_f16_hopper(
// SM90:      mbarrier.init.shared.b64 [tile_smem+{{[0-9]+}}], %r{{[0-9]+}};
// SM90:      fence.mbarrier_init.release.cluster;
// SM90:      mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [tile_smem+{{[0-9]+}}], %r{{[0-9]+}};
// SM90:      cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [tile_smem], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [tile_smem+{{[0-9]+}}];
// SM90:      cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [tile_smem], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [tile_smem+{{[0-9]+}}];
// SM90:      [[WAIT:\$L__BB[0-9_]+]]:{{[[:space:]]+}}mbarrier.try_wait.parity.shared.b64 [[DONE:%p[0-9]+]], [%r{{[0-9]+}}], %r{{[0-9]+}};
// SM90-NEXT: not.pred [[PENDING:%p[0-9]+]], [[DONE]];
// SM90-NEXT: @[[PENDING]] bra [[WAIT]];
