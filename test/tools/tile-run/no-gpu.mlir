// tile-run on a machine without a usable GPU. The default --mode=gpu fails
// with exit status 2 (after validating the arguments, before anything
// runs); --mode=auto says why and runs the interpreter instead. On a machine
// with a GPU both behave differently, so this test does not run there (the
// 'gpu' feature is set in lit.cfg.py).
//
// REQUIRES: tile-run
// UNSUPPORTED: gpu
//
// DEFINE: %{va} = %S/../../../examples/vector_add.mlir
// DEFINE: %{va-args} = --arg x=f32[1500] --arg y=f32[1500] --arg out=f32[1500] --arg n=i32:1500

// RUN: %python %S/Inputs/run.py tile-run %{va} --grid 2 %{va-args} --check 'out=add(x,y)' \
// RUN:   | FileCheck %s --check-prefix=GPU --match-full-lines
// RUN: %python %S/Inputs/run.py tile-run --mode=gpu %{va} --grid 2 %{va-args} --check 'out=add(x,y)' \
// RUN:   | FileCheck %s --check-prefix=GPU --match-full-lines
// --bench and --compare do not change that.
// RUN: %python %S/Inputs/run.py tile-run --mode=gpu --bench=10 --compare=false %{va} --grid 2 %{va-args} \
// RUN:   | FileCheck %s --check-prefix=GPU --match-full-lines
// GPU:      $ tile-run
// GPU-NEXT: tile-run: error: no GPU: {{.+}} (use --mode=auto to fall back to the interpreter, or --mode=interp)
// GPU-NEXT: [exit 2]

// Argument errors are reported before the GPU is looked for.
// RUN: %python %S/Inputs/run.py tile-run %{va} --arg x=f32[10] \
// RUN:   | FileCheck %s --check-prefix=ARGS-FIRST --match-full-lines
// ARGS-FIRST:      $ tile-run
// ARGS-FIRST-NEXT: tile-run: error: kernel 'vector_add' takes 4 arguments but 1 --arg were given
// ARGS-FIRST-NEXT: [exit 2]

// RUN: %python %S/Inputs/run.py tile-run --mode=auto %{va} --grid 2 %{va-args} --check 'out=add(x,y)' \
// RUN:   | FileCheck %s --check-prefix=AUTO --match-full-lines
// AUTO:      $ tile-run
// AUTO-NEXT: tile-run: no GPU ({{.+}}); running in the interpreter (--mode=auto)
// AUTO-NEXT: tile-run: kernel @vector_add, grid (2, 1, 1), in the interpreter
// AUTO-NEXT: tile-run: interpreter done in {{.*}} s
// AUTO-NEXT: check out = add(x, y): {{.*}}: PASS
// AUTO-NEXT: [exit 0]

// The fallback message is printed even with --quiet, and a failing check
// still fails.
// RUN: %python %S/Inputs/run.py tile-run --mode=auto --quiet %{va} --grid 1 %{va-args} --check 'out=add(x,y)' \
// RUN:   | FileCheck %s --check-prefix=AUTO-QUIET --match-full-lines
// AUTO-QUIET:      $ tile-run
// AUTO-QUIET-NEXT: tile-run: no GPU ({{.+}}); running in the interpreter (--mode=auto)
// AUTO-QUIET-NEXT: check out = add(x, y): {{.*}}: FAIL
// AUTO-QUIET-NEXT: [exit 1]
