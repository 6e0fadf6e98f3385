//===- Passes.td - Tile dialect passes ---------------------*- tablegen -*-===//

#ifndef TILE_PASSES_TD
#define TILE_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileCheckCalls : Pass<"tile-check-calls", "ModuleOp"> {
  let summary = "Reject calls that kernels cannot inline";
  let description = [{
    Kernels are compiled as single functions: every call is inlined first.
    For every `tile.kernel` function, follows its calls (directly and
    through helpers) and reports, at the call, one that reaches a function
    without a body, a kernel, or a function already on the chain
    (recursion), or that makes the chain of helpers deeper than 64 calls.
    The compiler and tile-run run it before inlining. With `chains-only`,
    only the depth of call chains is checked (from every function): tile-opt
    runs it so before a pipeline that holds MLIR's inliner (`--inline`),
    which takes time cubic in the length of a chain.
  }];
  let options = [
    Option<"chainsOnly", "chains-only", "bool", /*default=*/"false",
           "Check only that call chains are at most 64 deep">
  ];
}

def TileKernelCheck : Pass<"tile-kernel-check", "ModuleOp"> {
  let summary = "Check kernels against the limits of a program instance";
  let description = [{
    For every `tile.kernel` function: checks that no tile of it or of the
    helpers it calls exceeds `max-tile-elements`; that `tile.num_warps` is a
    power of two giving at most 1024 threads; and estimates the registers
    one thread needs at the op where it needs the most, as ptxas counts
    them: 12 for its scalars (ids, pointers, sizes, loop counters), its
    share of the data tiles live there (each spread over the CTA's
    threads, or, where the layout repeats elements, such as a row
    broadcast onto a tensor-core accumulator or a reduction's result, the
    distinct elements it holds), masks used by several ops beyond the 7
    predicate registers, the 64-bit addresses of pointer tiles and block
    pointers a loop carries (and of the chunks a pipelined copy has in
    flight), and what some ops need while they run: an FMA dot's operands
    of its unrolled k steps, a load's or store's addresses, an IEEE
    division's slow path, a libdevice function's intermediates. Pointer
    tiles used where they are made, integer tiles of index arithmetic
    (computed from ranges, program ids and scalars), splats, operands
    tensor-core dots read from shared memory and intermediates of
    elementwise chains hold none. The estimate comes within about 20% of
    ptxas' count: a kernel whose estimate exceeds `max-registers` by more
    than a quarter is rejected with its name, the estimate and the limit,
    the compile-time equivalent of an out-of-resources launch failure. A
    thread may use 64K registers shared by the threads of
    `tile.min_programs_per_sm` programs (one without it), in units of 8, at
    most 255 (and at most `max-registers`): a kernel whose estimate is
    within 10% of that, or above it, gets a warning that registers may
    spill to local memory. With `report`, each kernel's estimate and limit
    are emitted as a remark. The estimate takes time linear in the
    kernel's size.

    Code size: the lowering unrolls every tile op over the elements each
    thread holds, and LLVM's and ptxas' time grows faster than linearly in
    the length of straight-line code (and the lowering's in the elements of
    one tile). A tile giving each thread more than `max-thread-elements`
    elements is rejected at its op (index and pointer tiles included, which
    the register estimate leaves out); a kernel with more than `max-ops`
    operations, or whose ops with tile results hold more than
    `max-element-ops` elements per thread in total (each op counted once,
    in loops too), is rejected with both numbers.
  }];
  let options = [
    Option<"maxTileElements", "max-tile-elements", "int64_t",
           /*default=*/"1048576", "Largest number of elements in one tile">,
    Option<"maxRegisters", "max-registers", "int64_t", /*default=*/"255",
           "Registers (32-bit) one thread may use">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Emit a remark with each kernel's resource estimate">,
    Option<"maxThreadElements", "max-thread-elements", "int64_t",
           /*default=*/"512",
           "Largest number of elements of one tile per thread">,
    Option<"maxOps", "max-ops", "int64_t", /*default=*/"4096",
           "Largest number of operations in a kernel (helpers inlined)">,
    Option<"maxElementOps", "max-element-ops", "int64_t",
           /*default=*/"32768",
           "Largest number of per-thread element operations in a kernel's "
           "code (each op with a tile result counts its elements per thread)">
  ];
}

def TileExpandMath : Pass<"tile-expand-math", "ModuleOp"> {
  let summary = "Expand math ops the GPU backend has no lowering for";
  let description = [{
    Rewrites, in every function, the `math` ops that the GPU lowering has no
    instruction for into exact formulas of ops it lowers (MLIR's math
    expansions): `tanh`, `sinh` and `cosh` through `exp` (tanh as
    sign(x) (1 - e) / (1 + e) with e = exp(-2|x|), which neither overflows
    nor cancels), `asinh`, `acosh` and `atanh` through `log` and `sqrt`,
    and `rsqrt` as 1 / `sqrt`. The interpreter computes the ops themselves
    in float64; the expansions agree with them to the precision of `exp`,
    `log` and `sqrt` in the element type.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def TileSimplifyMasks : Pass<"tile-simplify-masks", "ModuleOp"> {
  let summary = "Drop load/store masks that are provably true";
  let description = [{
    A mask of the form `range(s, e) < splat(n)` (seen through `expand_dims`
    and `broadcast`; also `<=`, `>`, `>=` and swapped operands) holds for
    every lane when `n` is a constant beyond the range. Such masks, and the
    matching `other` value, are removed so that code generation can emit
    plain vector accesses. Constant true/false masks are handled by
    canonicalization.
  }];
}

def TilePipelineLoops : Pass<"tile-pipeline-loops", "ModuleOp"> {
  let summary = "Software-pipeline the block loads of loops (tile.num_stages)";
  let description = [{
    In every kernel with `tile.num_stages = S` (S >= 2), each `scf.for`
    whose body loads a block through a loop-carried block pointer that the
    loop advances by loop-invariant offsets (`%t = tile.block_load %bp`,
    `scf.yield ..., tile.advance %bp, [...]`) gets those loads pipelined:
    an S-stage `tile.alloc_shared` buffer per load, a prologue that starts
    the copies of the first S - 1 iterations (`tile.async_copy`, one
    `tile.async_commit` per iteration), and in the loop a
    `tile.async_wait pending = S - 2`, the copies of iteration i + S - 1
    into stage (i + S - 1) mod S, and `tile.local_load` of stage i mod S in
    place of the load. A `tile.async_wait pending = 0` after the loop drains
    the copies that ran past its end (they read nothing: blocks outside the
    array are zero-filled). The buffers and the prologue go as far above
    the loop as the block pointers' definitions allow, past ops that
    write no memory but shared buffers (pure ops, `tile.local_store`,
    `tile.local_load` and loads), so that the first copies overlap the work
    before the loop; they never move above a store to global memory, which
    the copies might read.

    Only 2-d blocks of f16, bf16, f32 or i32 whose rows are multiples of 16
    bytes qualify, and only loads that pad with zero (the copies zero-fill;
    loads padded with NaN or -inf on a checked dimension are left alone).
    Rows in the buffers are padded by 16 bytes. Run before layout
    assignment.

    With a `chip` that has Hopper's wgmma (sm_90a) and S >= 4, a loop whose
    f16/bf16 dot takes both operands from pipelined loads (a wgmma
    candidate) keeps one stage out of the rotation: copies run S - 2
    iterations ahead, into the stage read two iterations before, so the
    wgmma of the previous iteration may still be reading its stage while
    the next copies start. The loop is marked `tile.mma_in_flight` and
    tile-convert-to-llvm then leaves each iteration's wgmma group running
    into the next iteration.

    With such a chip, in a kernel marked `tile.tma`, a loop whose pipelined
    loads are all f16/bf16 blocks read by a wgmma-shaped dot, of row-major
    arrays whose base pointer, shape and strides are kernel arguments (through
    integer casts) or constants, is copied by the tensor memory accelerator
    instead: the kernel gains a trailing `!tile.tensormap` argument per array
    (its `tile.tma` dictionary names the array for the runtime, which
    encodes the map at launch), `tile.alloc_mbarriers` gives one barrier per
    stage, `tile.tma_copy` replaces each copy and is issued only for
    iterations the loop runs, and `tile.mbarrier_wait` on barrier i mod S at
    parity (i / S) mod 2 replaces the loop's `tile.async_wait` (none follows
    the loop).
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Target GPU (sm_90a: keep a stage for in-flight wgmma, TMA)">
  ];
}

def TileWarpSpecialize : Pass<"tile-warp-specialize", "ModuleOp"> {
  let summary = "Move a loop's streamed block loads to a producer warpgroup";
  let description = [{
    For a chip with Hopper's TMA and wgmma (sm_90a), each `scf.for` of a
    kernel marked `tile.warp_specialize` streams its blocks through a ring
    of `tile.num_stages` (S >= 2) shared stages that a producer warpgroup
    of its own fills (see `tile.warp_specialize`), as FlashAttention-3 and
    CUTLASS's warp-specialized kernels do:

    - the loop's loads through loop-carried block pointers advanced by
      loop-invariant offsets (as tile-pipeline-loops finds them) must all
      be TMA copies: f16/bf16 blocks of arrays whose base is a kernel
      argument and whose shape and strides the runtime knows at launch
      (arguments, constants, `tile.num_programs`), contiguous along the
      last dimension. A block of rank 3 to 5 is 1 along its leading
      dimensions and read through a `tile.reshape` to its last two (a 4-d
      tensor such as attention's [batch, heads, seq, head_dim] with any
      strides); the kernel gains a `!tile.tensormap` argument per array;
    - the buffers (S stages each) and two barrier arrays per load, `full`
      (the copy's bytes landed) and `empty` (the program's threads released
      the stage), are allocated at the kernel's start, followed by the
      producer region: the loop's bounds and first block pointers
      recomputed from the kernel's scalars (under the `scf.if`s that hold
      the loop), and a loop that waits for stage i mod S to be released
      (parity (i / S + 1) mod 2, which a fresh barrier passes) and copies
      iteration i's blocks into it;
    - in the loop, each load becomes a wait on `full` at parity
      (i / S) mod 2 (without synchronizing the threads) and a
      `tile.local_load` of stage i mod S; before the yield the threads
      arrive on `empty` after the dots that read the stage.

    A kernel holding `tile.wait_prior_grid` (it may start before the
    kernel ahead of it ends) gets one at the producer region's start too:
    the producer's copies may read what that kernel wrote.

    Several marked loops form one chain when each continues the previous
    one's streams: it follows it in the same block, starts at its upper
    bound with the same step, and streams the same iteration arguments from
    its results, advanced by the same offsets (say, a loop of unmasked
    steps and one of masked steps). One producer loop then copies the
    blocks of all of them, and each loop counts its iterations from the
    first one's lower bound.

    One-shot copies: a block stored, as loaded, into a shared buffer of one
    stage before the first marked loop, in its block (a 2-d block, or one
    of rank 3 to 5 read through a `tile.reshape`), from a block pointer
    the producer can recompute into an array TMA can describe, where no
    other op writes the buffer before that store, becomes a TMA copy the
    producer issues before its loop (a tensor map and a `ready` barrier of
    its own; the buffer's allocation moves before the producer), and the
    program waits on that barrier before the buffer's first use after the
    store. Inside a loop over tiles (below) each tile copies anew: the
    program arrives on an `emptied` barrier of the buffer's after its last
    use there (after the dots that read it), the producer waits on it
    before the next tile's copy, and both sides count the tiles that
    copied, for the barriers' phases. There the buffer may have n stages
    if every op of the program's that reads or writes it is a
    `tile.local_load` or `tile.local_store` of stage 0 after the store in
    its block: tile i's block goes into stage i mod n (barriers per stage)
    and those ops move to that stage, so that the producer copies the next
    tile's block while this tile uses its own. A block the program first
    uses after the marked loops is copied once the producer has issued
    the loops' copies. In a loop over tiles, a `tile.block_store` of a
    `tile.local_load` of such a buffer (the load's only use, through a
    `tile.reshape` for a block pointer of rank 3 to 5) whose array TMA can
    describe, after which the tile writes the buffer no more (not in a
    loop within the tile, no later write but in another branch of an
    `scf.if`), becomes a `tile.tma_store` of the loaded stage through a
    tensor map of its own: the tensor memory accelerator copies the
    staged block out while the program goes on. The buffer's `emptied`
    arrival then moves to the end of the tile and waits for the copy to
    have read the stage (`tile.mbarrier_arrive ... stores`).

    The loops may sit in one `scf.for` without loop-carried values (besides
    `scf.if`s inside and outside it): a persistent program's loop over its
    tiles. The producer reproduces it, and both sides carry the iterations
    the ring served in the tiles before (each enclosing `scf.if` inside it
    yields its trip count, 0 where it does not run the loops), so that the
    stages and barrier phases go on across tiles and the producer copies
    the next tile's first blocks while the program finishes the last one.
    With one-shot copies of one stage issued before the loops, which the
    producer issues only once the previous tile released their buffers, it
    brings the next tile's such blocks into L2 (`tile.tma_prefetch`,
    predicated on there being a next tile) once it has issued this tile's
    copies, so that those copies read L2 when their buffers free up.

    In a kernel of `tile.cluster_size` N > 1 (clusters along grid axis 0),
    a stream whose blocks are the same for every program of a cluster (its
    first block pointer and its offsets do not depend on
    `tile.program_id 0`, nor do the loop's bounds or the conditions of the
    `scf.if`s that hold it) is copied once per cluster: each program's
    producer copies 1/N of every block to all N programs
    (`tile.tma_copy ... multicast N`), and its `empty` barriers take one
    arrival per warp of each of the N programs
    (`tile.mbarrier_arrive ... cluster`), so a stage is refilled only once
    the whole cluster has released it. Programs of neighbouring row
    blocks then share, say, the blocks of the matrix they all multiply
    by, and the cluster reads them from L2 once.

    The values the producer needs (bounds, block pointers, the conditions
    of enclosing `scf.if`s) must come from kernel arguments through pure
    scalar ops; nothing before the loop may compute a tile that the
    producer region would need. Producer warps keep 24 registers, the
    program's warps get the rest of the register file (its share of it
    with `tile.min_programs_per_sm` programs per SM; at most 240, in
    multiples of 8). A marked loop that does not qualify is an error; for
    other chips the marks are dropped. Run before tile-pipeline-loops.
  }];
  let options = [Option<"chip", "chip", "std::string", /*default=*/"\"\"",
                        "Target GPU (sm_90a and later: TMA, setmaxnreg)">];
}

def TileAssignLayouts : Pass<"tile-assign-layouts", "ModuleOp"> {
  let summary = "Give every tile of every kernel a thread layout";
  let description = [{
    Attaches a `#tile.blocked` or `#tile.slice` encoding to every tile type
    in each `tile.kernel` function (and to the block types of block
    pointers), so that code generation knows which thread holds which
    element.

    Values that elementwise ops, memory ops, loop-carried values and
    broadcasts tie together must share a layout; they are grouped with a
    union-find. `tile.reduce` results and `tile.expand_dims` operands are
    slices of their partner's layout. Each remaining group gets the blocked
    layout of its largest shape: up to 16 bytes per thread along the fastest
    dimension (the order of a block pointer, else the last dimension), lanes
    along the fastest dimensions first, warps along the slowest first (so
    that rows are reduced within a warp). This is the coalescing step:
    consecutive lanes touch consecutive 16-byte chunks. Splats,
    constants and ranges are duplicated per use first, so that they never
    tie unrelated groups together. Where two slice constraints disagree, a
    `tile.convert_layout` is inserted.

    Dots that can use tensor cores get the mma accumulator layout; with a
    `chip` that has Hopper's wgmma (sm_90a), dots that qualify for it get
    all warps along M (see getMmaLayout). Other dots with f32
    accumulators (f32 with IEEE precision) get the FMA layout: runs of 4
    rows and 4 columns per thread, read as 16-byte vectors (see
    getFmaLayout), where the shape is a multiple of the warps' 16 x 32.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Target GPU (sm_90a enables layouts for wgmma)">
  ];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def TileRemoveLayoutConversions
    : Pass<"tile-remove-layout-conversions", "ModuleOp"> {
  let summary = "Fold layout conversions that are not needed";
  let description = [{
    Removes `tile.convert_layout` ops that convert to the same layout,
    folds chains of conversions, and recomputes splats, ranges and splat
    constants directly in the layout their users need instead of moving
    data through shared memory.
  }];
}

def TileRematerialize : Pass<"tile-rematerialize", "ModuleOp"> {
  let summary = "Recompute wide tiles from narrow ones instead of holding "
                "them across synchronization";
  let description = [{
    In kernels marked `tile.rematerialize`, a tile computed elementwise from
    a narrower tile (`arith.extf` of f16/bf16, then at most a few of
    `addf`, `subf`, `mulf`, `maximumf`, `minimumf`, `negf` and one `exp` or
    `exp2`, whose other operands are splats, constants or broadcasts of
    at most an eighth as many elements, such as per-row statistics) whose
    uses lie
    after a point where the program's threads synchronize (`tile.reduce`,
    layout exchanges through shared memory, cluster and grid
    synchronization, loops containing any of these) is recomputed from the
    narrow tile before those uses. The narrow tile is then what stays live
    across the synchronization: a softmax over f16 rows holds 2 bytes per
    element across its two row reductions instead of the 4 of the f32
    values or exponentials, at the price of a conversion and possibly a
    second exponential per element, which lets more programs share an SM.

    Each recomputation starts from a `tile.optimization_barrier` of the
    narrow tile, so that neither later CSE nor LLVM merges it back into the
    first computation. Run after layout assignment and the last CSE.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

#endif // TILE_PASSES_TD
