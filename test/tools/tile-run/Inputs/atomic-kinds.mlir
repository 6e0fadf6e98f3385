// tile.atomic_rmw of every kind and tile.atomic_cas, from every program of
// the grid. Program p takes the elements k = p N .. p N + N - 1.
// Contended (many elements to one of BINS addresses, bin = k mod BINS),
// with results that do not depend on the order: a masked f32 sum of
// k mod 8 (k mod 3 != 0), a count, max k, min k, max of (k mod 8) - 3.5, an
// or of 1 << (k mod 31), an f16 count. Uncontended, one address per
// element, old values kept: xchg of y[k] with k mod 8 (old values to
// y_old) and a compare-and-swap of z[k] = k by 1000 + k where k is even
// (old values to z_old). With N smaller than the threads, warps hold copies
// of the elements: each must be applied once.
//
//   @atomic_kinds(%sum: f32[BINS], %count: i32[BINS], %max: i32[BINS],
//                 %min: i32[BINS] (fill large), %fmax: f32[BINS] (fill -inf),
//                 %bits: i32[BINS], %half: f16[BINS],
//                 %y: f32[T], %y_old: f32[T], %z: i32[T] (iota),
//                 %z_old: i32[T])          T = N x programs

tile.param N = 256
tile.param BINS = 16
tile.param NUM_WARPS = 4

func.func @atomic_kinds(%sum: !tile.ptr<f32>, %count: !tile.ptr<i32>,
                        %max: !tile.ptr<i32>, %min: !tile.ptr<i32>,
                        %fmax: !tile.ptr<f32>, %bits: !tile.ptr<i32>,
                        %half: !tile.ptr<f16>, %y: !tile.ptr<f32>,
                        %y_old: !tile.ptr<f32>, %z: !tile.ptr<i32>,
                        %z_old: !tile.ptr<i32>)
    attributes {tile.kernel, tile.num_warps = ${NUM_WARPS} : i32} {
  %pid = tile.program_id 0
  %n = arith.constant ${N} : i32
  %start = arith.muli %pid, %n : i32
  %range = tile.range 0, ${N} : tensor<${N}xi32>
  %starts = tile.splat %start : tensor<${N}xi32>
  %k = arith.addi %range, %starts : tensor<${N}xi32>
  %binsC = arith.constant dense<${BINS}> : tensor<${N}xi32>
  %bin = arith.remsi %k, %binsC : tensor<${N}xi32>
  %eight = arith.constant dense<8> : tensor<${N}xi32>
  %k8 = arith.remsi %k, %eight : tensor<${N}xi32>
  %v = arith.sitofp %k8 : tensor<${N}xi32> to tensor<${N}xf32>
  %three = arith.constant dense<3> : tensor<${N}xi32>
  %zero = arith.constant dense<0> : tensor<${N}xi32>
  %k3 = arith.remsi %k, %three : tensor<${N}xi32>
  %mask = arith.cmpi ne, %k3, %zero : tensor<${N}xi32>

  %sumB = tile.splat %sum : tensor<${N}x!tile.ptr<f32>>
  %sumP = tile.addptr %sumB, %bin : tensor<${N}x!tile.ptr<f32>>, tensor<${N}xi32>
  %0 = tile.atomic_rmw add %sumP, %v, %mask : tensor<${N}x!tile.ptr<f32>>

  %one = arith.constant dense<1> : tensor<${N}xi32>
  %countB = tile.splat %count : tensor<${N}x!tile.ptr<i32>>
  %countP = tile.addptr %countB, %bin : tensor<${N}x!tile.ptr<i32>>, tensor<${N}xi32>
  %1 = tile.atomic_rmw add %countP, %one : tensor<${N}x!tile.ptr<i32>>

  %maxB = tile.splat %max : tensor<${N}x!tile.ptr<i32>>
  %maxP = tile.addptr %maxB, %bin : tensor<${N}x!tile.ptr<i32>>, tensor<${N}xi32>
  %2 = tile.atomic_rmw max %maxP, %k sem = relaxed : tensor<${N}x!tile.ptr<i32>>
  %minB = tile.splat %min : tensor<${N}x!tile.ptr<i32>>
  %minP = tile.addptr %minB, %bin : tensor<${N}x!tile.ptr<i32>>, tensor<${N}xi32>
  %3 = tile.atomic_rmw min %minP, %k sem = release : tensor<${N}x!tile.ptr<i32>>

  %shift = arith.constant dense<3.5> : tensor<${N}xf32>
  %centered = arith.subf %v, %shift : tensor<${N}xf32>
  %fmaxB = tile.splat %fmax : tensor<${N}x!tile.ptr<f32>>
  %fmaxP = tile.addptr %fmaxB, %bin : tensor<${N}x!tile.ptr<f32>>, tensor<${N}xi32>
  %4 = tile.atomic_rmw max %fmaxP, %centered sem = acquire : tensor<${N}x!tile.ptr<f32>>

  %c31 = arith.constant dense<31> : tensor<${N}xi32>
  %k31 = arith.remsi %k, %c31 : tensor<${N}xi32>
  %bit = arith.shli %one, %k31 : tensor<${N}xi32>
  %bitsB = tile.splat %bits : tensor<${N}x!tile.ptr<i32>>
  %bitsP = tile.addptr %bitsB, %bin : tensor<${N}x!tile.ptr<i32>>, tensor<${N}xi32>
  %5 = tile.atomic_rmw or %bitsP, %bit : tensor<${N}x!tile.ptr<i32>>

  %hone = arith.constant dense<1.0> : tensor<${N}xf16>
  %halfB = tile.splat %half : tensor<${N}x!tile.ptr<f16>>
  %halfP = tile.addptr %halfB, %bin : tensor<${N}x!tile.ptr<f16>>, tensor<${N}xi32>
  %6 = tile.atomic_rmw add %halfP, %hone, %mask : tensor<${N}x!tile.ptr<f16>>

  %yB = tile.splat %y : tensor<${N}x!tile.ptr<f32>>
  %yP = tile.addptr %yB, %k : tensor<${N}x!tile.ptr<f32>>, tensor<${N}xi32>
  %yOld = tile.atomic_rmw xchg %yP, %v sem = release scope = cta : tensor<${N}x!tile.ptr<f32>>
  %yOldB = tile.splat %y_old : tensor<${N}x!tile.ptr<f32>>
  %yOldP = tile.addptr %yOldB, %k : tensor<${N}x!tile.ptr<f32>>, tensor<${N}xi32>
  tile.store %yOldP, %yOld : tensor<${N}x!tile.ptr<f32>>

  %two = arith.constant dense<2> : tensor<${N}xi32>
  %k2 = arith.remsi %k, %two : tensor<${N}xi32>
  %even = arith.cmpi eq, %k2, %zero : tensor<${N}xi32>
  %minus1 = arith.constant dense<-1> : tensor<${N}xi32>
  %cmp = arith.select %even, %k, %minus1 : tensor<${N}xi1>, tensor<${N}xi32>
  %thousand = arith.constant dense<1000> : tensor<${N}xi32>
  %new = arith.addi %k, %thousand : tensor<${N}xi32>
  %zB = tile.splat %z : tensor<${N}x!tile.ptr<i32>>
  %zP = tile.addptr %zB, %k : tensor<${N}x!tile.ptr<i32>>, tensor<${N}xi32>
  %zOld = tile.atomic_cas %zP, %cmp, %new sem = acquire : tensor<${N}x!tile.ptr<i32>>
  %zOldB = tile.splat %z_old : tensor<${N}x!tile.ptr<i32>>
  %zOldP = tile.addptr %zOldB, %k : tensor<${N}x!tile.ptr<i32>>, tensor<${N}xi32>
  tile.store %zOldP, %zOld : tensor<${N}x!tile.ptr<i32>>
  return
}
