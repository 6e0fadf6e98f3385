// RUN: tile-opt %s --tile-to-llvm -verify-diagnostics -o /dev/null

// A print that cannot fit CUDA's printf buffer (1 MiB for a launch) warns:
// 65536 lines of about 45 bytes from each program. (The 64 values each
// thread prints are also more registers than 1024 threads may hold.)
#big = #tile.blocked<{sizePerThread = [64], threadsPerWarp = [32], warpsPerCTA = [32], order = [0]}>
// expected-warning @+1 {{kernel 'huge_print' needs about 76 registers per thread, more than the 64 a thread may use with 1024 threads}}
func.func @huge_print(%x: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 32 : i32} {
  %r = tile.range 0, 65536 : tensor<65536xi32, #big>
  // expected-note @+1 {{peak register use is here}}
  %f = arith.sitofp %r : tensor<65536xi32, #big> to tensor<65536xf32, #big>
  // expected-warning @+1 {{prints 65536 lines per program, about 2949120 bytes: more than CUDA's printf buffer of 1048576 bytes holds for a whole launch, so lines will be lost (print a smaller tile, or from one program)}}
  tile.print "value" %f : tensor<65536xf32, #big>
  return
}
