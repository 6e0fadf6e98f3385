// Kernels are compiled as single functions (calls are inlined first), so
// tile-check-calls rejects calls that cannot be inlined, at the call, and
// tile-kernel-check checks the helpers a kernel reaches as it checks the
// kernel. These used to fail late in the PTX path ("does not reference a
// symbol", "failed to legalize unresolved materialization") or pass the
// interpreter.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics -tile-check-calls -tile-kernel-check

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

// -----

// Chains of calls deeper than 64 (the inliner took minutes over 10,000 of
// them), whether a kernel makes them or not.
func.func private @h0(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h1(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h1(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  // expected-error @+1 {{calls from 'h1' nest deeper than 64 functions; every call is inlined}}
  %r = func.call @h2(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h2(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h3(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h3(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h4(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h4(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h5(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h5(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h6(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h6(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h7(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h7(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h8(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h8(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h9(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h9(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h10(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h10(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h11(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h11(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h12(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h12(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h13(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h13(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h14(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h14(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h15(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h15(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h16(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h16(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h17(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h17(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h18(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h18(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h19(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h19(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h20(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h20(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h21(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h21(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h22(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h22(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h23(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h23(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h24(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h24(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h25(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h25(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h26(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h26(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h27(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h27(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h28(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h28(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h29(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h29(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h30(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h30(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h31(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h31(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h32(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h32(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h33(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h33(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h34(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h34(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h35(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h35(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h36(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h36(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h37(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h37(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h38(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h38(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h39(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h39(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h40(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h40(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h41(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h41(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h42(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h42(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h43(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h43(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h44(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h44(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h45(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h45(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h46(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h46(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h47(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h47(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h48(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h48(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h49(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h49(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h50(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h50(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h51(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h51(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h52(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h52(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h53(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h53(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h54(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h54(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h55(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h55(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h56(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h56(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h57(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h57(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h58(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h58(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h59(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h59(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h60(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h60(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h61(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h61(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h62(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h62(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h63(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h63(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h64(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h64(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h65(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h65(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %r = func.call @h66(%b) : (i32) -> i32
  return %r : i32
}
func.func private @h66(%a: i32) -> i32 {
  return %a : i32
}
func.func @deep(%p: !tile.ptr<i32>) attributes {tile.kernel} {
  %pid = tile.program_id 0
  %r = func.call @h0(%pid) : (i32) -> i32
  tile.store %p, %r : !tile.ptr<i32>
  return
}

// -----

// A long chain no kernel calls is inlined all the same.
func.func private @u0(%a: i32) -> i32 {
  %r = func.call @u1(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u1(%a: i32) -> i32 {
  %r = func.call @u2(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u2(%a: i32) -> i32 {
  %r = func.call @u3(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u3(%a: i32) -> i32 {
  %r = func.call @u4(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u4(%a: i32) -> i32 {
  %r = func.call @u5(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u5(%a: i32) -> i32 {
  // expected-error @+1 {{calls from 'u5' nest deeper than 64 functions}}
  %r = func.call @u6(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u6(%a: i32) -> i32 {
  %r = func.call @u7(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u7(%a: i32) -> i32 {
  %r = func.call @u8(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u8(%a: i32) -> i32 {
  %r = func.call @u9(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u9(%a: i32) -> i32 {
  %r = func.call @u10(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u10(%a: i32) -> i32 {
  %r = func.call @u11(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u11(%a: i32) -> i32 {
  %r = func.call @u12(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u12(%a: i32) -> i32 {
  %r = func.call @u13(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u13(%a: i32) -> i32 {
  %r = func.call @u14(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u14(%a: i32) -> i32 {
  %r = func.call @u15(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u15(%a: i32) -> i32 {
  %r = func.call @u16(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u16(%a: i32) -> i32 {
  %r = func.call @u17(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u17(%a: i32) -> i32 {
  %r = func.call @u18(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u18(%a: i32) -> i32 {
  %r = func.call @u19(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u19(%a: i32) -> i32 {
  %r = func.call @u20(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u20(%a: i32) -> i32 {
  %r = func.call @u21(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u21(%a: i32) -> i32 {
  %r = func.call @u22(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u22(%a: i32) -> i32 {
  %r = func.call @u23(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u23(%a: i32) -> i32 {
  %r = func.call @u24(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u24(%a: i32) -> i32 {
  %r = func.call @u25(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u25(%a: i32) -> i32 {
  %r = func.call @u26(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u26(%a: i32) -> i32 {
  %r = func.call @u27(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u27(%a: i32) -> i32 {
  %r = func.call @u28(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u28(%a: i32) -> i32 {
  %r = func.call @u29(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u29(%a: i32) -> i32 {
  %r = func.call @u30(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u30(%a: i32) -> i32 {
  %r = func.call @u31(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u31(%a: i32) -> i32 {
  %r = func.call @u32(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u32(%a: i32) -> i32 {
  %r = func.call @u33(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u33(%a: i32) -> i32 {
  %r = func.call @u34(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u34(%a: i32) -> i32 {
  %r = func.call @u35(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u35(%a: i32) -> i32 {
  %r = func.call @u36(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u36(%a: i32) -> i32 {
  %r = func.call @u37(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u37(%a: i32) -> i32 {
  %r = func.call @u38(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u38(%a: i32) -> i32 {
  %r = func.call @u39(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u39(%a: i32) -> i32 {
  %r = func.call @u40(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u40(%a: i32) -> i32 {
  %r = func.call @u41(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u41(%a: i32) -> i32 {
  %r = func.call @u42(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u42(%a: i32) -> i32 {
  %r = func.call @u43(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u43(%a: i32) -> i32 {
  %r = func.call @u44(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u44(%a: i32) -> i32 {
  %r = func.call @u45(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u45(%a: i32) -> i32 {
  %r = func.call @u46(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u46(%a: i32) -> i32 {
  %r = func.call @u47(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u47(%a: i32) -> i32 {
  %r = func.call @u48(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u48(%a: i32) -> i32 {
  %r = func.call @u49(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u49(%a: i32) -> i32 {
  %r = func.call @u50(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u50(%a: i32) -> i32 {
  %r = func.call @u51(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u51(%a: i32) -> i32 {
  %r = func.call @u52(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u52(%a: i32) -> i32 {
  %r = func.call @u53(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u53(%a: i32) -> i32 {
  %r = func.call @u54(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u54(%a: i32) -> i32 {
  %r = func.call @u55(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u55(%a: i32) -> i32 {
  %r = func.call @u56(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u56(%a: i32) -> i32 {
  %r = func.call @u57(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u57(%a: i32) -> i32 {
  %r = func.call @u58(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u58(%a: i32) -> i32 {
  %r = func.call @u59(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u59(%a: i32) -> i32 {
  %r = func.call @u60(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u60(%a: i32) -> i32 {
  %r = func.call @u61(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u61(%a: i32) -> i32 {
  %r = func.call @u62(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u62(%a: i32) -> i32 {
  %r = func.call @u63(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u63(%a: i32) -> i32 {
  %r = func.call @u64(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u64(%a: i32) -> i32 {
  %r = func.call @u65(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u65(%a: i32) -> i32 {
  %r = func.call @u66(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u66(%a: i32) -> i32 {
  %r = func.call @u67(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u67(%a: i32) -> i32 {
  %r = func.call @u68(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u68(%a: i32) -> i32 {
  %r = func.call @u69(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u69(%a: i32) -> i32 {
  %r = func.call @u70(%a) : (i32) -> i32
  return %r : i32
}
func.func private @u70(%a: i32) -> i32 {
  return %a : i32
}
func.func @unrelated(%p: !tile.ptr<i32>) attributes {tile.kernel} {
  return
}
