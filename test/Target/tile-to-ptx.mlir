// The tile-to-ptx pipeline in tile-opt: the whole compiler, ending with a
// gpu.binary holding the PTX (format=isa) and the kernels' metadata on the
// module.
//
// RUN: tile-opt %S/../../examples/vector_add.mlir --tile-to-ptx='chip=sm_80' | FileCheck %s
// RUN: tile-opt %S/../../examples/vector_add.mlir --tile-to-ptx | FileCheck %s --check-prefix=SM90

// CHECK:      module attributes {gpu.container_module, tile.metadata = "tile-kernel v1\0Aname vector_add\0Anum_warps 4\0Ashared_bytes 0\0Aarg ptr f32 16\0Aarg ptr f32 16\0Aarg ptr f32 16\0Aarg i32 1\0Aend\0A"} {
// CHECK-NEXT:   gpu.binary @tile_kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">, properties = {{.*}}, assembly = "{{.*}}.target sm_80{{.*}}.visible .entry vector_add({{.*}}">]
// CHECK-NEXT: }
// CHECK-NOT:  func.func
// CHECK-NOT:  gpu.module

// SM90: gpu.binary @tile_kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, {{.*}}.target sm_90
