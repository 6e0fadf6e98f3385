// Usage errors of tile-run (tools/tile-run/tile-run.cpp, ArgSpec.cpp): each
// is one line `tile-run: error: ...` on stderr and exit status 2, before the
// kernel runs (except a --dump path that cannot be written, found when the
// file is written after the run). Inputs/run.py prints `$ tile-run`, the
// output and `[exit N]`, so the CHECK-NEXT chains below also check that the
// error is the only line. Most cases run examples/vector_add.mlir
// (x, y, out: !tile.ptr<f32>, n: i32); @scalars below has one parameter of
// each scalar type.
//
// REQUIRES: tile-run
//
// DEFINE: %{run} = %python %S/Inputs/run.py tile-run --mode=interp
// DEFINE: %{va} = %S/../../../examples/vector_add.mlir
// DEFINE: %{va-args} = --arg x=f32[10] --arg y=f32[10] --arg out=f32[10] --arg n=i32:10
//
// RUN: rm -f %t.missing.bin
// RUN: %python -c "open(r'%t.40.bin', 'wb').write(bytes(40))"

// --grid: 1 to 3 integers, each from 1 to 2^31 - 1.
// RUN: %{run} %{va} --grid 0,1 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=GRID-ZERO
// GRID-ZERO:      $ tile-run
// GRID-ZERO-NEXT: tile-run: error: bad --grid '0,1' (expected 1 to 3 positive integers x[,y[,z]], x below 2^31, y and z at most 65535)
// GRID-ZERO-NEXT: [exit 2]
// RUN: %{run} %{va} --grid 1,2,3,4 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=GRID-FOUR
// GRID-FOUR:      $ tile-run
// GRID-FOUR-NEXT: tile-run: error: bad --grid '1,2,3,4' (expected 1 to 3 positive integers x[,y[,z]], x below 2^31, y and z at most 65535)
// GRID-FOUR-NEXT: [exit 2]
// RUN: %{run} %{va} --grid 1,2147483648 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=GRID-BIG
// GRID-BIG:      $ tile-run
// GRID-BIG-NEXT: tile-run: error: bad --grid '1,2147483648' (expected 1 to 3 positive integers x[,y[,z]], x below 2^31, y and z at most 65535)
// GRID-BIG-NEXT: [exit 2]
// RUN: %{run} %{va} --grid x \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=GRID-WORD
// GRID-WORD:      $ tile-run
// GRID-WORD-NEXT: tile-run: error: bad --grid 'x' (expected 1 to 3 positive integers x[,y[,z]], x below 2^31, y and z at most 65535)
// GRID-WORD-NEXT: [exit 2]
// RUN: %{run} %{va} --grid 4,,1 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=GRID-HOLE
// GRID-HOLE:      $ tile-run
// GRID-HOLE-NEXT: tile-run: error: bad --grid '4,,1' (expected 1 to 3 positive integers x[,y[,z]], x below 2^31, y and z at most 65535)
// GRID-HOLE-NEXT: [exit 2]
// RUN: %{run} %{va} --grid= \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=GRID-EMPTY
// GRID-EMPTY:      $ tile-run
// GRID-EMPTY-NEXT: tile-run: error: bad --grid '' (expected 1 to 3 positive integers x[,y[,z]], x below 2^31, y and z at most 65535)
// GRID-EMPTY-NEXT: [exit 2]

// --arg syntax (ArgSpec.cpp), one case per message.
// RUN: %{run} %{va} --arg '1x=f32[10]' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=ARG-NAME
// ARG-NAME:      $ tile-run
// ARG-NAME-NEXT: tile-run: error: --arg '1x=f32[10]': '1x' is not a valid argument name
// ARG-NAME-NEXT: [exit 2]
// RUN: %{run} %{va} --arg '=f32[10]' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=BLANK-NAME
// BLANK-NAME:      $ tile-run
// BLANK-NAME-NEXT: tile-run: error: --arg '=f32[10]': '' is not a valid argument name
// BLANK-NAME-NEXT: [exit 2]
// RUN: %{run} %{va} --arg 'x=f31[10]' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=BAD-DTYPE
// BAD-DTYPE:      $ tile-run
// BAD-DTYPE-NEXT: tile-run: error: --arg 'x=f31[10]': unknown element type 'f31' (expected f16, bf16, f32, f64, i1, i8, i16, i32 or i64)
// BAD-DTYPE-NEXT: [exit 2]
// RUN: %{run} %{va} --arg 'u32:1' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=BAD-SCALAR-DTYPE
// BAD-SCALAR-DTYPE:      $ tile-run
// BAD-SCALAR-DTYPE-NEXT: tile-run: error: --arg 'u32:1': unknown element type 'u32' (expected f16, bf16, f32, f64, i1, i8, i16, i32 or i64)
// BAD-SCALAR-DTYPE-NEXT: [exit 2]
// RUN: %{run} %{va} --arg 'x=f32[10' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=BRACKET
// BRACKET:      $ tile-run
// BRACKET-NEXT: tile-run: error: --arg 'x=f32[10': missing ']' after the buffer shape
// BRACKET-NEXT: [exit 2]
// RUN: %{run} %{va} --arg 'x=f32[10x0]' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=DIM-ZERO
// DIM-ZERO:      $ tile-run
// DIM-ZERO-NEXT: tile-run: error: --arg 'x=f32[10x0]': bad dimension '0' in buffer shape (dimensions are positive integers)
// DIM-ZERO-NEXT: [exit 2]
// RUN: %{run} %{va} --arg 'x=f32[4,-2]' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=DIM-NEGATIVE
// DIM-NEGATIVE:      $ tile-run
// DIM-NEGATIVE-NEXT: tile-run: error: --arg 'x=f32[4,-2]': bad dimension '-2' in buffer shape (dimensions are positive integers)
// DIM-NEGATIVE-NEXT: [exit 2]
// RUN: %{run} %{va} --arg 'x=f32[]' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=DIM-EMPTY
// DIM-EMPTY:      $ tile-run
// DIM-EMPTY-NEXT: tile-run: error: --arg 'x=f32[]': bad dimension '' in buffer shape (dimensions are positive integers)
// DIM-EMPTY-NEXT: [exit 2]

// A shape uses 'x' or ',' between dimensions, not both.
// RUN: %{run} %{va} --arg 'x=f32[2x3,4]' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=DIM-MIXED
// DIM-MIXED:      $ tile-run
// DIM-MIXED-NEXT: tile-run: error: --arg 'x=f32[2x3,4]': bad dimension '2x3' in buffer shape (dimensions are positive integers)
// DIM-MIXED-NEXT: [exit 2]

// Buffers hold at most 64 GiB; larger shapes are refused before anything is
// allocated (2^32 x 2^32 elements used to wrap to an empty buffer, 10^12
// elements to abort with "LLVM ERROR: out of memory").
// RUN: %{run} %{va} --arg 'x=f32[4294967296x4294967296]' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=SHAPE-WRAP
// SHAPE-WRAP:      $ tile-run
// SHAPE-WRAP-NEXT: tile-run: error: --arg 'x=f32[4294967296x4294967296]': buffer shape '4294967296x4294967296' has more elements than int64 can count (buffers are limited to 64 GiB)
// SHAPE-WRAP-NEXT: [exit 2]
// RUN: %{run} %{va} --arg 'x=f32[1000000x1000000]' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=SHAPE-HUGE
// SHAPE-HUGE:      $ tile-run
// SHAPE-HUGE-NEXT: tile-run: error: --arg 'x=f32[1000000x1000000]': buffer shape '1000000x1000000' has 1000000000000 elements of f32 (4000000000000 bytes), more than the 64 GiB limit
// SHAPE-HUGE-NEXT: [exit 2]
// One byte over the limit:
// RUN: %{run} %{va} --arg 'x=i8[68719476737]' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=SHAPE-LIMIT
// SHAPE-LIMIT:      $ tile-run
// SHAPE-LIMIT-NEXT: tile-run: error: --arg 'x=i8[68719476737]': buffer shape '68719476737' has 68719476737 elements of i8 (68719476737 bytes), more than the 64 GiB limit
// SHAPE-LIMIT-NEXT: [exit 2]
// The element count fits in int64, the byte count does not:
// RUN: %{run} %{va} --arg 'x=i64[2305843009213693952]' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=SHAPE-BYTES
// SHAPE-BYTES:      $ tile-run
// SHAPE-BYTES-NEXT: tile-run: error: --arg 'x=i64[2305843009213693952]': buffer shape '2305843009213693952' has 2305843009213693952 elements of i64 (more than 2^63 bytes), more than the 64 GiB limit
// SHAPE-BYTES-NEXT: [exit 2]
// RUN: %{run} %{va} --arg 'f32[10]' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=NO-NAME
// NO-NAME:      $ tile-run
// NO-NAME-NEXT: tile-run: error: --arg 'f32[10]': a buffer needs a name: NAME=f32[10]
// NO-NAME-NEXT: [exit 2]
// RUN: %{run} %{va} --arg 'x=f32[10]zeros' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=NO-COLON
// NO-COLON:      $ tile-run
// NO-COLON-NEXT: tile-run: error: --arg 'x=f32[10]zeros': expected ':INIT' after the buffer shape
// NO-COLON-NEXT: [exit 2]
// RUN: %{run} %{va} --arg 'x=f32[10]:gauss' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=INIT
// INIT:      $ tile-run
// INIT-NEXT: tile-run: error: --arg 'x=f32[10]:gauss': unknown initializer 'gauss' (expected randn, rand, zeros, ones, fill, iota, poison or file)
// INIT-NEXT: [exit 2]
// RUN: %{run} %{va} --arg 'x=f32[10]:fill(1' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=PAREN
// PAREN:      $ tile-run
// PAREN-NEXT: tile-run: error: --arg 'x=f32[10]:fill(1': missing ')' in initializer 'fill(1'
// PAREN-NEXT: [exit 2]
// RUN: %{run} %{va} --arg 'x=f32[10]:file()' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=FILE-EMPTY
// FILE-EMPTY:      $ tile-run
// FILE-EMPTY-NEXT: tile-run: error: --arg 'x=f32[10]:file()': file() needs a path
// FILE-EMPTY-NEXT: [exit 2]
// RUN: %{run} %{va} --arg 'x=f32[10]:fill(abc)' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=NUMBER
// NUMBER:      $ tile-run
// NUMBER-NEXT: tile-run: error: --arg 'x=f32[10]:fill(abc)': bad number 'abc' in initializer
// NUMBER-NEXT: [exit 2]

// Initializer parameter counts: fill 1, rand 0 or 2, randn 0 or 1, others 0.
// RUN: %{run} %{va} --arg 'x=f32[10]:fill' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=FILL-NONE
// FILL-NONE:      $ tile-run
// FILL-NONE-NEXT: tile-run: error: --arg 'x=f32[10]:fill': initializer 'fill' takes 1 parameter(s)
// FILL-NONE-NEXT: [exit 2]
// RUN: %{run} %{va} --arg 'x=f32[10]:fill(1,2)' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=FILL-TWO
// FILL-TWO:      $ tile-run
// FILL-TWO-NEXT: tile-run: error: --arg 'x=f32[10]:fill(1,2)': initializer 'fill' takes 1 parameter(s)
// FILL-TWO-NEXT: [exit 2]
// RUN: %{run} %{va} --arg 'x=f32[10]:rand(1)' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=RAND-ONE
// RAND-ONE:      $ tile-run
// RAND-ONE-NEXT: tile-run: error: --arg 'x=f32[10]:rand(1)': initializer 'rand' takes 2 parameter(s)
// RAND-ONE-NEXT: [exit 2]
// RUN: %{run} %{va} --arg 'x=f32[10]:randn(1,2)' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=RANDN-TWO
// RANDN-TWO:      $ tile-run
// RANDN-TWO-NEXT: tile-run: error: --arg 'x=f32[10]:randn(1,2)': initializer 'randn' takes 1 parameter(s)
// RANDN-TWO-NEXT: [exit 2]
// RUN: %{run} %{va} --arg 'x=f32[10]:zeros(1)' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=ZEROS-ONE
// ZEROS-ONE:      $ tile-run
// ZEROS-ONE-NEXT: tile-run: error: --arg 'x=f32[10]:zeros(1)': initializer 'zeros' takes 0 parameter(s)
// ZEROS-ONE-NEXT: [exit 2]
// RUN: %{run} %{va} --arg f32 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=SCALAR-SYNTAX
// SCALAR-SYNTAX:      $ tile-run
// SCALAR-SYNTAX-NEXT: tile-run: error: --arg 'f32': expected DTYPE[SHAPE] for a buffer or DTYPE:VALUE for a scalar in 'f32'
// SCALAR-SYNTAX-NEXT: [exit 2]
// RUN: %{run} %{va} --arg n=i32 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=SCALAR-NAMED-SYNTAX
// SCALAR-NAMED-SYNTAX:      $ tile-run
// SCALAR-NAMED-SYNTAX-NEXT: tile-run: error: --arg 'n=i32': expected DTYPE[SHAPE] for a buffer or DTYPE:VALUE for a scalar in 'n=i32'
// SCALAR-NAMED-SYNTAX-NEXT: [exit 2]
// RUN: %{run} %{va} --arg f32:abc \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=SCALAR-FLOAT
// SCALAR-FLOAT:      $ tile-run
// SCALAR-FLOAT-NEXT: tile-run: error: --arg 'f32:abc': bad f32 value 'abc'
// SCALAR-FLOAT-NEXT: [exit 2]
// RUN: %{run} %{va} --arg i32:1.5 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=SCALAR-INT
// SCALAR-INT:      $ tile-run
// SCALAR-INT-NEXT: tile-run: error: --arg 'i32:1.5': bad integer value '1.5'
// SCALAR-INT-NEXT: [exit 2]

// Integers are decimal.
// RUN: %{run} %{va} --arg i32:0x10 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=SCALAR-HEX
// SCALAR-HEX:      $ tile-run
// SCALAR-HEX-NEXT: tile-run: error: --arg 'i32:0x10': bad integer value '0x10'
// SCALAR-HEX-NEXT: [exit 2]
// RUN: %{run} %{va} --arg i64:9223372036854775808 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=SCALAR-INT64
// SCALAR-INT64:      $ tile-run
// SCALAR-INT64-NEXT: tile-run: error: --arg 'i64:9223372036854775808': bad integer value '9223372036854775808'
// SCALAR-INT64-NEXT: [exit 2]

// Names are unique, scalar labels included.
// RUN: %{run} %{va} --arg n=i32:1 --arg n=i32:2 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=TWICE
// TWICE:      $ tile-run
// TWICE-NEXT: tile-run: error: --arg 'n=i32:2': name 'n' is used twice
// TWICE-NEXT: [exit 2]
// RUN: %{run} %{va} --arg x=f32[10] --arg x=f32[4] \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=TWICE-BUFFER
// TWICE-BUFFER:      $ tile-run
// TWICE-BUFFER-NEXT: tile-run: error: --arg 'x=f32[4]': name 'x' is used twice
// TWICE-BUFFER-NEXT: [exit 2]

// --check syntax.
// RUN: %{run} %{va} --check 'out=add(x,y' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=CHECK-PAREN
// CHECK-PAREN:      $ tile-run
// CHECK-PAREN-NEXT: tile-run: error: --check: expected OUT=FN(IN,...), e.g. y=softmax(x), got 'out=add(x,y'
// CHECK-PAREN-NEXT: [exit 2]
// RUN: %{run} %{va} --check 'outadd(x,y)' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=CHECK-EQ
// CHECK-EQ:      $ tile-run
// CHECK-EQ-NEXT: tile-run: error: --check: expected OUT=FN(IN,...), e.g. y=softmax(x), got 'outadd(x,y)'
// CHECK-EQ-NEXT: [exit 2]
// RUN: %{run} %{va} --check 'f(x)=y' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=CHECK-ORDER
// CHECK-ORDER:      $ tile-run
// CHECK-ORDER-NEXT: tile-run: error: --check: expected OUT=FN(IN,...), e.g. y=softmax(x), got 'f(x)=y'
// CHECK-ORDER-NEXT: [exit 2]
// RUN: %{run} %{va} --check 'out=relu(x)' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=CHECK-REF
// CHECK-REF:      $ tile-run
// CHECK-REF-NEXT: tile-run: error: --check: unknown reference 'relu' (expected softmax, softmax_matmul, matmul, matmul_leaky_relu or add)
// CHECK-REF-NEXT: [exit 2]
// RUN: %{run} %{va} --check 'out=add(x)' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=CHECK-ARITY-ADD
// CHECK-ARITY-ADD:      $ tile-run
// CHECK-ARITY-ADD-NEXT: tile-run: error: --check: add takes 2 input(s), got 1
// CHECK-ARITY-ADD-NEXT: [exit 2]
// RUN: %{run} %{va} --check 'y=softmax(x,z)' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=CHECK-ARITY-SOFTMAX
// CHECK-ARITY-SOFTMAX:      $ tile-run
// CHECK-ARITY-SOFTMAX-NEXT: tile-run: error: --check: softmax takes 1 input(s), got 2
// CHECK-ARITY-SOFTMAX-NEXT: [exit 2]
// RUN: %{run} %{va} --check 'o=softmax_matmul(x)' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=CHECK-ARITY-SMM
// CHECK-ARITY-SMM:      $ tile-run
// CHECK-ARITY-SMM-NEXT: tile-run: error: --check: softmax_matmul takes 2 input(s), got 1
// CHECK-ARITY-SMM-NEXT: [exit 2]
// RUN: %{run} %{va} --check 'c=matmul(a,b,c)' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=CHECK-ARITY-MATMUL
// CHECK-ARITY-MATMUL:      $ tile-run
// CHECK-ARITY-MATMUL-NEXT: tile-run: error: --check: matmul takes 2 input(s), got 3
// CHECK-ARITY-MATMUL-NEXT: [exit 2]

// The input file must exist.
// RUN: %{run} %t.does-not-exist.mlir \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=MISSING-FILE -DFILE=%t.does-not-exist.mlir
// MISSING-FILE:      $ tile-run
// MISSING-FILE-NEXT: tile-run: error: cannot open input file '[[FILE]]': No such file or directory
// MISSING-FILE-NEXT: [exit 2]

// --grid, --arg and --check are parsed before the file is read.
// RUN: %{run} %t.does-not-exist.mlir --arg 'x=f31[1]' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=ARGS-FIRST
// ARGS-FIRST:      $ tile-run
// ARGS-FIRST-NEXT: tile-run: error: --arg 'x=f31[1]': unknown element type 'f31' (expected f16, bf16, f32, f64, i1, i8, i16, i32 or i64)
// ARGS-FIRST-NEXT: [exit 2]

// One --arg per kernel parameter, in order.
// RUN: %{run} %{va} --arg x=f32[10] --arg y=f32[10] --arg out=f32[10] \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=ARG-COUNT-FEW
// ARG-COUNT-FEW:      $ tile-run
// ARG-COUNT-FEW-NEXT: tile-run: error: kernel 'vector_add' takes 4 arguments but 3 --arg were given
// ARG-COUNT-FEW-NEXT: [exit 2]
// RUN: %{run} %{va} \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=ARG-COUNT-NONE
// ARG-COUNT-NONE:      $ tile-run
// ARG-COUNT-NONE-NEXT: tile-run: error: kernel 'vector_add' takes 4 arguments but 0 --arg were given
// ARG-COUNT-NONE-NEXT: [exit 2]
// RUN: %{run} %{va} %{va-args} --arg i32:1 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=ARG-COUNT-MANY
// ARG-COUNT-MANY:      $ tile-run
// ARG-COUNT-MANY-NEXT: tile-run: error: kernel 'vector_add' takes 4 arguments but 5 --arg were given
// ARG-COUNT-MANY-NEXT: [exit 2]
// RUN: %{run} %{va} --arg x=f32[10] --arg y=f32[10] --arg out=f32[10] --arg n=i32[1] \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=BUFFER-FOR-SCALAR
// BUFFER-FOR-SCALAR:      $ tile-run
// BUFFER-FOR-SCALAR-NEXT: tile-run: error: argument #3 of kernel 'vector_add' is a scalar, but a buffer was given
// BUFFER-FOR-SCALAR-NEXT: [exit 2]
// RUN: %{run} %{va} --arg x=f32[10] --arg y=f32[10] --arg f32:1 --arg i32:10 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=SCALAR-FOR-POINTER
// SCALAR-FOR-POINTER:      $ tile-run
// SCALAR-FOR-POINTER-NEXT: tile-run: error: argument #2 of kernel 'vector_add' is a pointer; describe a buffer as NAME=DTYPE[SHAPE]
// SCALAR-FOR-POINTER-NEXT: [exit 2]
// RUN: %{run} %{va} --arg x=f32[10] --arg y=f32[10] --arg out=f16[10] --arg i32:10 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=POINTEE
// POINTEE:      $ tile-run
// POINTEE-NEXT: tile-run: error: argument #2 points to f32, but buffer 'out' is f16
// POINTEE-NEXT: [exit 2]
// RUN: %{run} %{va} --arg x=f64[10] --arg y=f32[10] --arg out=f32[10] --arg i32:10 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=POINTEE-FIRST
// POINTEE-FIRST:      $ tile-run
// POINTEE-FIRST-NEXT: tile-run: error: argument #0 points to f32, but buffer 'x' is f64
// POINTEE-FIRST-NEXT: [exit 2]

// A scalar's type is exactly the parameter's.
// RUN: %{run} %{va} --arg x=f32[10] --arg y=f32[10] --arg out=f32[10] --arg i64:10 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=SCALAR-TYPE
// SCALAR-TYPE:      $ tile-run
// SCALAR-TYPE-NEXT: tile-run: error: argument #3 has type i32, but i64 was given
// SCALAR-TYPE-NEXT: [exit 2]
// RUN: %{run} %{va} --arg x=f32[10] --arg y=f32[10] --arg out=f32[10] --arg n=f32:10 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=SCALAR-TYPE-FLOAT
// SCALAR-TYPE-FLOAT:      $ tile-run
// SCALAR-TYPE-FLOAT-NEXT: tile-run: error: argument #3 has type i32, but f32 was given
// SCALAR-TYPE-FLOAT-NEXT: [exit 2]

// Integer values must fit in the parameter type.
// RUN: %{run} %{va} --arg x=f32[10] --arg y=f32[10] --arg out=f32[10] --arg i32:3000000000 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=FIT-BIG
// FIT-BIG:      $ tile-run
// FIT-BIG-NEXT: tile-run: error: argument #3 value 3000000000 does not fit in i32
// FIT-BIG-NEXT: [exit 2]
// RUN: %{run} %{va} --arg x=f32[10] --arg y=f32[10] --arg out=f32[10] --arg i32:2147483648 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=FIT-MAX
// FIT-MAX:      $ tile-run
// FIT-MAX-NEXT: tile-run: error: argument #3 value 2147483648 does not fit in i32
// FIT-MAX-NEXT: [exit 2]
// RUN: %{run} %{va} --arg x=f32[10] --arg y=f32[10] --arg out=f32[10] --arg i32:-2147483649 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=FIT-MIN
// FIT-MIN:      $ tile-run
// FIT-MIN-NEXT: tile-run: error: argument #3 value -2147483649 does not fit in i32
// FIT-MIN-NEXT: [exit 2]

// i1 takes 0 or 1 (the kernel @scalars of this file).
// RUN: %{run} %s --arg p=f32[1] --arg i1:2 --arg i32:0 --arg i64:0 --arg f32:0 --arg f64:0 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=FIT-I1
// FIT-I1:      $ tile-run
// FIT-I1-NEXT: tile-run: error: argument #1 value 2 does not fit in i1
// FIT-I1-NEXT: [exit 2]
// RUN: %{run} %s --arg p=f32[1] --arg i1:-1 --arg i32:0 --arg i64:0 --arg f32:0 --arg f64:0 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=FIT-I1-NEG
// FIT-I1-NEG:      $ tile-run
// FIT-I1-NEG-NEXT: tile-run: error: argument #1 value -1 does not fit in i1
// FIT-I1-NEG-NEXT: [exit 2]
// RUN: %{run} %s --arg p=f32[1] --arg i1:0 --arg i32:0 --arg i64:0 --arg f64:0 --arg f64:0 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=SCALAR-F64
// SCALAR-F64:      $ tile-run
// SCALAR-F64-NEXT: tile-run: error: argument #4 has type f32, but f64 was given
// SCALAR-F64-NEXT: [exit 2]

// file(PATH) must exist and hold exactly the buffer's bytes (%t.40.bin: 40 zero bytes).
// RUN: %{run} %{va} --arg 'x=f32[10]:file(%t.missing.bin)' --arg y=f32[10] --arg out=f32[10] --arg i32:10 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=FILE-MISSING -DFILE=%t.missing.bin
// FILE-MISSING:      $ tile-run
// FILE-MISSING-NEXT: tile-run: error: buffer 'x': cannot read '[[FILE]]': No such file or directory
// FILE-MISSING-NEXT: [exit 2]
// RUN: %{run} %{va} --arg 'x=f32[12]:file(%t.40.bin)' --arg y=f32[10] --arg out=f32[10] --arg i32:10 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=FILE-SHORT -DFILE=%t.40.bin
// FILE-SHORT:      $ tile-run
// FILE-SHORT-NEXT: tile-run: error: buffer 'x': '[[FILE]]' holds 40 bytes but 48 are needed
// FILE-SHORT-NEXT: [exit 2]
// RUN: %{run} %{va} --arg x=f32[10] --arg 'y=f32[4]:file(%t.40.bin)' --arg out=f32[10] --arg i32:10 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=FILE-LONG -DFILE=%t.40.bin
// FILE-LONG:      $ tile-run
// FILE-LONG-NEXT: tile-run: error: buffer 'y': '[[FILE]]' holds 40 bytes but 16 are needed
// FILE-LONG-NEXT: [exit 2]

// --check names buffers, and their sizes must fit the reference.
// RUN: %{run} %{va} %{va-args} --check 'o=add(x,y)' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=CHECK-NO-OUTPUT
// CHECK-NO-OUTPUT:      $ tile-run
// CHECK-NO-OUTPUT-NEXT: tile-run: error: --check: no buffer named 'o'
// CHECK-NO-OUTPUT-NEXT: [exit 2]
// RUN: %{run} %{va} %{va-args} --check 'out=add(x,z)' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=CHECK-NO-INPUT
// CHECK-NO-INPUT:      $ tile-run
// CHECK-NO-INPUT-NEXT: tile-run: error: --check: no buffer named 'z'
// CHECK-NO-INPUT-NEXT: [exit 2]
// RUN: %{run} %{va} %{va-args} --check 'out=add(x,n)' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=CHECK-SCALAR
// CHECK-SCALAR:      $ tile-run
// CHECK-SCALAR-NEXT: tile-run: error: --check: no buffer named 'n'
// CHECK-SCALAR-NEXT: [exit 2]
// RUN: %{run} %{va} --arg x=f32[10] --arg y=f32[10] --arg out=f32[12] --arg i32:10 --check 'out=add(x,y)' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=CHECK-OUT-SIZE
// CHECK-OUT-SIZE:      $ tile-run
// CHECK-OUT-SIZE-NEXT: tile-run: error: --check out: 'out' has 12 elements but add(...) gives 10
// CHECK-OUT-SIZE-NEXT: [exit 2]
// RUN: %{run} %{va} --arg x=f32[2x5] --arg y=f32[10] --arg out=f32[9] --arg i32:10 --check 'out=softmax(x)' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=CHECK-SOFTMAX-SIZE
// CHECK-SOFTMAX-SIZE:      $ tile-run
// CHECK-SOFTMAX-SIZE-NEXT: tile-run: error: --check out: 'out' has 9 elements but softmax(...) gives 10
// CHECK-SOFTMAX-SIZE-NEXT: [exit 2]
// RUN: %{run} %{va} --arg x=f32[10] --arg y=f32[12] --arg out=f32[10] --arg i32:10 --check 'out=add(x,y)' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=CHECK-ADD-SIZES
// CHECK-ADD-SIZES:      $ tile-run
// CHECK-ADD-SIZES-NEXT: tile-run: error: --check out: inputs of add have different sizes
// CHECK-ADD-SIZES-NEXT: [exit 2]
// RUN: %{run} %{va} %{va-args} --check 'out=matmul(x,y)' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=CHECK-MATMUL-RANK
// CHECK-MATMUL-RANK:      $ tile-run
// CHECK-MATMUL-RANK-NEXT: tile-run: error: --check out: matmul needs A [M, K] and B [K, N]
// CHECK-MATMUL-RANK-NEXT: [exit 2]
// RUN: %{run} %{va} --arg x=f32[2x5] --arg y=f32[4x2] --arg out=f32[4] --arg i32:10 --check 'out=matmul_leaky_relu(x,y)' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=CHECK-MATMUL-K
// CHECK-MATMUL-K:      $ tile-run
// CHECK-MATMUL-K-NEXT: tile-run: error: --check out: matmul_leaky_relu needs A [M, K] and B [K, N]
// CHECK-MATMUL-K-NEXT: [exit 2]
// RUN: %{run} %{va} --arg x=f32[2x5] --arg y=f32[5x3] --arg out=f32[5] --arg i32:10 --check 'out=matmul(x,y)' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=CHECK-MATMUL-SIZE
// CHECK-MATMUL-SIZE:      $ tile-run
// CHECK-MATMUL-SIZE-NEXT: tile-run: error: --check out: 'out' has 5 elements but matmul(...) gives 6
// CHECK-MATMUL-SIZE-NEXT: [exit 2]
// RUN: %{run} %{va} %{va-args} --check 'out=softmax_matmul(x,y)' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=CHECK-SMM
// CHECK-SMM:      $ tile-run
// CHECK-SMM-NEXT: tile-run: error: --check out: softmax_matmul needs X [batch, d1, d2] and V [batch, d2, d3]
// CHECK-SMM-NEXT: [exit 2]
// RUN: %{run} %{va} --arg x=f32[2x3x4] --arg y=f32[3x4x5] --arg out=f32[30] --arg i32:10 --check 'out=softmax_matmul(x,y)' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=CHECK-SMM-BATCH
// CHECK-SMM-BATCH:      $ tile-run
// CHECK-SMM-BATCH-NEXT: tile-run: error: --check out: softmax_matmul needs X [batch, d1, d2] and V [batch, d2, d3]
// CHECK-SMM-BATCH-NEXT: [exit 2]

// A 2-d V means batch 1, which must match X's batch.
// RUN: %{run} %{va} --arg x=f32[2x3x4] --arg y=f32[4x5] --arg out=f32[30] --arg i32:10 --check 'out=softmax_matmul(x,y)' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=CHECK-SMM-SIZE
// CHECK-SMM-SIZE:      $ tile-run
// CHECK-SMM-SIZE-NEXT: tile-run: error: --check out: softmax_matmul needs X [batch, d1, d2] and V [batch, d2, d3]
// CHECK-SMM-SIZE-NEXT: [exit 2]

// --print and --dump name buffers (not scalars); --dump needs a path.
// RUN: %{run} %{va} %{va-args} --print z \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=PRINT
// PRINT:      $ tile-run
// PRINT-NEXT: tile-run: error: --print: no buffer named 'z'
// PRINT-NEXT: [exit 2]
// RUN: %{run} %{va} %{va-args} --print n \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=PRINT-SCALAR
// PRINT-SCALAR:      $ tile-run
// PRINT-SCALAR-NEXT: tile-run: error: --print: no buffer named 'n'
// PRINT-SCALAR-NEXT: [exit 2]
// RUN: %{run} %{va} %{va-args} --dump z=%t.z.bin \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=DUMP -DFILE=%t.z.bin
// DUMP:      $ tile-run
// DUMP-NEXT: tile-run: error: --dump 'z=[[FILE]]': expected NAME=PATH with a known buffer
// DUMP-NEXT: [exit 2]
// RUN: %{run} %{va} %{va-args} --dump out \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=DUMP-NO-PATH
// DUMP-NO-PATH:      $ tile-run
// DUMP-NO-PATH-NEXT: tile-run: error: --dump 'out': expected NAME=PATH with a known buffer
// DUMP-NO-PATH-NEXT: [exit 2]
// RUN: %{run} %{va} %{va-args} --dump out= \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=DUMP-EMPTY-PATH
// DUMP-EMPTY-PATH:      $ tile-run
// DUMP-EMPTY-PATH-NEXT: tile-run: error: --dump 'out=': expected NAME=PATH with a known buffer
// DUMP-EMPTY-PATH-NEXT: [exit 2]

// A --dump path that cannot be written is found after the run (exit 2).
// RUN: %{run} %{va} %{va-args} --quiet --dump out=%t.no-such-dir/out.bin \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=DUMP-WRITE -DFILE=%t.no-such-dir/out.bin
// DUMP-WRITE:      $ tile-run
// DUMP-WRITE-NEXT: tile-run: error: cannot open output file '[[FILE]]': No such file or directory
// DUMP-WRITE-NEXT: [exit 2]

// Everything else is validated before the run: this kernel would fault
// (n = 20 reads past the 10-element buffers) but the bad --print name is
// reported first, without the progress line of a run.
// RUN: %{run} %{va} --arg x=f32[10] --arg y=f32[10] --arg out=f32[10] --arg n=i32:20 \
// RUN:     --print z \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=PRE-CHECKED
// PRE-CHECKED:      $ tile-run
// PRE-CHECKED-NEXT: tile-run: error: --print: no buffer named 'z'
// PRE-CHECKED-NEXT: [exit 2]
// The first error wins: --grid before --arg before --check.
// RUN: %{run} %{va} --check 'out=relu(x)' --arg 'x=f31[1]' --grid 0 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=FIRST-GRID
// FIRST-GRID:      $ tile-run
// FIRST-GRID-NEXT: tile-run: error: bad --grid '0' (expected 1 to 3 positive integers x[,y[,z]], x below 2^31, y and z at most 65535)
// FIRST-GRID-NEXT: [exit 2]
// RUN: %{run} %{va} --check 'out=relu(x)' --arg 'x=f31[1]' \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=FIRST-ARG
// FIRST-ARG:      $ tile-run
// FIRST-ARG-NEXT: tile-run: error: --arg 'x=f31[1]': unknown element type 'f31' (expected f16, bf16, f32, f64, i1, i8, i16, i32 or i64)
// FIRST-ARG-NEXT: [exit 2]

// The valid extremes of each scalar type are accepted (1e300 rounds to inf
// in f32).
// RUN: %{run} %s --quiet --arg 'p=f32[2]:zeros' --arg b=i1:1 --arg n=i32:-2147483648 \
// RUN:     --arg m=i64:9223372036854775807 --arg f=f32:-inf --arg d=f64:1e300 --print p \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=EXTREMES
// EXTREMES:      $ tile-run
// EXTREMES-NEXT: p = [-inf, inf]
// EXTREMES-NEXT: [exit 0]
// RUN: %{run} %s --quiet --arg 'p=f32[2]:zeros' --arg b=i1:0 --arg n=i32:2147483647 \
// RUN:     --arg m=i64:-9223372036854775808 --arg f=f32:nan --arg d=f64:-0.5 --print p \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=EXTREMES2
// EXTREMES2:      $ tile-run
// EXTREMES2-NEXT: p = [-0.5, nan]
// EXTREMES2-NEXT: [exit 0]

// A kernel taking a tensor map (the compiler adds those) is refused,
// whatever --arg says.
// RUN: %{run} %S/Inputs/tensor-map-argument.mlir --arg 'o=f16[64x128]' --arg n=i32:64 \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=TENSOR-MAP
// TENSOR-MAP:      $ tile-run
// TENSOR-MAP-NEXT: tile-run: error: argument #2 of kernel 'stores_by_tma' is a tensor map; tile-run runs kernels whose tensor maps the compiler adds, not ones that take a map
// TENSOR-MAP-NEXT: [exit 2]

// Errors of LLVM's option parser (unknown option, bad --mode value, no input
// file) are its own messages and exit status 1.
// RUN: %{run} %{va} --mode=bogus \
// RUN:   | FileCheck %s --match-full-lines --check-prefix=MODE
// MODE:      $ tile-run
// MODE-NEXT: tile-run: for the --mode option: Cannot find option named 'bogus'!
// MODE-NEXT: [exit 1]
// RUN: %{run} %{va} --frobnicate \
// RUN:   | FileCheck %s --check-prefix=UNKNOWN-OPTION
// UNKNOWN-OPTION:      $ tile-run
// UNKNOWN-OPTION-NEXT: tile-run: Unknown command line argument '--frobnicate'.{{.*}}
// UNKNOWN-OPTION:      [exit 1]
// RUN: %python %S/Inputs/run.py tile-run \
// RUN:   | FileCheck %s --check-prefix=NO-INPUT
// NO-INPUT:      $ tile-run
// NO-INPUT-NEXT: tile-run: Not enough positional command line arguments specified!
// NO-INPUT:      [exit 1]

// p[0], p[1] = b ? (f, d) : (d, f), d rounded to f32.
func.func @scalars(%p: !tile.ptr<f32>, %b: i1, %n: i32, %m: i64, %f: f32, %d: f64)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %c1 = arith.constant 1 : i32
  %df = arith.truncf %d : f64 to f32
  %v0 = arith.select %b, %f, %df : f32
  %v1 = arith.select %b, %df, %f : f32
  tile.store %p, %v0 : !tile.ptr<f32>
  %p1 = tile.addptr %p, %c1 : !tile.ptr<f32>, i32
  tile.store %p1, %v1 : !tile.ptr<f32>
  return
}
