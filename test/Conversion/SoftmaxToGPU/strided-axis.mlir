// RUN: softmax-opt %s --softmax-lower-to-gpu --split-input-file | FileCheck %s

// A softmax over a non-last axis, without a transpose (AxisKernel.cpp): the tensor viewed as
// [outer, C, mid, last], a grid of outer * ceil(inner / (lanes * vector)) blocks, the vector
// kernel when both operands are whole aligned vectors, else the scalar kernel.

// [16, 64, 1024] over axis 1, C = 64 <= rows * chunks: the register path (one read), 8 values
// of each column a thread, the 8 rows of a column combined through shared memory (lanes = 32:
// no two rows share a warp, so no shuffles).
// CHECK-LABEL: func.func @registers
// CHECK-SAME: (%[[X:.+]]: memref<16x64x1024xf32, strided<[?, ?, 1], offset: ?>>, %[[Y:.+]]: memref<16x64x1024xf32, strided<[?, ?, 1], offset: ?>>)
// CHECK: %[[XE:.+]] = memref.expand_shape %[[X]] {{\[}}[0], [1], [2, 3]] output_shape [16, 64, 1, 1024]
// CHECK: %[[XV:.+]] = memref.cast %[[XE]] {{.*}} to memref<?x?x?x?xf32, strided<[?, ?, ?, 1], offset: ?>>
// CHECK: %[[YE:.+]] = memref.expand_shape %[[Y]] {{\[}}[0], [1], [2, 3]] output_shape [16, 64, 1, 1024]
// CHECK: %[[YV:.+]] = memref.cast %[[YE]]
// CHECK: scf.if
// CHECK: %[[COLUMNS:.+]] = arith.ceildivui %{{.+}}, %c128 : index
// CHECK: %[[GRID:.+]] = arith.muli %{{.+}}, %[[COLUMNS]] : index
// CHECK: memref.extract_aligned_pointer_as_index %[[XV]]
// CHECK: memref.extract_strided_metadata %[[XV]]
// CHECK: arith.remui %strides#2, %c4
// CHECK: arith.remui %sizes#3, %c4
// CHECK: memref.extract_aligned_pointer_as_index %[[YV]]
// CHECK: scf.if
// CHECK: gpu.launch_func @softmax_kernels::@registers_0_strided_axis blocks in (%[[GRID]], %{{.+}}, %{{.+}}) threads in (%c256, {{.*}} args(%[[XV]] : {{.*}}, %[[YV]] : {{.*}})
// CHECK: } else {
// CHECK: gpu.launch_func @softmax_kernels::@registers_0_strided_axis_scalar blocks in (%[[GRID]],

// CHECK-LABEL: gpu.func @registers_0_strided_axis(
// CHECK-SAME: workgroup(%[[SMEM:.+]] : memref<2048xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// 32 values a thread: an estimate of 88 registers (getStridedAxisRegisters), so two blocks of
// 256 a multiprocessor, and the 128 that two blocks leave.
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, nvvm.maxnreg = 128 : i32
// The chunks through one view an operand: the thread's first axis value (its row) and columns,
// then `rows` axis values a chunk. C and inner are static whole chunks and blocks: no guard.
// CHECK: %[[ROW:.+]] = arith.divui %{{.+}}, %c32{{.*}} : index
// CHECK: %{{.+}}, %[[XOFF:.+]], %{{.+}}:4, %[[XS:.+]]:4 = memref.extract_strided_metadata %arg0
// CHECK: arith.muli %[[ROW]], %[[XS]]#1 : index
// CHECK: %[[XSTEP:.+]] = arith.muli %c8{{.*}}, %[[XS]]#1 : index
// CHECK: %[[XC:.+]] = memref.reinterpret_cast %arg0 to offset: [%{{.+}}], sizes: [%c64, 4], strides: [%[[XSTEP]], 1] {{.*}} to memref<?x4xf32, strided<[?, 1], offset: ?>>
// CHECK: %[[YC:.+]] = memref.reinterpret_cast %arg1
// CHECK-NOT: scf.if
// CHECK: vector.load %[[XC]][%c0{{.*}}, %c0{{.*}}] {alignment = 16 : i64} : memref<?x4xf32, strided<[?, 1], offset: ?>>, vector<4xf32>
// CHECK-NOT: scf.if
// CHECK: vector.load %[[XC]][%c1{{.*}}, %c0{{.*}}]
// CHECK-COUNT-6: vector.load %[[XC]]
// CHECK-NOT: gpu.shuffle
// CHECK: memref.store %{{.+}}, %[[SMEM]]
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: memref.load %[[SMEM]]
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK: gpu.barrier
// CHECK-COUNT-8: vector.store %{{.+}}, %[[YC]][{{.+}}] {alignment = 16 : i64}
// CHECK: gpu.return
// The scalar kernel in blocks of at most 256 threads (here the plan's own).
// CHECK-LABEL: gpu.func @registers_0_strided_axis_scalar(
// CHECK-NOT: vector.load
// CHECK: memref.load %arg0
// CHECK-NOT: vector.store
// CHECK: gpu.return
func.func @registers(%x: tensor<16x64x1024xf32>) -> tensor<16x64x1024xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 32, rows = 8, vector = 4, chunks = 8>]} : tensor<16x64x1024xf32> -> tensor<16x64x1024xf32>
  return %0 : tensor<16x64x1024xf32>
}

// -----

// Axis 0 of a matrix: outer and mid are unit dimensions. bf16, 8 elements a vector; lanes = 4,
// so 8 rows of a column share each warp: butterfly shuffles over offsets 4, 8 and 16, then the
// 32 / 8 warps' partials through shared memory. The scale is applied to each loaded value.
// CHECK-LABEL: func.func @axis0_bf16
// CHECK: memref.expand_shape %{{.+}} {{\[}}[0, 1], [2, 3]] output_shape [1, 512, 1, 4096]
// CHECK: arith.ceildivui %{{.+}}, %c32 : index
// The 128 values a thread stay packed, two a register, until each use (holdsPackedValues):
// the words pass through an opaque mov so that LLVM does not keep f32 copies, and the kernel
// asks for 128 registers (getPackedStridedAxisRegisters: 16 more after a prologue past 64).
// CHECK-LABEL: gpu.func @axis0_bf16_0_strided_axis(
// CHECK-SAME: workgroup(%{{.+}} : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK-SAME: nvvm.maxnreg = 128 : i32
// CHECK: vector.load {{.*}} vector<8xbf16>
// CHECK: vector.bitcast %{{.+}} : vector<8xbf16> to vector<4xi32>
// CHECK: llvm.inline_asm has_side_effects "mov.b32 $0, $1;", "=r,r"
// CHECK: arith.extf
// CHECK: arith.mulf %{{.+}}, %cst{{.*}} : f32
// Every chunk is inside C = 512 (32 rows x 16): no -inf select before the max.
// CHECK-NOT: arith.select
// CHECK: gpu.shuffle  xor %{{.+}}, %c4_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK: gpu.shuffle  xor %{{.+}}, %c8_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK: gpu.shuffle  xor %{{.+}}, %c16_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NOT: gpu.shuffle  xor %{{.+}}, %c32_i32{{[_0-9]*}}, %c32_i32
// More than 2 groups of warps share each column (4 here): one thread a column slot (32 of the
// block's 128) merges their partials into group 0's slot, and after a second barrier every
// thread reads its 8 column slots' results (mergesGroupsOnce), 12 loads where each thread
// merging all four groups' took 32.
// CHECK: gpu.barrier
// CHECK: %[[MERGER:.+]] = arith.cmpi ult, %{{.+}}, %c32{{[_0-9]*}} : index
// CHECK-NEXT: scf.if %[[MERGER]] {
// CHECK: scf.for %{{.+}} = %c1{{[_0-9]*}} to %c4{{[_0-9]*}} step
// CHECK: arith.maximumf
// CHECK: memref.store
// CHECK: gpu.barrier
// CHECK-COUNT-8: memref.load
// CHECK: arith.truncf %{{.+}} : vector<8xf32> to vector<8xbf16>
// CHECK: vector.store {{.*}} vector<8xbf16>
func.func @axis0_bf16(%x: tensor<512x4096xbf16>) -> tensor<512x4096xbf16> {
  %0 = softmax.fused softmax %x axis = 0 prologue [#softmax.scale<0.125>] {strategies = [#softmax.strategy<strided_axis, lanes = 4, rows = 32, vector = 8, chunks = 16>]} : tensor<512x4096xbf16> -> tensor<512x4096xbf16>
  return %0 : tensor<512x4096xbf16>
}

// -----

// After a prologue, 64 values a thread or fewer are held as f32, each converted and scaled
// once (holdsPackedAfterPrologue): a lean kernel (one view an operand, no opaque mov), each
// loaded value's extf followed by its multiplication, and no conversion after the reductions.
// CHECK-LABEL: gpu.func @axis0_bf16_f32_values_0_strided_axis(
// CHECK-SAME: workgroup(%{{.+}} : memref<512xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: llvm.inline_asm
// CHECK: memref.reinterpret_cast %arg0 to offset: [%{{.+}}], sizes: [%c512, 8], strides: [%{{.+}}, 1]
// CHECK: vector.load %reinterpret_cast[%c0{{[_0-9]*}}, %c0{{[_0-9]*}}] {{.*}} vector<8xbf16>
// CHECK-NEXT: vector.extract
// CHECK-NEXT: arith.extf %{{.+}} : bf16 to f32
// CHECK-NEXT: arith.constant 1.250000e-01 : f32
// CHECK-NEXT: arith.mulf
// CHECK-NOT: llvm.inline_asm
// CHECK: gpu.barrier
// CHECK-NOT: arith.extf
// CHECK-NOT: llvm.inline_asm
// CHECK: arith.truncf %{{.+}} : vector<8xf32> to vector<8xbf16>
// CHECK: gpu.return
func.func @axis0_bf16_f32_values(%x: tensor<512x4096xbf16>) -> tensor<512x4096xbf16> {
  %0 = softmax.fused softmax %x axis = 0 prologue [#softmax.scale<0.125>] {strategies = [#softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 8, chunks = 8>]} : tensor<512x4096xbf16> -> tensor<512x4096xbf16>
  return %0 : tensor<512x4096xbf16>
}

// -----

// Without a prologue, each column's max is taken on the 16-bit vectors as loaded (two columns
// an instruction, max.NaN.bf16x2 in PTX); a chunk that may pass C (C = 500: the last chunk of
// 64 rows is partial) is loaded as -inf there, so that no use selects; the words go through
// the opaque mov only for the sum and the normalisation.
// CHECK-LABEL: gpu.func @axis0_bf16_plain_0_strided_axis(
// CHECK: vector.load {{.*}} vector<8xbf16>
// CHECK-NOT: llvm.inline_asm
// CHECK: } else {
// CHECK: arith.constant dense<0xFF80> : vector<8xbf16>
// CHECK-NOT: arith.select {{.*}} : vector<8xbf16>
// CHECK-NOT: llvm.inline_asm
// CHECK: arith.maximumf %{{.+}}, %{{.+}} : vector<8xbf16>
// CHECK-NOT: llvm.inline_asm
// CHECK: gpu.shuffle
// CHECK: llvm.inline_asm has_side_effects "mov.b32 $0, $1;", "=r,r"
func.func @axis0_bf16_plain(%x: tensor<500x4096xbf16>) -> tensor<500x4096xbf16> {
  %0 = softmax.fused softmax %x axis = 0 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 8, chunks = 8>]} : tensor<500x4096xbf16> -> tensor<500x4096xbf16>
  return %0 : tensor<500x4096xbf16>
}

// -----

// log_softmax keeps its values as f32 (packed, ptxas kept the shifted values it shares with the
// sum live anyway: 112-120 registers), as does a dynamic C, whose kernel also has the online path.
// CHECK-LABEL: gpu.func @axis0_bf16_log_0_strided_axis(
// CHECK-SAME: nvvm.maxnreg = 255 : i32
// CHECK-NOT: llvm.inline_asm
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @axis0_bf16_dynamic_0_strided_axis(
// CHECK-NOT: llvm.inline_asm
// CHECK: gpu.return
func.func @axis0_bf16_log(%x: tensor<512x4096xbf16>) -> tensor<512x4096xbf16> {
  %0 = softmax.fused log_softmax %x axis = 0 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 8, chunks = 8>]} : tensor<512x4096xbf16> -> tensor<512x4096xbf16>
  return %0 : tensor<512x4096xbf16>
}
func.func @axis0_bf16_dynamic(%x: tensor<?x4096xbf16>) -> tensor<?x4096xbf16> {
  %0 = softmax.fused softmax %x axis = 0 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 8, chunks = 8>]} : tensor<?x4096xbf16> -> tensor<?x4096xbf16>
  return %0 : tensor<?x4096xbf16>
}

// -----

// Axis 0 of a rank-4 tensor: the dimensions between the axis and the last one collapse into
// `mid`, and a thread's column is (j / last, j % last).
// CHECK-LABEL: func.func @rank4_axis0
// CHECK: memref.collapse_shape %{{.+}} {{\[}}[0], [1, 2], [3]]
// CHECK: memref.expand_shape %{{.+}} {{\[}}[0, 1], [2], [3]] output_shape [1, 8, 15, 64]
// The vector kernel takes the static sizes as constants.
// CHECK-LABEL: gpu.func @rank4_axis0_0_strided_axis(
// CHECK-NOT: memref.dim
// CHECK: arith.divui %{{.+}}, %c64{{.*}} : index
// CHECK: arith.remui %{{.+}}, %c64{{.*}} : index
// The scalar kernel (the code of before) reads them from the view.
// CHECK-LABEL: gpu.func @rank4_axis0_0_strided_axis_scalar(
// CHECK: %[[LAST:.+]] = memref.dim %arg0, %c3
// CHECK: arith.divui %{{.+}}, %[[LAST]] : index
// CHECK: arith.remui %{{.+}}, %[[LAST]] : index
func.func @rank4_axis0(%x: tensor<8x3x5x64xf32>) -> tensor<8x3x5x64xf32> {
  %0 = softmax.fused log_softmax %x axis = 0 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 16, rows = 2, vector = 4, chunks = 4>]} : tensor<8x3x5x64xf32> -> tensor<8x3x5x64xf32>
  return %0 : tensor<8x3x5x64xf32>
}

// -----

// C = 4096 > rows * chunks = 1024: the online path, a running max and sum per column over
// spans of 1024 axis values (4 loads of a column a thread a span), the (max, sum) pairs of the
// rows merged, then a second loop that reads the column again and stores it.
// CHECK-LABEL: gpu.func @online_0_strided_axis(
// CHECK: %[[SPANS:.+]] = arith.ceildivui %{{.+}}, %c1024{{.*}} : index
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[SPANS]] step %{{.+}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-COUNT-4: vector.load
// CHECK-NOT: vector.store
// CHECK-NOT: arith.cmpf oge
// CHECK: scf.yield
// CHECK: gpu.barrier
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[SPANS]] step
// CHECK-COUNT-4: vector.store
func.func @online(%x: tensor<16x4096x1024xf32>) -> tensor<16x4096x1024xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 256, vector = 4, chunks = 4>]} : tensor<16x4096x1024xf32> -> tensor<16x4096x1024xf32>
  return %0 : tensor<16x4096x1024xf32>
}

// -----

// Over more than 64 spans (here 65, C = 66560) the running sum is compensated (Neumaier's
// step): a third value a column carried, the error of each addition from the larger operand.
// CHECK-LABEL: gpu.func @online_long_0_strided_axis(
// CHECK: scf.for %{{.+}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// The running sum and the compensation are both rescaled to the new max (one factor).
// CHECK: %[[RUNNING:.+]] = arith.mulf %arg{{[0-9]+}}, %[[RESCALE:.+]] : f32
// CHECK: %[[LARGER:.+]] = arith.cmpf oge, %[[RUNNING]], %[[SPAN:.+]] : f32
// CHECK: %[[LARGE:.+]] = arith.select %[[LARGER]], %[[RUNNING]], %[[SPAN]] : f32
// CHECK: %[[SMALL:.+]] = arith.select %[[LARGER]], %[[SPAN]], %[[RUNNING]] : f32
// CHECK: %[[LOST:.+]] = arith.subf %[[LARGE]], %{{.+}} : f32
// CHECK: %[[ERROR:.+]] = arith.addf %[[LOST]], %[[SMALL]] : f32
// CHECK: %[[CARRIED:.+]] = arith.mulf %arg{{[0-9]+}}, %[[RESCALE]] : f32
// CHECK: arith.addf %[[CARRIED]], %[[ERROR]] : f32
// CHECK: scf.yield
func.func @online_long(%x: tensor<2x66560x64xf32>) -> tensor<2x66560x64xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 256, vector = 4, chunks = 4>]} : tensor<2x66560x64xf32> -> tensor<2x66560x64xf32>
  return %0 : tensor<2x66560x64xf32>
}

// -----

// A dynamic C: both paths in one kernel, chosen uniformly over the grid (C <= rows * chunks),
// the online path's running sum compensated (C may be long).
// CHECK-LABEL: gpu.func @dynamic_0_strided_axis(
// CHECK: %[[C:.+]] = memref.dim %arg0, %c1
// CHECK: %[[FITS:.+]] = arith.cmpi ule, %[[C]], %c256 : index
// CHECK: scf.if %[[FITS]] {
// CHECK-NOT: scf.for %{{.+}} iter_args
// CHECK: } else {
// CHECK: scf.for
// CHECK: arith.cmpf oge
func.func @dynamic(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 8>]} : tensor<?x?x?xf32> -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

// A dynamic C with tiers (capacities 16 and 64) before the general plan: the host launches the
// first tier whose capacity covers C where the vectors apply (one condition for both tiers),
// else the general plan's vector or scalar kernel. A tier's kernel has the register path only
// (no span loop, no test of C against a capacity) and holds 16-bit values packed.
// CHECK-LABEL: func.func @tiers(
// CHECK: scf.if
// CHECK: %[[FITS16:.+]] = arith.cmpi ule, %[[C:.+]], %c16 : index
// CHECK: %[[RUN16:.+]] = arith.andi %[[FITS16]], %[[VEC:.+]] : i1
// CHECK: scf.if %[[RUN16]] {
// CHECK: gpu.launch_func @softmax_kernels::@tiers_0_strided_axis_c16 blocks in (%{{.+}}, %c1{{.*}}, %c1{{.*}}) threads in (%c256
// CHECK: } else {
// CHECK: %[[FITS64:.+]] = arith.cmpi ule, %[[C]], %c64 : index
// CHECK: %[[RUN64:.+]] = arith.andi %[[FITS64]], %[[VEC]] : i1
// CHECK: scf.if %[[RUN64]] {
// CHECK: gpu.launch_func @softmax_kernels::@tiers_0_strided_axis_c64 blocks in (%{{.+}}, %c1{{.*}}, %c1{{.*}}) threads in (%c128
// CHECK: } else {
// CHECK: scf.if %[[VEC]] {
// CHECK: gpu.launch_func @softmax_kernels::@tiers_0_strided_axis blocks
// CHECK: } else {
// CHECK: gpu.launch_func @softmax_kernels::@tiers_0_strided_axis_scalar
// CHECK-LABEL: gpu.func @tiers_0_strided_axis_c16(
// CHECK-SAME: nvvm.maxnreg = 128
// CHECK-NOT: scf.for
// CHECK-NOT: arith.cmpi ule, %{{.+}}, %c16 : index
// CHECK: vector.load %arg0[{{.+}}] {alignment = 16 : i64} : memref<?x?x?x?xbf16, strided<[?, ?, ?, 1], offset: ?>>, vector<8xbf16>
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @tiers_0_strided_axis_c64(
// CHECK-NOT: arith.cmpi ule, %{{.+}}, %c64 : index
// CHECK: gpu.return
func.func @tiers(%x: tensor<?x?x?xbf16>) -> tensor<?x?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 256, rows = 1, vector = 8, chunks = 16>, #softmax.strategy<strided_axis, lanes = 32, rows = 4, vector = 8, chunks = 16>, #softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 8, chunks = 4>]} : tensor<?x?x?xbf16> -> tensor<?x?x?xbf16>
  return %0 : tensor<?x?x?xbf16>
}

// -----

// The tier of C = 8 (64 values a thread held packed) takes the static plan's 80 registers,
// three blocks of 256 a multiprocessor; past 64 values a tier takes one register more for
// every 8 values (TargetInfo.h, getPackedStridedAxisRegisters).
// CHECK-LABEL: gpu.func @tiers_c8_0_strided_axis_c8(
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, nvvm.maxnreg = 80 : i32
// CHECK-LABEL: gpu.func @tiers_c8_0_strided_axis_c16(
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, nvvm.maxnreg = 128 : i32
func.func @tiers_c8(%x: tensor<?x?x?xbf16>) -> tensor<?x?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 256, rows = 1, vector = 8, chunks = 8>, #softmax.strategy<strided_axis, lanes = 256, rows = 1, vector = 8, chunks = 16>, #softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 8, chunks = 4>]} : tensor<?x?x?xbf16> -> tensor<?x?x?xbf16>
  return %0 : tensor<?x?x?xbf16>
}

// -----

// An f32 log_softmax of 64 values a thread takes the softmax's budget, two blocks of 256 a
// multiprocessor (255 before: one); over a dynamic inner size, with no prologue, 120.
// CHECK-LABEL: gpu.func @log_registers_0_strided_axis(
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, nvvm.maxnreg = 128 : i32
// CHECK-LABEL: gpu.func @log_dynamic_inner_0_strided_axis(
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, nvvm.maxnreg = 120 : i32
func.func @log_registers(%x: tensor<32x512x4096xf32>) -> tensor<32x512x4096xf32> {
  %0 = softmax.fused log_softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16>]} : tensor<32x512x4096xf32> -> tensor<32x512x4096xf32>
  return %0 : tensor<32x512x4096xf32>
}
func.func @log_dynamic_inner(%x: tensor<?x64x?xf32>) -> tensor<?x64x?xf32> {
  %0 = softmax.fused log_softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 64, rows = 4, vector = 4, chunks = 16>]} : tensor<?x64x?xf32> -> tensor<?x64x?xf32>
  return %0 : tensor<?x64x?xf32>
}

// -----

// A tier after a positive constant scale holds its 128 values a thread packed, and a chunk that
// may pass C loads -inf there as raw words (-inf times 0.125 is -inf: FusedOp::
// prologueKeepsNegInf), so that no use selects; after a negative factor (-inf would turn +inf)
// the tier holds f32 values (a lean tier: -inf selected after the scale).
// CHECK-LABEL: gpu.func @tiers_scaled_0_strided_axis_c4096(
// CHECK-SAME: nvvm.maxnreg = 128
// CHECK-NOT: memref.reinterpret_cast
// CHECK: vector.load {{.*}} vector<8xbf16>
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } else {
// CHECK-NEXT: arith.constant dense<0xFF80> : vector<8xbf16>
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @tiers_negative_0_strided_axis_c4096(
// CHECK: memref.reinterpret_cast
// CHECK-NOT: dense<0xFF80> : vector<8xbf16>
// CHECK: arith.mulf {{.*}} : f32
// CHECK-NOT: dense<0xFF80> : vector<8xbf16>
// CHECK: gpu.return
func.func @tiers_scaled(%x: tensor<?x?x?xbf16>) -> tensor<?x?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<0.125>] {strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 256, vector = 8, chunks = 16>, #softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 8, chunks = 4>]} : tensor<?x?x?xbf16> -> tensor<?x?x?xbf16>
  return %0 : tensor<?x?x?xbf16>
}
func.func @tiers_negative(%x: tensor<?x?x?xbf16>) -> tensor<?x?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<-0.125>] {strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 256, vector = 8, chunks = 16>, #softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 8, chunks = 4>]} : tensor<?x?x?xbf16> -> tensor<?x?x?xbf16>
  return %0 : tensor<?x?x?xbf16>
}

// -----

// After a scale by a scalar (its sign known at the call only) a tier of f32 values is launched
// for any factor; one that holds 16-bit values packed (to an f32 result), a chunk past C loaded
// as -inf, which only a positive factor keeps -inf, where the factor as the kernels read it (in
// f32) is positive too (AxisKernel.cpp, launchesForPositiveScalars): an f64 factor rounded to
// f32 first (1e-50 is zero there). A NaN factor fails the ordered compare.
// CHECK-LABEL: func.func @tiers_scaled_by(
// CHECK: %[[FITS1024:.+]] = arith.cmpi ule, %[[C:.+]], %c1024 : index
// CHECK: %[[RUN1024:.+]] = arith.andi %[[FITS1024]], %[[VEC:.+]] : i1
// CHECK-NOT: arith.cmpf
// CHECK: scf.if %[[RUN1024]] {
// CHECK: gpu.launch_func @softmax_kernels::@tiers_scaled_by_0_strided_axis_c1024
// CHECK: } else {
// CHECK: %[[FITS2048:.+]] = arith.cmpi ule, %[[C]], %c2048 : index
// CHECK: %[[ALIGNED:.+]] = arith.andi %[[FITS2048]], %[[VEC]] : i1
// CHECK: %[[NARROW:.+]] = arith.truncf %[[T:.+]] : f64 to f32
// CHECK: %[[POSITIVE:.+]] = arith.cmpf ogt, %[[NARROW]], %{{.+}} : f32
// CHECK: %[[RUN2048:.+]] = arith.andi %[[ALIGNED]], %[[POSITIVE]] : i1
// CHECK: scf.if %[[RUN2048]] {
// CHECK: gpu.launch_func @softmax_kernels::@tiers_scaled_by_0_strided_axis_c2048
// CHECK: } else {
// CHECK: %[[FITS4096:.+]] = arith.cmpi ule, %[[C]], %c4096 : index
// CHECK: %[[ALIGNED4096:.+]] = arith.andi %[[FITS4096]], %[[VEC]] : i1
// CHECK: %[[RUN4096:.+]] = arith.andi %[[ALIGNED4096]], %[[POSITIVE]] : i1
// CHECK: scf.if %[[RUN4096]] {
// CHECK: gpu.launch_func @softmax_kernels::@tiers_scaled_by_0_strided_axis_c4096
// CHECK: } else {
// CHECK: gpu.launch_func @softmax_kernels::@tiers_scaled_by_0_strided_axis blocks
// CHECK-LABEL: gpu.func @tiers_scaled_by_0_strided_axis_c1024(
// CHECK-NOT: dense<0xFF80>
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @tiers_scaled_by_0_strided_axis_c2048(
// CHECK-SAME: nvvm.maxnreg = 128
// CHECK: vector.load {{.*}} vector<4xbf16>
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } else {
// CHECK-NEXT: arith.constant dense<0xFF80> : vector<4xbf16>
// CHECK: gpu.return
func.func @tiers_scaled_by(%x: tensor<?x?x?xbf16>, %t: f64) -> tensor<?x?x?xf32> {
  %0 = softmax.fused softmax %x (%t : f64) axis = 1 prologue [#softmax.scale_by<0>] {strategies = [#softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 4, chunks = 16>, #softmax.strategy<strided_axis, lanes = 8, rows = 64, vector = 4, chunks = 32>, #softmax.strategy<strided_axis, lanes = 4, rows = 128, vector = 4, chunks = 32>, #softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 8>]} : tensor<?x?x?xbf16> -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

// A dynamic C's tier of packed 16-bit values over a cluster (rule 6) takes 112 registers, the
// same two blocks of 256 a multiprocessor as 128, at which such tiers spilled (buildAxisKernel);
// its one-block tier before it keeps every register its occupancy leaves.
// CHECK-LABEL: func.func @tiers_cluster(
// CHECK: gpu.launch_func @softmax_kernels::@tiers_cluster_0_strided_axis_c8192 clusters in (%c4
// CHECK-LABEL: gpu.func @tiers_cluster_0_strided_axis_c4096(
// CHECK-SAME: nvvm.maxnreg = 128
// CHECK-LABEL: gpu.func @tiers_cluster_0_strided_axis_c8192(
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, nvvm.maxnreg = 112
func.func @tiers_cluster(%x: tensor<?x?x?xbf16>) -> tensor<?x?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 256, vector = 8, chunks = 16>, #softmax.strategy<strided_axis, lanes = 2, rows = 128, vector = 8, chunks = 16, cluster = 4>, #softmax.strategy<strided_axis, lanes = 4, rows = 64, vector = 8, chunks = 4>]} : tensor<?x?x?xbf16> -> tensor<?x?x?xbf16>
  return %0 : tensor<?x?x?xbf16>
}

// -----

// The tiers of a dynamic f32 C are lean (column views), and a tier knows that C is past the
// capacity of the tiers before it (8 here): chunks 0 and 1 of the tier of 16 (4 rows) are in
// the axis, chunks 2 and 3 may pass C. Those load the thread's last chunk in the axis where they
// do, with no branch ((C - 1 - row) / 4, the minimum of it and the chunk), and mask the values;
// their stores compare C. The general plan's kernel keeps its four-index accesses.
// CHECK-LABEL: gpu.func @tiers_f32_0_strided_axis(
// CHECK-NOT: memref.reinterpret_cast
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @tiers_f32_0_strided_axis_c8(
// CHECK-NOT: arith.minui
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @tiers_f32_0_strided_axis_c16(
// CHECK: %[[ROW:.+]] = arith.divui %thread_id_x
// CHECK: %[[C:.+]] = memref.dim %arg0, %c1
// CHECK: %[[XC:.+]] = memref.reinterpret_cast %arg0 to offset: [%{{.+}}], sizes: [%[[C]], 4]
// CHECK: %[[YC:.+]] = memref.reinterpret_cast %arg1
// CHECK: %[[CM1:.+]] = arith.subi %[[C]], %c1
// CHECK: %[[LEFT:.+]] = arith.subi %[[CM1]], %[[ROW]] : index
// CHECK: %[[LAST:.+]] = arith.divui %[[LEFT]], %c4
// CHECK-NOT: scf.if
// CHECK: vector.load %[[XC]][%c0
// CHECK-NOT: scf.if
// CHECK: vector.load %[[XC]][%c1
// CHECK-NOT: scf.if
// CHECK: %[[AT2:.+]] = arith.minui %c2{{.*}}, %[[LAST]] : index
// CHECK: %[[X2:.+]] = vector.load %[[XC]][%[[AT2]], %c0
// CHECK: %[[IN2:.+]] = arith.cmpi ule, %c2{{.*}}, %[[LAST]] : index
// CHECK: arith.select %[[IN2]], %{{.+}}, %cst
// CHECK: %[[AT3:.+]] = arith.minui %c3{{.*}}, %[[LAST]] : index
// CHECK: vector.load %[[XC]][%[[AT3]], %c0
// CHECK: gpu.barrier
// CHECK: vector.store %{{.+}}, %[[YC]][%c0
// CHECK: vector.store %{{.+}}, %[[YC]][%c1
// CHECK: %[[STORE2:.+]] = arith.cmpi ult, %{{.+}}, %[[C]] : index
// CHECK: %[[GUARD2:.+]] = arith.andi %[[STORE2]]
// CHECK: scf.if %[[GUARD2]]
// CHECK: vector.store %{{.+}}, %[[YC]][%c2
// CHECK: gpu.return
func.func @tiers_f32(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 64, rows = 4, vector = 4, chunks = 2>, #softmax.strategy<strided_axis, lanes = 64, rows = 4, vector = 4, chunks = 4>, #softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 8>]} : tensor<?x?x?xf32> -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

// A column over a cluster (C = 4096 over 8 blocks of 512 axis values): the vector kernel's grid
// is 8 blocks a plan block, launched in clusters of 8; each block takes the slice of its rank
// (block % 8), and the blocks merge their columns' (max, sum) pairs through distributed shared
// memory (the exchange, 4 * lanes * vector slots beside the rows' reduction slots): row 0 of
// each block reads the 8 blocks' pairs (mapa), between cluster barriers; the kernel ends with
// the wait of the last arrival. The scalar kernel has one block a column (no cluster).
// CHECK-LABEL: func.func @cluster
// CHECK: %[[COLUMNS:.+]] = arith.ceildivui %{{.+}}, %c32 : index
// CHECK: %[[GRID:.+]] = arith.muli %{{.+}}, %[[COLUMNS]] : index
// CHECK: %[[CLUSTERGRID:.+]] = arith.muli %[[GRID]], %c8{{.*}} : index
// CHECK: gpu.launch_func  @softmax_kernels::@cluster_0_strided_axis clusters in (%c8{{.*}}, %c1{{.*}}, %c1{{.*}}) blocks in (%[[CLUSTERGRID]], %{{.+}}, %{{.+}}) threads in (%c256,
// CHECK: } else {
// CHECK: gpu.launch_func  @softmax_kernels::@cluster_0_strided_axis_scalar blocks in (%[[GRID]],

// CHECK-LABEL: gpu.func @cluster_0_strided_axis(
// CHECK-SAME: workgroup(%{{.+}} : memref<512xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[EXCHANGE:.+]] : memref<128xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: %[[BLOCK:.+]] = gpu.block_id x
// CHECK: %[[RANK:.+]] = arith.remui %[[BLOCK]], %c8{{.*}} : index
// CHECK: arith.divui %[[BLOCK]], %c8{{.*}} : index
// CHECK: %[[SLICE:.+]] = arith.muli %[[RANK]], %c512 : index
// CHECK: arith.addi %{{.+}}, %[[SLICE]] : index
// CHECK: memref.store %{{.+}}, %[[EXCHANGE]]
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK: memref.extract_aligned_pointer_as_index %[[EXCHANGE]]
// CHECK-COUNT-8: nvvm.mapa %{{.+}}, %c{{[0-7]}}_i32
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: gpu.barrier
// CHECK: memref.load %[[EXCHANGE]]
// CHECK: nvvm.cluster.wait {aligned}
// CHECK-NEXT: gpu.return

// CHECK-LABEL: gpu.func @cluster_0_strided_axis_scalar(
// CHECK-NOT: nvvm.cluster
// CHECK: gpu.return
func.func @cluster(%x: tensor<4x4096x1024xf32>) -> tensor<4x4096x1024xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 8>]} : tensor<4x4096x1024xf32> -> tensor<4x4096x1024xf32>
  return %0 : tensor<4x4096x1024xf32>
}

// -----

// A log_softmax after a scale by a scalar over a cluster: the budget of 64 values without the
// extras one block's kernel takes for a log_softmax and a prologue (the normalisation
// computes each value again from the cluster's max; TargetInfo.h, getStridedAxisRegisters'
// `overCluster`), so two blocks of 256 a multiprocessor (128 registers, not 255: one block
// alone waited at the cluster barriers). The scalar kernel, one block a column, keeps its 255.
// CHECK-LABEL: gpu.func @cluster_log_scaled_0_strided_axis(
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, nvvm.maxnreg = 128 : i32
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-LABEL: gpu.func @cluster_log_scaled_0_strided_axis_scalar(
// CHECK-SAME: nvvm.maxnreg = 255 : i32
func.func @cluster_log_scaled(%x: tensor<4x4096x1024xf32>, %t: f32) -> tensor<4x4096x1024xf32> {
  %0 = softmax.fused log_softmax %x (%t : f32) axis = 1 prologue [#softmax.scale_by<0>] {strategies = [#softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 8>]} : tensor<4x4096x1024xf32> -> tensor<4x4096x1024xf32>
  return %0 : tensor<4x4096x1024xf32>
}
