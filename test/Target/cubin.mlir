// --format=bin runs ptxas on the PTX and writes a cubin (an ELF file) for
// the chosen chip; the metadata is the same as for PTX.
//
// REQUIRES: ptxas
// RUN: tile-compile %S/../../examples/softmax.mlir --format=bin -o %t.cubin --metadata %t.meta
// RUN: head -c 4 %t.cubin | od -An -c | FileCheck %s --check-prefix=ELF
// RUN: FileCheck %s --check-prefix=META < %t.meta
// RUN: not grep -q "\.entry" %t.cubin
// RUN: tile-compile %S/../../examples/matmul.mlir --format=bin --chip sm_80 -o %t.sm80.cubin
// RUN: head -c 4 %t.sm80.cubin | od -An -c | FileCheck %s --check-prefix=ELF
// The kernel names are symbols of the cubin.
// RUN: grep -c "matmul_leaky_relu" %t.sm80.cubin

// ELF: 177 E L F

// META: name softmax
// META: shared_bytes 16
