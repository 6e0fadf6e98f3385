"""Writes a large kernel to standard output, for the scaling tests of the
kernel check and the analyses: `chain N` (N elementwise f32 ops in one
block), `ichain N` (N i32 additions), `loops N` (N nested scf.for loops),
`tiles N` (N live tiles in one block), `calls N` (a chain of N helper
calls)."""
import sys

kind, n = sys.argv[1], int(sys.argv[2])
out = []
if kind == "chain":
    out.append("func.func @chain(%p: !tile.ptr<f32>) attributes {tile.kernel} {")
    out.append("  %v0 = tile.load %p : !tile.ptr<f32>")
    for i in range(n):
        out.append(f"  %v{i + 1} = arith.addf %v{i}, %v{i} : f32")
    out.append(f"  tile.store %p, %v{n} : !tile.ptr<f32>")
elif kind == "ichain":
    out.append("func.func @ichain(%p: !tile.ptr<i32>) attributes {tile.kernel} {")
    out.append("  %v0 = tile.program_id 0")
    for i in range(n):
        out.append(f"  %v{i + 1} = arith.addi %v{i}, %v{i} : i32")
    out.append(f"  tile.store %p, %v{n} : !tile.ptr<i32>")
elif kind == "calls":
    for i in range(n):
        out.append(f"func.func private @h{i}(%a: i32) -> i32 {{")
        out.append(f"  %r = func.call @h{i + 1}(%a) : (i32) -> i32")
        out.append("  return %r : i32")
        out.append("}")
    out.append(f"func.func private @h{n}(%a: i32) -> i32 {{")
    out.append("  return %a : i32")
    out.append("}")
    out.append("func.func @calls(%p: !tile.ptr<i32>) attributes {tile.kernel} {")
    out.append("  %v = tile.program_id 0")
    out.append("  %r = func.call @h0(%v) : (i32) -> i32")
    out.append("  tile.store %p, %r : !tile.ptr<i32>")
elif kind == "tiles":
    out.append("func.func @tiles(%p: !tile.ptr<f32>) attributes {tile.kernel} {")
    out.append("  %r = tile.range 0, 128 : tensor<128xi32>")
    out.append("  %ps = tile.splat %p : tensor<128x!tile.ptr<f32>>")
    out.append("  %pp = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>")
    out.append("  %t0 = tile.load %pp : tensor<128x!tile.ptr<f32>>")
    for i in range(n):
        out.append(f"  %s{i} = tile.reduce sum %t{i} axis = 0 : tensor<128xf32> -> f32")
        out.append(f"  %b{i} = tile.splat %s{i} : tensor<128xf32>")
        out.append(f"  %t{i + 1} = arith.addf %t{i}, %b{i} : tensor<128xf32>")
    out.append(f"  tile.store %pp, %t{n} : tensor<128x!tile.ptr<f32>>")
elif kind == "loops":
    out.append("func.func @loops(%p: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {")
    out.append("  %c0 = arith.constant 0 : i32")
    out.append("  %c1 = arith.constant 1 : i32")
    for i in range(n):
        out.append(f"  scf.for %i{i} = %c0 to %n step %c1 : i32 {{")
    out.append("  }" * n)
else:
    sys.exit("unknown kind " + kind)
out.append("  return")
out.append("}")
print("\n".join(out))
