// The fast kernel of a pipelined (16-bit) register plan gets the budget of 24 warps a
// multiprocessor (80 registers for blocks of 256 threads, 64 for 512), where ptxas fits it
// without spilling (ptxas-no-spills*.mlir); its general kernel, f32 plans, plans with side
// operands along the row and the dynamic tiers that spill at that budget keep the plan's.
// RUN: softmax-opt %s --softmax-lower-to-gpu | FileCheck %s

// CHECK-LABEL: gpu.func @bf16_256_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 80 : i32
// CHECK-LABEL: gpu.func @bf16_256_0_row_registers_general(
// CHECK-SAME: nvvm.maxnreg = 120 : i32
func.func @bf16_256(%x: tensor<4096x8192xbf16>) -> tensor<4096x8192xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 8, chunks = 4>]} : tensor<4096x8192xbf16> -> tensor<4096x8192xbf16>
  return %0 : tensor<4096x8192xbf16>
}

// CHECK-LABEL: gpu.func @f16_512_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 64 : i32
// CHECK-LABEL: gpu.func @f16_512_0_row_registers_general(
// CHECK-SAME: nvvm.maxnreg = 120 : i32
func.func @f16_512(%x: tensor<4096x16384xf16>) -> tensor<4096x16384xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 4>]} : tensor<4096x16384xf16> -> tensor<4096x16384xf16>
  return %0 : tensor<4096x16384xf16>
}

// The causal attention chain: the mask keeps the cap (no side operand).
// CHECK-LABEL: gpu.func @causal_0_multi_row(
// CHECK-SAME: nvvm.maxnreg = 80 : i32
func.func @causal(%x: tensor<256x1024x1024xbf16>) -> tensor<256x1024x1024xbf16> {
  %0 = softmax.fused softmax %x axis = 2 prologue [#softmax.scale<0.088388>, #softmax.mask<causal, fill = 0xFFF0000000000000>] {strategies = [#softmax.strategy<multi_row, lanes = 32, rows = 8, vector = 8, chunks = 4>]} : tensor<256x1024x1024xbf16> -> tensor<256x1024x1024xbf16>
  return %0 : tensor<256x1024x1024xbf16>
}

// f32 is not pipelined: its plan's budget (measured: capping it lost up to 0.37x copy).
// CHECK-LABEL: gpu.func @f32_512_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 96 : i32
func.func @f32_512(%x: tensor<4096x16384xf32>) -> tensor<4096x16384xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 4, chunks = 8>]} : tensor<4096x16384xf32> -> tensor<4096x16384xf32>
  return %0 : tensor<4096x16384xf32>
}

// A bias along the row: not capped.
// CHECK-LABEL: gpu.func @bias_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 136 : i32
func.func @bias(%x: tensor<4096x8192xbf16>, %b: tensor<1x8192xbf16>) -> tensor<4096x8192xbf16> {
  %0 = softmax.fused softmax %x(%b : tensor<1x8192xbf16>) axis = 1 prologue [#softmax.bias<0>] {strategies = [#softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 8, chunks = 4>]} : tensor<4096x8192xbf16> -> tensor<4096x8192xbf16>
  return %0 : tensor<4096x8192xbf16>
}

// Dynamic widths: a 256-thread tier of one row a block is capped; a 512-thread tier and one of
// two rows a block over 4 warps each are not (their tests a chunk stay live and they spill at
// the cap), but each of those gets a Full kernel for rows exactly as wide as its span, which
// is capped (its tests fold away, as in the static kernel of that width). The capped tier
// gets one too, at its cap: its fast kernel takes its lanes from the launch.
// CHECK-LABEL: gpu.func @dynamic_0_row_registers_0(
// CHECK-SAME: nvvm.maxnreg = 120 : i32
// CHECK-LABEL: gpu.func @dynamic_0_row_registers_0_full(
// CHECK-SAME: nvvm.maxnreg = 80 : i32
// CHECK-LABEL: gpu.func @dynamic_0_row_registers_0_general(
// CHECK-SAME: nvvm.maxnreg = 120 : i32
// CHECK-LABEL: gpu.func @dynamic_0_row_registers_1(
// CHECK-SAME: nvvm.maxnreg = 80 : i32
// CHECK-LABEL: gpu.func @dynamic_0_row_registers_1_full(
// CHECK-SAME: nvvm.maxnreg = 80 : i32
// CHECK-LABEL: gpu.func @dynamic_0_row_registers_2(
// CHECK-SAME: nvvm.maxnreg = 120 : i32
// CHECK-LABEL: gpu.func @dynamic_0_row_registers_2_full(
// CHECK-SAME: nvvm.maxnreg = 64 : i32
// CHECK-NOT: gpu.func @dynamic_0_chunked_online_3_full(
func.func @dynamic(%x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 128, rows = 2, vector = 8, chunks = 4>, #softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 8, chunks = 4>, #softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 4>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]} : tensor<?x?xbf16> -> tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}

// log_softmax on 512 threads keeps its budget (ptxas spilled 28 bytes at 64).
// CHECK-LABEL: gpu.func @log_512_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 120 : i32
func.func @log_512(%x: tensor<4096x16384xbf16>) -> tensor<4096x16384xbf16> {
  %0 = softmax.fused log_softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 4>]} : tensor<4096x16384xbf16> -> tensor<4096x16384xbf16>
  return %0 : tensor<4096x16384xbf16>
}

// log_softmax on 256 threads takes the cap (ptxas: no spill at 80).
// CHECK-LABEL: gpu.func @log_256_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 80 : i32
func.func @log_256(%x: tensor<4096x8192xbf16>) -> tensor<4096x8192xbf16> {
  %0 = softmax.fused log_softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 8, chunks = 4>]} : tensor<4096x8192xbf16> -> tensor<4096x8192xbf16>
  return %0 : tensor<4096x8192xbf16>
}

// A static width short of a 512-thread span keeps its budget too (ptxas: 16000 columns on
// 512 x 32 spilled 16 bytes at 64); at the span it is capped (@f16_512 above).
// CHECK-LABEL: gpu.func @partial_512_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 120 : i32
func.func @partial_512(%x: tensor<4096x16000xbf16>) -> tensor<4096x16000xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 4>]} : tensor<4096x16000xbf16> -> tensor<4096x16000xbf16>
  return %0 : tensor<4096x16000xbf16>
}

// One vector of 8 a thread: 64 warps a multiprocessor (32 registers for blocks of 256 threads).
// CHECK-LABEL: gpu.func @eight_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 32 : i32
func.func @eight(%x: tensor<131072x1024xbf16>) -> tensor<131072x1024xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 128, rows = 2, vector = 8, chunks = 1>]} : tensor<131072x1024xbf16> -> tensor<131072x1024xbf16>
  return %0 : tensor<131072x1024xbf16>
}

// Sixteen values on 512 threads: 48 warps (40 registers).
// CHECK-LABEL: gpu.func @sixteen_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 40 : i32
func.func @sixteen(%x: tensor<16384x8192xbf16>) -> tensor<16384x8192xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 2>]} : tensor<16384x8192xbf16> -> tensor<16384x8192xbf16>
  return %0 : tensor<16384x8192xbf16>
}

// An f32 result of a 16-bit input keeps the plan's budget (ptxas spilled such kernels at the
// targets: generated seeds 18 and 31).
// CHECK-LABEL: gpu.func @wide_result_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 80 : i32
// CHECK-LABEL: gpu.func @wide_result_0_row_registers_general(
// CHECK-SAME: nvvm.maxnreg = 80 : i32
func.func @wide_result(%x: tensor<131072x1024xbf16>) -> tensor<131072x1024xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 128, rows = 2, vector = 8, chunks = 1>]} : tensor<131072x1024xbf16> -> tensor<131072x1024xf32>
  return %0 : tensor<131072x1024xf32>
}

// A mask with a finite fill (no read limit: every kept element compared and selected) keeps the
// plan's budget (ptxas spilled such kernels at the targets: generated seed 124).
// CHECK-LABEL: gpu.func @finite_fill_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 80 : i32
func.func @finite_fill(%x: tensor<131072x1024xbf16>, %len: tensor<131072xi32>) -> tensor<131072x1024xbf16> {
  %0 = softmax.fused softmax %x(%len : tensor<131072xi32>) axis = 1 prologue [#softmax.mask<padding, operand = 0, fill = -1.000000e+04>] {strategies = [#softmax.strategy<row_registers, lanes = 128, rows = 2, vector = 8, chunks = 1>]} : tensor<131072x1024xbf16> -> tensor<131072x1024xbf16>
  return %0 : tensor<131072x1024xbf16>
}

// Blocks of whole warps that do not divide the 64-warp target: 384 threads take 5 blocks (60
// warps, 32 registers), not 6 (which would need 28). With several rows a block the plan keeps
// its budget (96 lanes x 2 rows spilled 4 bytes at 32).
// CHECK-LABEL: gpu.func @bf16_384_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 32 : i32
func.func @bf16_384(%x: tensor<44739x3000xbf16>) -> tensor<44739x3000xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 384, rows = 1, vector = 8, chunks = 1>]} : tensor<44739x3000xbf16> -> tensor<44739x3000xbf16>
  return %0 : tensor<44739x3000xbf16>
}

// CHECK-LABEL: gpu.func @bf16_96x2_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 80 : i32
func.func @bf16_96x2(%x: tensor<223696x600xbf16>) -> tensor<223696x600xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 96, rows = 2, vector = 8, chunks = 1>]} : tensor<223696x600xbf16> -> tensor<223696x600xbf16>
  return %0 : tensor<223696x600xbf16>
}

// Three vectors a thread keep the 24-warp target (64 registers at 512 threads) even where the
// last chunk is partial (12000 of 12288 columns): ptxas fits them with their tests live.
// CHECK-LABEL: gpu.func @bf16_512x24_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 64 : i32
func.func @bf16_512x24(%x: tensor<11184x12000xbf16>) -> tensor<11184x12000xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 3>]} : tensor<11184x12000xbf16> -> tensor<11184x12000xbf16>
  return %0 : tensor<11184x12000xbf16>
}

// An elastic tier of 16 values a thread (512 lanes at most, 9-16 warps launched) gets 48
// registers: 36 warps a multiprocessor in the 384-thread blocks of 5633-6144 columns, where
// the plan's budget of 64 held 24; its Full kernel (512 lanes, tests folded) keeps the 48-warp
// target. An f32 tier of the same shape is not pipelined and keeps the plan's budget.
// CHECK-LABEL: gpu.func @elastic16_0_row_registers_0(
// CHECK-SAME: nvvm.maxnreg = 48 : i32
// CHECK-LABEL: gpu.func @elastic16_0_row_registers_0_full(
// CHECK-SAME: nvvm.maxnreg = 40 : i32
// CHECK-LABEL: gpu.func @elastic16_0_row_registers_0_general(
// CHECK-SAME: nvvm.maxnreg = 96 : i32
func.func @elastic16(%x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 2>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]} : tensor<?x?xbf16> -> tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}

// CHECK-LABEL: gpu.func @elastic16_f32_0_row_registers_0(
// CHECK-SAME: nvvm.maxnreg = 72 : i32
func.func @elastic16_f32(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 4, chunks = 4>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 4, chunks = 4>]} : tensor<?x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// The general kernel on vectors of 4 (16-bit rows off the 8-byte boundary: a static odd width,
// a dynamic tier's last alternative) gets 48 registers, which ptxas fits without spilling
// (ptxas-no-spills-dynamic.mlir), where its budget of 96 let it take 66-72 (3 blocks of 256
// threads a multiprocessor). Not on the 16-byte vector, nor for log_softmax.
// CHECK-LABEL: gpu.func @general4_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 48 : i32
func.func @general4(%x: tensor<4096x3001xbf16>) -> tensor<4096x3001xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 4, chunks = 4>]} : tensor<4096x3001xbf16> -> tensor<4096x3001xbf16>
  return %0 : tensor<4096x3001xbf16>
}

// CHECK-LABEL: gpu.func @general8_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 80 : i32
func.func @general8(%x: tensor<4096x3001xbf16>) -> tensor<4096x3001xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 1>]} : tensor<4096x3001xbf16> -> tensor<4096x3001xbf16>
  return %0 : tensor<4096x3001xbf16>
}

// CHECK-LABEL: gpu.func @general4_log_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 96 : i32
func.func @general4_log(%x: tensor<4096x3001xbf16>) -> tensor<4096x3001xbf16> {
  %0 = softmax.fused log_softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 4, chunks = 4>]} : tensor<4096x3001xbf16> -> tensor<4096x3001xbf16>
  return %0 : tensor<4096x3001xbf16>
}

// One vector of 8 a thread on 64 lanes or more: 64 warps (32 registers) without a prologue,
// 48 (40) with a step, whose operands ptxas kept beside the partial row's tests (12 bytes of
// spill at 32: generated seeds 1362, 1397, 1508, 1541). The Full kernel folds the tests away.
// CHECK-LABEL: gpu.func @scaled8_0_row_registers_0(
// CHECK-SAME: nvvm.maxnreg = 40 : i32
// CHECK-LABEL: gpu.func @scaled8_0_row_registers_0_full(
// CHECK-SAME: nvvm.maxnreg = 32 : i32
func.func @scaled8(%x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<0.125>] {strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 4, vector = 8, chunks = 1>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]} : tensor<?x?xbf16> -> tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}

// CHECK-LABEL: gpu.func @plain8_0_row_registers_0(
// CHECK-SAME: nvvm.maxnreg = 32 : i32
func.func @plain8(%x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 4, vector = 8, chunks = 1>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]} : tensor<?x?xbf16> -> tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}

// Sixteen values beside a mask and a scalar factor: 48 (4 bytes of spill at 40, seed 1362).
// CHECK-LABEL: gpu.func @mask_factor16_0_row_registers_0(
// CHECK-SAME: nvvm.maxnreg = 48 : i32
func.func @mask_factor16(%x: tensor<?x?xbf16>, %m: tensor<1xi1>, %s: f32) -> tensor<?x?xbf16> {
  %0 = softmax.fused softmax %x(%m, %s : tensor<1xi1>, f32) axis = 1 prologue [#softmax.mask<tensor, operand = 0, fill = 0xFFF0000000000000>, #softmax.scale_by<1>] {strategies = [#softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 4, chunks = 4>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]} : tensor<?x?xbf16> -> tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}

// log_softmax of 32 values under a limiting mask and a scalar factor keeps its plan's budget,
// 8 more for the prologue's state (FusedOp::getPrologueStateRegisters), and no Full kernel at
// the 24-warp target, where it spilled 4-20 bytes (generated seeds 469 and 1291).
// CHECK-LABEL: gpu.func @log_limit_factor32_0_row_registers_0(
// CHECK-SAME: nvvm.maxnreg = 128 : i32
// CHECK-NOT: gpu.func @log_limit_factor32_0_row_registers_0_full(
// CHECK-LABEL: gpu.func @log_limit_factor32_0_row_registers_0_general(
func.func @log_limit_factor32(%x: tensor<?x?xf16>, %l: tensor<?xi64>, %s: f32) -> tensor<?x?xf16> {
  %0 = softmax.fused log_softmax %x(%l, %s : tensor<?xi64>, f32) axis = 1 prologue [#softmax.mask<padding, operand = 0, fill = 0xFFF0000000000000>, #softmax.scale_by<1>] {strategies = [#softmax.strategy<row_registers, lanes = 128, rows = 2, vector = 8, chunks = 4>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]} : tensor<?x?xf16> -> tensor<?x?xf16>
  return %0 : tensor<?x?xf16>
}

// The general kernel of a static width held packed over a cluster: 8 more than its fast
// kernel for the edge columns (8 bytes of spill at 80: generated seed 1118), and 8 more again
// where 88 leaves two blocks of 256 threads a multiprocessor anyway (8 bytes of spill at 88
// at 60000 columns: generated seed 8822).
// CHECK-LABEL: gpu.func @packed_general_0_row_cluster(
// CHECK-SAME: nvvm.maxnreg = 80 : i32
// CHECK-LABEL: gpu.func @packed_general_0_row_cluster_general(
// CHECK-SAME: nvvm.maxnreg = 96 : i32
func.func @packed_general(%x: tensor<64x57856xbf16>) -> tensor<64x57856xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 8, chunks = 8, cluster = 4>]} : tensor<64x57856xbf16> -> tensor<64x57856xf16>
  return %0 : tensor<64x57856xf16>
}

// Two masks with finite fills: 8 more for the prologue's state (12 bytes of spill without it:
// generated seed 683); 32 values beside the boolean mask's 32 bits, 2 rows' edge columns, and
// the mask's address for each of a thread's 8 edge columns (16; generated seed 3117).
// CHECK-LABEL: gpu.func @two_finite_fills_0_multi_row_0(
// CHECK-SAME: nvvm.maxnreg = 216 : i32
func.func @two_finite_fills(%x: tensor<?x?xbf16>, %m: tensor<?x?xi1>, %l: tensor<?xi64>) -> tensor<?x?xbf16> {
  %0 = softmax.fused softmax %x(%m, %l : tensor<?x?xi1>, tensor<?xi64>) axis = 1 prologue [#softmax.mask<tensor, operand = 0, fill = -3.0e+04>, #softmax.mask<padding, operand = 1, fill = 0.0>] {strategies = [#softmax.strategy<multi_row, lanes = 2, rows = 128, vector = 8, chunks = 4>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]} : tensor<?x?xbf16> -> tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}

// A hand-written 16-bit plan on vectors of 2 (4 bytes) keeps its budget: an address a load,
// 12-16 bytes of spill at the 40 and 48 of the targets (generated seed 2133).
// CHECK-LABEL: gpu.func @narrow_vector_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 96 : i32
// CHECK-LABEL: gpu.func @narrow_vector_0_row_registers_general(
// CHECK-SAME: nvvm.maxnreg = 96 : i32
func.func @narrow_vector(%x: tensor<4096x1024xbf16>) -> tensor<4096x1024xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<0.125>] {strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 8, vector = 2, chunks = 8>]} : tensor<4096x1024xbf16> -> tensor<4096x1024xbf16>
  return %0 : tensor<4096x1024xbf16>
}

// Sixteen values on 288 threads: 6 blocks would leave 32 registers (ptxas spilled 48 bytes and
// bf16 4608 ran at 0.71x copy there); 5 blocks leave 40 (0.97x; narrow16.txt in
// bench/results/2026-12-02-h200).
// CHECK-LABEL: gpu.func @sixteen_on_288_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 40 : i32
func.func @sixteen_on_288(%x: tensor<4096x4608xbf16>) -> tensor<4096x4608xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 288, rows = 1, vector = 8, chunks = 2>]} : tensor<4096x4608xbf16> -> tensor<4096x4608xbf16>
  return %0 : tensor<4096x4608xbf16>
}

// A bias of one value a row over a rank-4 input: the row's indices and the bias's address take
// 8 more than the 16-bit targets (48, and the Full kernel's 64): 8-20 bytes of spill without
// them (generated seeds 4287, 4415). Not over a rank-2 input, whose row is the bias's index.
// CHECK-LABEL: gpu.func @row_bias_rank4_0_row_registers_0(
// CHECK-SAME: nvvm.maxnreg = 56 : i32
// CHECK-LABEL: gpu.func @row_bias_rank4_0_row_registers_0_full(
// CHECK-SAME: nvvm.maxnreg = 72 : i32
// CHECK-LABEL: gpu.func @row_bias_rank2_0_row_registers_0(
// CHECK-SAME: nvvm.maxnreg = 48 : i32
// CHECK-LABEL: gpu.func @row_bias_rank2_0_row_registers_0_full(
// CHECK-SAME: nvvm.maxnreg = 64 : i32
func.func @row_bias_rank4(%x: tensor<17x5x17x?xf16>, %b: tensor<17x5x17x1xf16>) -> tensor<17x5x17x?xbf16> {
  %0 = softmax.fused softmax %x(%b : tensor<17x5x17x1xf16>) axis = 3 prologue [#softmax.bias<0>] {strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 2>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]} : tensor<17x5x17x?xf16> -> tensor<17x5x17x?xbf16>
  return %0 : tensor<17x5x17x?xbf16>
}
func.func @row_bias_rank2(%x: tensor<?x?xf16>, %b: tensor<?x1xf16>) -> tensor<?x?xbf16> {
  %0 = softmax.fused softmax %x(%b : tensor<?x1xf16>) axis = 1 prologue [#softmax.bias<0>] {strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 2>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]} : tensor<?x?xf16> -> tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}

// Several rows a block beside a step with an operand: the 16-bit general kernel on vectors of
// 4 takes 56, not 48 (4 bytes of spill at 48: generated seed 3497, a bias of one element).
// CHECK-LABEL: gpu.func @gen_3497_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 56 : i32
func.func @gen_3497(%x: tensor<8x8x16x513xbf16>, %a1: tensor<1xbf16>) -> tensor<8x8x16x513xbf16> {
  %y = softmax.fused softmax %x (%a1 : tensor<1xbf16>) axis = 3 prologue [#softmax.bias<0>] masked_rows = zero {strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 2, vector = 4, chunks = 4>]} : tensor<8x8x16x513xbf16> -> tensor<8x8x16x513xbf16>
  return %y : tensor<8x8x16x513xbf16>
}

// Several rows of two warps or more in blocks of 512 threads or more, on one vector of 8, take
// the blocks that leave 40 registers, not 32 (4-12 bytes of spill at 32: generated seed 5364,
// 128 lanes x 8 rows of 1024 f16 columns, whose one block of 1024 threads then takes 64).
// Blocks of 256 threads keep 32.
// CHECK-LABEL: gpu.func @gen_5364_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 64 : i32
func.func @gen_5364(%x: tensor<1024xf16>) -> tensor<1024xbf16> {
  %y = softmax.fused log_softmax %x axis = 0 prologue [] masked_rows = zero {strategies = [#softmax.strategy<row_registers, lanes = 128, rows = 8, vector = 8, chunks = 1>]} : tensor<1024xf16> -> tensor<1024xbf16>
  return %y : tensor<1024xbf16>
}
// CHECK-LABEL: gpu.func @rows4_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 40 : i32
func.func @rows4(%x: tensor<64x1024xbf16>) -> tensor<64x1024xbf16> {
  %y = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 128, rows = 4, vector = 8, chunks = 1>]} : tensor<64x1024xbf16> -> tensor<64x1024xbf16>
  return %y : tensor<64x1024xbf16>
}
// CHECK-LABEL: gpu.func @rows2_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 32 : i32
func.func @rows2(%x: tensor<64x1024xbf16>) -> tensor<64x1024xbf16> {
  %y = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 128, rows = 2, vector = 8, chunks = 1>]} : tensor<64x1024xbf16> -> tensor<64x1024xbf16>
  return %y : tensor<64x1024xbf16>
}

// A rounding to f16 beside a scalar factor takes 8 more than the 32 of one vector of 8 (4 bytes
// of spill at 32 in every such tier: generated seed 5402); a rounding to bf16 keeps 32.
// CHECK-LABEL: gpu.func @round_f16_by_scalar_0_multi_row(
// CHECK-SAME: nvvm.maxnreg = 40 : i32
func.func @round_f16_by_scalar(%x: tensor<4096x256xf16>, %s: bf16) -> tensor<4096x256xbf16> {
  %y = softmax.fused softmax %x (%s : bf16) axis = 1 prologue [#softmax.scale_by<0>, #softmax.round<f16>] {strategies = [#softmax.strategy<multi_row, lanes = 32, rows = 8, vector = 8, chunks = 1>]} : tensor<4096x256xf16> -> tensor<4096x256xbf16>
  return %y : tensor<4096x256xbf16>
}
// CHECK-LABEL: gpu.func @round_bf16_by_scalar_0_multi_row(
// CHECK-SAME: nvvm.maxnreg = 32 : i32
func.func @round_bf16_by_scalar(%x: tensor<4096x256xf16>, %s: bf16) -> tensor<4096x256xbf16> {
  %y = softmax.fused softmax %x (%s : bf16) axis = 1 prologue [#softmax.scale_by<0>, #softmax.round<bf16>] {strategies = [#softmax.strategy<multi_row, lanes = 32, rows = 8, vector = 8, chunks = 1>]} : tensor<4096x256xf16> -> tensor<4096x256xbf16>
  return %y : tensor<4096x256xbf16>
}

// A step with an operand on 32 values keeps the 64 of the 24-warp target, though ptxas spills
// 4 bytes there (generated seed 4414): at the 72 that fit, one block of 512 threads ran bf16
// 8192x16384 at 0.857x copy against 0.920 with the spill (H200, operand16-f2360b9.txt).
// CHECK-LABEL: gpu.func @scalar_16384_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 64 : i32
func.func @scalar_16384(%x: tensor<64x16384xbf16>, %s: f32) -> tensor<64x16384xbf16> {
  %y = softmax.fused softmax %x (%s : f32) axis = 1 prologue [#softmax.scale_by<0>] {strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 4>]} : tensor<64x16384xbf16> -> tensor<64x16384xbf16>
  return %y : tensor<64x16384xbf16>
}
// CHECK-LABEL: gpu.func @scalar_12288_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 64 : i32
func.func @scalar_12288(%x: tensor<64x12288xbf16>, %s: f32) -> tensor<64x12288xbf16> {
  %y = softmax.fused softmax %x (%s : f32) axis = 1 prologue [#softmax.scale_by<0>] {strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 3>]} : tensor<64x12288xbf16> -> tensor<64x12288xbf16>
  return %y : tensor<64x12288xbf16>
}

// log_softmax of 16 values on vectors of 4 takes 48, not 40 (4-8 bytes of spill at 40:
// generated seed 6117, 64 lanes on 1000 bf16 columns); softmax there keeps 40.
// CHECK-LABEL: gpu.func @gen_6117_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 48 : i32
func.func @gen_6117(%x: tensor<?x1000xbf16>) -> tensor<?x1000xf16> {
  %y = softmax.fused log_softmax %x axis = 1 prologue [] masked_rows = zero {strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 1, vector = 4, chunks = 4>]} : tensor<?x1000xbf16> -> tensor<?x1000xf16>
  return %y : tensor<?x1000xf16>
}
// CHECK-LABEL: gpu.func @softmax_6117_0_row_registers(
// CHECK-SAME: nvvm.maxnreg = 40 : i32
func.func @softmax_6117(%x: tensor<?x1000xbf16>) -> tensor<?x1000xf16> {
  %y = softmax.fused softmax %x axis = 1 prologue [] masked_rows = zero {strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 1, vector = 4, chunks = 4>]} : tensor<?x1000xbf16> -> tensor<?x1000xf16>
  return %y : tensor<?x1000xf16>
}

// A side operand along the row beside another step (a bias and a scale) takes 8 more in a
// row_shared plan whose budget is past 64 already (generated seeds 7016 and 10373 spilled 12
// bytes at 72): one block of 512 threads a multiprocessor either way. With the bias alone the
// plan keeps its 72.
// CHECK-LABEL: gpu.func @shared_bias_scale_0_row_shared(
// CHECK-SAME: nvvm.maxnreg = 80 : i32
func.func @shared_bias_scale(%x: tensor<1024x16384xf16>, %b: tensor<16384xf32>) -> tensor<1024x16384xf32> {
  %0 = softmax.fused log_softmax %x(%b : tensor<16384xf32>) axis = 1 prologue [#softmax.bias<0>, #softmax.scale<10.0>] {strategies = [#softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 4, chunks = 8>]} : tensor<1024x16384xf16> -> tensor<1024x16384xf32>
  return %0 : tensor<1024x16384xf32>
}

// CHECK-LABEL: gpu.func @shared_bias_0_row_shared(
// CHECK-SAME: nvvm.maxnreg = 72 : i32
func.func @shared_bias(%x: tensor<1024x16384xf16>, %b: tensor<16384xf32>) -> tensor<1024x16384xf32> {
  %0 = softmax.fused log_softmax %x(%b : tensor<16384xf32>) axis = 1 prologue [#softmax.bias<0>] {strategies = [#softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 4, chunks = 8>]} : tensor<1024x16384xf16> -> tensor<1024x16384xf32>
  return %0 : tensor<1024x16384xf32>
}

// Not beside an f16 bias and a padding mask into f16 (the padded_log_softmax example's tier):
// ptxas takes what the budget leaves, and at 80 it used 66 registers where at 72 it used 61, one
// block of 512 threads a multiprocessor instead of two (8192 x 16384 in 276 us against 187 on
// the H100).
// CHECK-LABEL: gpu.func @shared_f16_bias_padding_0_row_shared(
// CHECK-SAME: nvvm.maxnreg = 72 : i32
func.func @shared_f16_bias_padding(%x: tensor<1024x16384xf16>, %b: tensor<16384xf16>, %n: tensor<1024xi32>) -> tensor<1024x16384xf16> {
  %0 = softmax.fused log_softmax %x(%b, %n : tensor<16384xf16>, tensor<1024xi32>) axis = 1 prologue [#softmax.bias<0>, #softmax.mask<padding, operand = 1, fill = 0xFFF0000000000000>] {strategies = [#softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 4, chunks = 8>]} : tensor<1024x16384xf16> -> tensor<1024x16384xf16>
  return %0 : tensor<1024x16384xf16>
}

// Not past a block's share: four f32 biases on 64 values a thread need 128, the most a block of
// 512 threads leaves; the 8 more would have rejected this plan.
// CHECK-LABEL: gpu.func @shared_four_biases_0_row_shared(
// CHECK-SAME: nvvm.maxnreg = 128 : i32
func.func @shared_four_biases(%x: tensor<64x16384xf32>, %b0: tensor<16384xf32>, %b1: tensor<16384xf32>, %b2: tensor<16384xf32>, %b3: tensor<16384xf32>) -> tensor<64x16384xf32> {
  %0 = softmax.fused softmax %x(%b0, %b1, %b2, %b3 : tensor<16384xf32>, tensor<16384xf32>, tensor<16384xf32>, tensor<16384xf32>) axis = 1 prologue [#softmax.bias<0>, #softmax.bias<1>, #softmax.bias<2>, #softmax.bias<3>] {strategies = [#softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 4, chunks = 16>]} : tensor<64x16384xf32> -> tensor<64x16384xf32>
  return %0 : tensor<64x16384xf32>
}

// Several rows a warp of 16 values (hand-written multi_row plans of fewer than 32 lanes; the
// selection's hold one vector of 8): the blocks that leave 48, not the 40 of 48 warps (generated
// seeds 8413 and 8447 spilled 8 bytes at 40). 256 threads: 5 blocks; 64 threads: 21.
// CHECK-LABEL: gpu.func @sub_warp_rows16_0_multi_row(
// CHECK-SAME: nvvm.maxnreg = 48 : i32
func.func @sub_warp_rows16(%x: tensor<64x128xbf16>) -> tensor<64x128xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<multi_row, lanes = 8, rows = 32, vector = 8, chunks = 2>]} : tensor<64x128xbf16> -> tensor<64x128xf16>
  return %0 : tensor<64x128xf16>
}

// CHECK-LABEL: gpu.func @sub_warp_rows16_small_0_multi_row(
// CHECK-SAME: nvvm.maxnreg = 48 : i32
func.func @sub_warp_rows16_small(%x: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<multi_row, lanes = 8, rows = 8, vector = 4, chunks = 4>]} : tensor<64x128xf16> -> tensor<64x128xf16>
  return %0 : tensor<64x128xf16>
}

// One vector of 8 on several rows a warp keeps the 32 of 64 warps.
// CHECK-LABEL: gpu.func @sub_warp_rows8_0_multi_row(
// CHECK-SAME: nvvm.maxnreg = 32 : i32
func.func @sub_warp_rows8(%x: tensor<64x128xbf16>) -> tensor<64x128xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<multi_row, lanes = 16, rows = 16, vector = 8, chunks = 1>]} : tensor<64x128xbf16> -> tensor<64x128xf16>
  return %0 : tensor<64x128xf16>
}

// A two-pass plan of more than 32 values a span (hand-written): its general kernel keeps each
// side value of the span and a test a chunk. A boolean mask along f16 rows on 8 chunks of 8
// needs 202 (generated seeds 4175 and 11594 spilled 116 bytes at 168); the fast kernel and a
// plan of 32 values keep theirs.
// CHECK-LABEL: gpu.func @two_pass_wide_mask_0_chunked_online(
// CHECK-SAME: nvvm.maxnreg = 104 : i32
// CHECK-LABEL: gpu.func @two_pass_wide_mask_0_chunked_online_general(
// CHECK-SAME: nvvm.maxnreg = 208 : i32
func.func @two_pass_wide_mask(%x: tensor<64x16384xf16>, %m: tensor<16384xi1>) -> tensor<64x16384xbf16> {
  %0 = softmax.fused softmax %x(%m : tensor<16384xi1>) axis = 1 prologue [#softmax.mask<tensor, operand = 0, fill = 0.0>] {strategies = [#softmax.strategy<chunked_online, lanes = 64, rows = 1, vector = 8, chunks = 8>]} : tensor<64x16384xf16> -> tensor<64x16384xbf16>
  return %0 : tensor<64x16384xbf16>
}

// CHECK-LABEL: gpu.func @two_pass_mask_0_chunked_online_general(
// CHECK-SAME: nvvm.maxnreg = 112 : i32
func.func @two_pass_mask(%x: tensor<64x16384xf16>, %m: tensor<16384xi1>) -> tensor<64x16384xbf16> {
  %0 = softmax.fused softmax %x(%m : tensor<16384xi1>) axis = 1 prologue [#softmax.mask<tensor, operand = 0, fill = 0.0>] {strategies = [#softmax.strategy<chunked_online, lanes = 64, rows = 1, vector = 8, chunks = 4>]} : tensor<64x16384xf16> -> tensor<64x16384xbf16>
  return %0 : tensor<64x16384xbf16>
}
