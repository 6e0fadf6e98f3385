// tile-tune --space: the command line is checked before anything runs, and
// without a GPU nothing is measured and no cache is written.
//
// RUN: rm -f %t.json
// RUN: not tile-tune --space BLOCK --cache %t.json -- %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SPACE
// SPACE: tile-tune: error: --space 'BLOCK': expected NAME=V1,V2,...
//
// RUN: not tile-tune --space BLOCK=1,2 --space BLOCK=4 --cache %t.json -- %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TWICE
// TWICE: tile-tune: error: --space: parameter 'BLOCK' is given twice
//
// RUN: not tile-tune --space BLOCK=1,2 --cache %t.json -- %s --param BLOCK=4 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OWNED
// OWNED: tile-tune: error: tile-run's arguments may not contain '--param': tile-tune sets the parameters, the GPU and the timing
//
// RUN: not tile-tune --space BLOCK=1,2 --cache %t.json 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOARGS
// NOARGS: tile-tune: error: give tile-run's arguments after '--': the kernel file, --grid, --arg ...
//
// RUN: not tile-tune --space BLOCK=1,2 -- %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOCACHE
// NOCACHE: tile-tune: error: --space needs --cache FILE (where the choice is kept)
//
// RUN: not tile-tune --space BLOCK=1,2 --cache %t.json -o %t.table -- %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BOTH
// BOTH: tile-tune: -o writes the library's table; a user kernel's choice goes to --cache
//
// RUN: not tile-tune --space A=1,2,3,4,5,6,7,8,9 --space B=1,2,3,4,5,6,7,8 \
// RUN:     --space C=1,2,3,4,5,6,7,8 --space D=1,2,3,4,5,6,7,8 \
// RUN:     --cache %t.json -- %s 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: tile-tune: error: the space has more than 4096 settings
//
// RUN: not ls %t.json

tile.param BLOCK = 128

func.func @k(%n: i32) attributes {tile.kernel} {
  %r = tile.range 0, ${BLOCK} : tensor<${BLOCK}xi32>
  return
}
