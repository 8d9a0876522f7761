// The host launches ceil(rows / rows-per-block) blocks: a last, partial block of rows is
// launched too; and nothing when there are no rows (a grid of zero blocks is a launch error).
// RUN: softmax-opt %s --softmax-lower-to-gpu --canonicalize --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @static_rows
// CHECK-DAG: %[[BLOCKS:.+]] = arith.constant 10 : index
// CHECK: gpu.launch_func @softmax_kernels::@static_rows_0_multi_row blocks in (%[[BLOCKS]],
func.func @static_rows(%x: tensor<37x64xf32>) -> tensor<37x64xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<multi_row, lanes = 8, rows = 4, vector = 4, chunks = 2>]} : tensor<37x64xf32> -> tensor<37x64xf32>
  return %0 : tensor<37x64xf32>
}

// -----

// CHECK-LABEL: func.func @dynamic_rows
// CHECK: %[[NONEMPTY:.+]] = arith.cmpi ugt, %{{.+}}, %c0 : index
// CHECK-NEXT: scf.if %[[NONEMPTY]] {
// CHECK: %[[BLOCKS:.+]] = arith.ceildivui %{{.+}}, %c4 : index
// CHECK: gpu.launch_func @softmax_kernels::@dynamic_rows_0_multi_row blocks in (%[[BLOCKS]],
func.func @dynamic_rows(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<multi_row, lanes = 8, rows = 4, vector = 4, chunks = 2>]} : tensor<?x64xf32> -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}

// -----

// A pipelined (16-bit) plan takes up to 4 row groups a block. Groups of 8 KB of input or more
// are taken a grid apart, so that the blocks at work read neighbouring rows, as many a block as
// leave about 16 blocks for each that the 132 multiprocessors hold at once: 512 threads at 40
// registers, 3 a multiprocessor, round(16384 / (16 x 396)) = 3 groups a block, 5462 blocks
// (RowKernel.cpp, getStridedWalkWidth).
// CHECK-LABEL: func.func @pipelined_wide
// CHECK: gpu.launch_func @softmax_kernels::@pipelined_wide_0_row_registers blocks in (%c5462,
// CHECK: gpu.func @pipelined_wide_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 40 : i32
// CHECK: %[[GRID:.+]] = arith.index_cast %grid_dim_x : index to i32
// CHECK: %[[BLOCK:.+]] = arith.index_cast %block_id_x : index to i32
// CHECK: scf.for %[[G:.+]] = %[[BLOCK]] to %{{.+}} step %[[GRID]] iter_args
// CHECK-NEXT: arith.addi %[[G]], %[[GRID]] : i32
func.func @pipelined_wide(%x: tensor<16384x8192xbf16>) -> tensor<16384x8192xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 2>]} : tensor<16384x8192xbf16> -> tensor<16384x8192xbf16>
  return %0 : tensor<16384x8192xbf16>
}

// -----

// Not a plan whose block leaves no registers for the next row's values (RowKernel.cpp,
// isPipelined): 1024 threads of 16 bf16 values (a hand-written plan; 64 registers a thread,
// where pipelined it needs 92 by getRegisterPlanRegisters) take one row group a block, the
// block's own, and no loop over groups: pipelined, such plans spilled 12-20 bytes at 64
// (generated seeds 4493, 5440, 8090), unpipelined they fit 39-62.
// CHECK-LABEL: func.func @unpipelined_block
// CHECK: gpu.launch_func @softmax_kernels::@unpipelined_block_0_row_registers blocks in (%c16384,
// CHECK: gpu.func @unpipelined_block_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 64 : i32
// CHECK-NOT: scf.for
// CHECK: gpu.return
func.func @unpipelined_block(%x: tensor<16384x16384xbf16>) -> tensor<16384x16384xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 1024, rows = 1, vector = 8, chunks = 2>]} : tensor<16384x16384xbf16> -> tensor<16384x16384xbf16>
  return %0 : tensor<16384x16384xbf16>
}

// -----

// A dynamic width decides at run time: from 4096 bf16 columns (8 KB) the balanced count
// (groups + 8 x slots) / (16 x slots), else groups / (16 x 132), each clamped to [1, 4]. The
// slots follow each kernel's registers: the Full kernel's 40 (3 blocks a multiprocessor), the
// general kernel's budget (1).
// CHECK-LABEL: func.func @pipelined_dynamic
// CHECK: %[[LEGACY:.+]] = arith.divui %[[ROWS:.+]], %c2112 : index
// CHECK: %[[SUM:.+]] = arith.addi %[[ROWS]], %c3168 : index
// CHECK-NEXT: %[[BALANCED:.+]] = arith.divui %[[SUM]], %c6336 : index
// CHECK: %[[WIDE:.+]] = arith.cmpi uge, %{{.+}}, %c4096 : index
// CHECK-NEXT: %[[PER:.+]] = arith.select %[[WIDE]], %{{.+}}, %{{.+}} : index
// CHECK-NEXT: %[[BLOCKS:.+]] = arith.ceildivui %[[ROWS]], %[[PER]] : index
// CHECK-NEXT: gpu.launch_func @softmax_kernels::@pipelined_dynamic_0_row_registers_0_full blocks in (%[[BLOCKS]],
// CHECK: arith.addi %[[ROWS]], %c1056 : index
// CHECK-NEXT: arith.divui %{{.+}}, %c2112 : index
// CHECK: gpu.launch_func @softmax_kernels::@pipelined_dynamic_0_row_registers_0_general
func.func @pipelined_dynamic(%x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 2>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]} : tensor<?x?xbf16> -> tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}

// -----

// Smaller groups (4 KB) stay consecutive: a block's groups [id * n, id * n + n).
// CHECK-LABEL: func.func @pipelined_narrow
// CHECK: gpu.func @pipelined_narrow_0_row_registers(
// CHECK: scf.for %[[G:.+]] = %{{.+}} to %{{.+}} step %c1_i32 iter_args
// CHECK-NEXT: arith.addi %[[G]], %c1_i32 : i32
func.func @pipelined_narrow(%x: tensor<40000x2048xbf16>) -> tensor<40000x2048xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 8, chunks = 1>]} : tensor<40000x2048xbf16> -> tensor<40000x2048xbf16>
  return %0 : tensor<40000x2048xbf16>
}

// -----

// Nor rows a -inf mask cuts short (the strided walk's registers spilled their kernels).
// CHECK-LABEL: func.func @pipelined_masked
// CHECK: gpu.func @pipelined_masked_0_row_registers(
// CHECK: scf.for %[[G:.+]] = %{{.+}} to %{{.+}} step %c1_i32 iter_args
func.func @pipelined_masked(%x: tensor<10x4000x4096xbf16>) -> tensor<10x4000x4096xbf16> {
  %0 = softmax.fused softmax %x axis = 2 prologue [#softmax.mask<causal, fill = 0xFFF0000000000000>] {strategies = [#softmax.strategy<row_registers, lanes = 128, rows = 1, vector = 8, chunks = 4>]} : tensor<10x4000x4096xbf16> -> tensor<10x4000x4096xbf16>
  return %0 : tensor<10x4000x4096xbf16>
}
