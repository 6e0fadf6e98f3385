// Kernels are compiled as single functions (calls are inlined first), so
// tile-kernel-check rejects calls that cannot be inlined, at the call, and
// checks the helpers a kernel reaches as it checks the kernel. These used to
// fail late in the PTX path ("does not reference a symbol", "failed to
// legalize unresolved materialization") or pass the interpreter.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics -tile-kernel-check

func.func private @self(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{recursive call to 'self' from kernel 'direct'; calls are inlined, so kernels and their helpers cannot recurse}}
  func.call @self(%p) : (!tile.ptr<f32>) -> ()
  return
}
func.func @direct(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  func.call @self(%p) : (!tile.ptr<f32>) -> ()
  return
}

// -----

func.func private @ping(%p: !tile.ptr<f32>) {
  func.call @pong(%p) : (!tile.ptr<f32>) -> ()
  return
}
func.func private @pong(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{recursive call to 'ping' from kernel 'mutual'}}
  func.call @ping(%p) : (!tile.ptr<f32>) -> ()
  return
}
func.func @mutual(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  func.call @ping(%p) : (!tile.ptr<f32>) -> ()
  return
}

// -----

func.func private @external(%p: !tile.ptr<f32>)
func.func @calls_external(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  // expected-error @+1 {{kernel 'calls_external' calls 'external', which has no body in this module; kernels may call only functions defined beside them (they are inlined)}}
  func.call @external(%p) : (!tile.ptr<f32>) -> ()
  return
}

// -----

func.func @callee_kernel(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  return
}
func.func @caller_kernel(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  // expected-error @+1 {{kernel 'caller_kernel' calls kernel 'callee_kernel'; kernels are launched, not called}}
  func.call @callee_kernel(%p) : (!tile.ptr<f32>) -> ()
  return
}

// -----

// A helper's tiles count as the kernel's.
func.func private @fill(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{tile 'tensor<2097152xf32>' in function 'fill' has 2097152 elements; the limit is 1048576}}
  %c = arith.constant dense<1.0> : tensor<2097152xf32>
  %r = tile.range 0, 2097152 : tensor<2097152xi32>
  %ps = tile.splat %p : tensor<2097152x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %r : tensor<2097152x!tile.ptr<f32>>, tensor<2097152xi32>
  tile.store %pp, %c : tensor<2097152x!tile.ptr<f32>>
  return
}
func.func @calls_fill(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  func.call @fill(%p) : (!tile.ptr<f32>) -> ()
  return
}

// -----

// Helpers called twice, or by two kernels, are fine.
func.func private @twice(%p: !tile.ptr<f32>) {
  return
}
func.func @diamond(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  func.call @twice(%p) : (!tile.ptr<f32>) -> ()
  func.call @twice(%p) : (!tile.ptr<f32>) -> ()
  return
}
func.func @diamond2(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  func.call @twice(%p) : (!tile.ptr<f32>) -> ()
  return
}
