// Every strided_axis kernel (a softmax over a non-last axis, AxisKernel.cpp) of the plans that
// softmax-select-strategy chooses, f32 and bf16, the register path (C = 8, 64, 512, 2048, 4096;
// f32 C = 2048 in blocks of 512, 3000 and 4096 over clusters of 6 and 8 blocks), the online path
// (the scalar kernels of C = 2048 and 4096, in blocks of 256) and a dynamic C (both paths in the
// general plan's kernels, the register path in its tiers'), assembles with ptxas for sm_90
// without spills within its budget (nvvm.maxnreg, from getStridedAxisRegisters in
// TargetInfo.h; the scalar kernel for misaligned layouts takes the block's limit).
// REQUIRES: ptxas
// RUN: softmax-opt %s --softmax-to-nvvm="ptx-file=%t.ptx" -o /dev/null
// RUN: %ptxas-each -arch=sm_90 -v %t.ptx -o %t.cubin > %t.log 2>&1
// RUN: FileCheck %s < %t.log
// RUN: grep "bytes spill" %t.log | sort -u | FileCheck %s --check-prefix=NOSPILL
// RUN: grep -c "Compiling entry function" %t.log | FileCheck %s --check-prefix=COUNT

// 38 programs x (vector kernel + scalar kernel; hand-written plans over clusters of 8, 2 and
// 4 blocks; bf16 C = 16384 and f16 C = 12000 over clusters of 8 and 6 blocks of packed values,
// rule 6), and the tiers of the thirteen with a dynamic C (the hand-written one: 1):
// 16 (f32: the tier of 1536 at three quarters in one block, 2048, 3072 and 4096 over clusters
// of 4, 6 and 8 blocks, 6144, 8192, 12288 and 16384 over 6, 8, 12 and 16 blocks of 1024; tiers
// at three quarters over a cluster over a dynamic inner size only), 8 (bf16 log_softmax: f32
// values), 14 (bf16, packed: 1536 and 3072 too, 8192 and 16384 over clusters of 4 and 8 blocks
// of 256, rule 6, at 112 registers; none at three quarters over a cluster), 14 (f16 over axis 0
// of `?x?x1024`, the same tiers: at 128 registers its clusters spilled 4-16 bytes), 12 (bf16
// scaled by 0.125: packed from 1024, -inf past C as loaded), 8 (bf16 to f32: f32 values, lean
// as f32's, in one block: over a cluster one block a multiprocessor), 8 (scaled by a scalar,
// f16: f32 values), 12 and 12 (bf16 and f16 times a scalar to f32: f32 values up to 1024, then
// 1536-4096 packed, launched for a positive factor), 13 (f32 over a static inner size), 16
// (f32 log_softmax), 16 (scaled f32: these two over clusters from 1536 as well, at 128
// registers).
// The general plans' online paths carry compensated running sums (a dynamic C may be long).
// COUNT: 230
// CHECK-DAG: Compiling entry function 'c16384_bf16_0_strided_axis' for 'sm_90'
// CHECK-DAG: Compiling entry function 'dynamic_f32_0_strided_axis_c16384' for 'sm_90'
// CHECK-DAG: Compiling entry function 'dynamic_f32_0_strided_axis_c3072' for 'sm_90'
// CHECK-DAG: Compiling entry function 'dynamic_temperature_bf16_0_strided_axis_c4096' for 'sm_90'
// CHECK-DAG: Compiling entry function 'dynamic_c_f32_0_strided_axis_c8192' for 'sm_90'
// CHECK-DAG: Compiling entry function 'c8_f32_0_strided_axis' for 'sm_90'
// CHECK-DAG: Compiling entry function 'hand_packed_cluster_f16_to_bf16_0_strided_axis' for 'sm_90'
// CHECK-DAG: Compiling entry function 'hand_packed_cluster_scaled_bf16_0_strided_axis' for 'sm_90'
// CHECK-DAG: Compiling entry function 'c4096_bf16_0_strided_axis_scalar' for 'sm_90'
// CHECK-DAG: Compiling entry function 'dynamic_log_bf16_0_strided_axis' for 'sm_90'
// CHECK-DAG: Compiling entry function 'dynamic_bf16_0_strided_axis_c4096' for 'sm_90'
// CHECK-DAG: Compiling entry function 'dynamic_bf16_0_strided_axis_c3072' for 'sm_90'
// CHECK-DAG: Compiling entry function 'dynamic_bf16_0_strided_axis_c16384' for 'sm_90'
// CHECK-DAG: Compiling entry function 'dynamic_f16_axis0_0_strided_axis_c8192' for 'sm_90'
// CHECK-DAG: Compiling entry function 'dynamic_scaled_const_bf16_0_strided_axis_c4096' for 'sm_90'
// CHECK-DAG: Compiling entry function 'dynamic_f32_0_strided_axis_c2048' for 'sm_90'
// CHECK-DAG: Compiling entry function 'dynamic_f32_0_strided_axis_c4096' for 'sm_90'
// CHECK-DAG: Compiling entry function 'dynamic_f32_0_strided_axis_c1536' for 'sm_90'
// CHECK-DAG: Compiling entry function 'dynamic_c_f32_0_strided_axis_c2048' for 'sm_90'
// CHECK-DAG: Compiling entry function 'c2048_f32_0_strided_axis_scalar' for 'sm_90'
// CHECK-DAG: Compiling entry function 'cluster_c4096_f32_0_strided_axis' for 'sm_90'
// NOSPILL: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// NOSPILL-NOT: bytes

func.func @c3000_f32(%x: tensor<4x3000x4096xf32>) -> tensor<4x3000x4096xf32> {
  %p = softmax.softmax %x axis = 1 : tensor<4x3000x4096xf32>
  return %p : tensor<4x3000x4096xf32>
}
func.func @c2048_f32(%x: tensor<8x2048x4096xf32>) -> tensor<8x2048x4096xf32> {
  %p = softmax.softmax %x axis = 1 : tensor<8x2048x4096xf32>
  return %p : tensor<8x2048x4096xf32>
}
func.func @c8_f32(%x: tensor<16x8x4096xf32>) -> tensor<16x8x4096xf32> {
  %p = softmax.softmax %x axis = 1 : tensor<16x8x4096xf32>
  return %p : tensor<16x8x4096xf32>
}
func.func @c64_f32(%x: tensor<16x64x4096xf32>) -> tensor<16x64x4096xf32> {
  %p = softmax.softmax %x axis = 1 : tensor<16x64x4096xf32>
  return %p : tensor<16x64x4096xf32>
}
func.func @c512_f32(%x: tensor<16x512x1024xf32>) -> tensor<16x512x1024xf32> {
  %p = softmax.softmax %x axis = 1 : tensor<16x512x1024xf32>
  return %p : tensor<16x512x1024xf32>
}
func.func @c4096_f32(%x: tensor<16x4096x1024xf32>) -> tensor<16x4096x1024xf32> {
  %p = softmax.softmax %x axis = 1 : tensor<16x4096x1024xf32>
  return %p : tensor<16x4096x1024xf32>
}
func.func @c8_bf16(%x: tensor<16x8x4096xbf16>) -> tensor<16x8x4096xbf16> {
  %p = softmax.softmax %x axis = 1 : tensor<16x8x4096xbf16>
  return %p : tensor<16x8x4096xbf16>
}
func.func @c64_bf16(%x: tensor<16x64x4096xbf16>) -> tensor<16x64x4096xbf16> {
  %p = softmax.softmax %x axis = 1 : tensor<16x64x4096xbf16>
  return %p : tensor<16x64x4096xbf16>
}
func.func @c512_bf16(%x: tensor<16x512x1024xbf16>) -> tensor<16x512x1024xbf16> {
  %p = softmax.softmax %x axis = 1 : tensor<16x512x1024xbf16>
  return %p : tensor<16x512x1024xbf16>
}
func.func @c4096_bf16(%x: tensor<16x4096x1024xbf16>) -> tensor<16x4096x1024xbf16> {
  %p = softmax.softmax %x axis = 1 : tensor<16x4096x1024xbf16>
  return %p : tensor<16x4096x1024xbf16>
}
// [B, H, S] over H: the second to last axis.
// 16-bit values held packed (getPackedStridedAxisRegisters), with a scale after each
// conversion: across warps only (lanes = 32, rows = 8) the larger budget, in one warp's rows
// (lanes = 4) the smaller.
func.func @c64_scaled_f16(%x: tensor<16x64x4096xf16>) -> tensor<16x64x4096xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<0.5>] : tensor<16x64x4096xf16> -> tensor<16x64x4096xf16>
  return %0 : tensor<16x64x4096xf16>
}
func.func @c512_scaled_bf16(%x: tensor<16x512x4096xbf16>) -> tensor<16x512x4096xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<0.5>] : tensor<16x512x4096xbf16> -> tensor<16x512x4096xf32>
  return %0 : tensor<16x512x4096xf32>
}
func.func @heads_f32(%x: tensor<64x16x4096xf32>) -> tensor<64x16x4096xf32> {
  %p = softmax.softmax %x axis = -2 : tensor<64x16x4096xf32>
  return %p : tensor<64x16x4096xf32>
}
func.func @axis0_scaled_bf16(%x: tensor<1000x4097xbf16>) -> tensor<1000x4097xbf16> {
  %s = softmax.scale %x by 0.125 : tensor<1000x4097xbf16>
  %p = softmax.softmax %s axis = 0 : tensor<1000x4097xbf16>
  return %p : tensor<1000x4097xbf16>
}
func.func @dynamic_f32(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %p = softmax.softmax %x axis = 1 : tensor<?x?x?xf32>
  return %p : tensor<?x?x?xf32>
}
func.func @dynamic_log_bf16(%x: tensor<?x?x?x?xbf16>) -> tensor<?x?x?x?xbf16> {
  %p = softmax.log_softmax %x axis = 1 : tensor<?x?x?x?xbf16>
  return %p : tensor<?x?x?x?xbf16>
}
// A dynamic C's tiers (register path only, every chunk compared with C): 16-bit values held
// packed without a prologue and with a 16-bit result (one more register a chunk), f32 values
// after a scale or with an f32 result.
func.func @dynamic_bf16(%x: tensor<?x?x?xbf16>) -> tensor<?x?x?xbf16> {
  %p = softmax.softmax %x axis = 1 : tensor<?x?x?xbf16>
  return %p : tensor<?x?x?xbf16>
}
func.func @dynamic_bf16_to_f32(%x: tensor<?x?x?xbf16>) -> tensor<?x?x?xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<?x?x?xbf16> -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}
func.func @dynamic_scaled_const_bf16(%x: tensor<?x?x?xbf16>) -> tensor<?x?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<0.125>] : tensor<?x?x?xbf16> -> tensor<?x?x?xbf16>
  return %0 : tensor<?x?x?xbf16>
}
func.func @dynamic_f16_axis0(%x: tensor<?x?x1024xf16>) -> tensor<?x?x1024xf16> {
  %p = softmax.softmax %x axis = 0 : tensor<?x?x1024xf16>
  return %p : tensor<?x?x1024xf16>
}
func.func @dynamic_scaled_f16(%x: tensor<?x?x?xf16>, %t: f32) -> tensor<?x?x?xf16> {
  %0 = softmax.fused softmax %x (%t : f32) axis = 1 prologue [#softmax.scale_by<0>] : tensor<?x?x?xf16> -> tensor<?x?x?xf16>
  return %0 : tensor<?x?x?xf16>
}
// A 16-bit input times a scalar to f32 (the temperature chain): past the f32 tiers (up to
// 1024), the packed tiers of 1536-4096 that the host launches for a positive factor only.
func.func @dynamic_temperature_bf16(%x: tensor<?x?x?xbf16>, %t: f32) -> tensor<?x?x?xf32> {
  %0 = softmax.fused softmax %x (%t : f32) axis = 1 prologue [#softmax.scale_by<0>] : tensor<?x?x?xbf16> -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}
func.func @dynamic_temperature_f16_axis0(%x: tensor<?x?x1024xf16>, %t: f64) -> tensor<?x?x1024xf32> {
  %0 = softmax.fused softmax %x (%t : f64) axis = 0 prologue [#softmax.scale_by<0>, #softmax.scale<0.5>] : tensor<?x?x1024xf16> -> tensor<?x?x1024xf32>
  return %0 : tensor<?x?x1024xf32>
}
// A hand-written packed tier over a cluster in blocks of 128 (64 lanes x 2 rows): 8 bytes of
// spill at the 112 registers of rule 6's tiers (generator seed 81 of the strided_axis family,
// fifteenth session); that budget is for blocks of 256 or more only.
func.func @hand_packed_cluster_tier_f16(%x: tensor<?x3xf16>) -> tensor<?x3xf16> {
  %y = softmax.fused softmax %x axis = 0 prologue [] masked_rows = zero {strategies = [#softmax.strategy<strided_axis, lanes = 64, rows = 2, vector = 8, chunks = 16, cluster = 8>, #softmax.strategy<strided_axis, lanes = 2, rows = 64, vector = 8, chunks = 1>]} : tensor<?x3xf16> -> tensor<?x3xf16>
  return %y : tensor<?x3xf16>
}
// A hand-written static plan of packed values over a cluster of 2 blocks of 128 (2 lanes x 64
// rows), f16 to bf16: 4 bytes of spill at 128 registers, none at 136 (generator seed 1551 of the
// strided_axis family, eighteenth session).
func.func @hand_packed_cluster_f16_to_bf16(%x: tensor<1x17x4x16xf16>) -> tensor<1x17x4x16xbf16> {
  %y = softmax.fused softmax %x axis = 1 prologue [] masked_rows = zero {strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 64, vector = 8, chunks = 16, cluster = 2>]} : tensor<1x17x4x16xf16> -> tensor<1x17x4x16xbf16>
  return %y : tensor<1x17x4x16xbf16>
}
// The same class in blocks of 32 (2 lanes x 16 rows) over 4 blocks after a scale by a scalar:
// 12 bytes of spill at 120 registers, none at 136 (generator seed 1805).
func.func @hand_packed_cluster_scaled_bf16(%x: tensor<1000x3xbf16>, %a: f64) -> tensor<1000x3xbf16> {
  %y = softmax.fused softmax %x (%a : f64) axis = 0 prologue [#softmax.scale_by<0>] masked_rows = zero {strategies = [#softmax.strategy<strided_axis, lanes = 2, rows = 16, vector = 8, chunks = 16, cluster = 4>]} : tensor<1000x3xbf16> -> tensor<1000x3xbf16>
  return %y : tensor<1000x3xbf16>
}
// A dynamic C's f32 tiers are lean (their chunks through column views; those that may pass C
// load the last chunk in the axis, masked): over a static inner size the tier of 2048 has 4
// lanes x 128 rows in blocks of 512 (it needs 128 registers), after a scale or as a
// log_softmax more registers a value.
// An f32 log_softmax of 64 values a thread at the softmax's 128 registers (two blocks of 256
// a multiprocessor; 255 before).
func.func @c512_log_f32(%x: tensor<32x512x4096xf32>) -> tensor<32x512x4096xf32> {
  %p = softmax.log_softmax %x axis = 1 : tensor<32x512x4096xf32>
  return %p : tensor<32x512x4096xf32>
}
func.func @dynamic_c_f32(%x: tensor<16x?x1024xf32>) -> tensor<16x?x1024xf32> {
  %p = softmax.softmax %x axis = 1 : tensor<16x?x1024xf32>
  return %p : tensor<16x?x1024xf32>
}
func.func @dynamic_log_f32(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %p = softmax.log_softmax %x axis = 1 : tensor<?x?x?xf32>
  return %p : tensor<?x?x?xf32>
}
func.func @dynamic_scaled_f32(%x: tensor<?x?x?xf32>, %t: f32) -> tensor<?x?x?xf32> {
  %0 = softmax.fused softmax %x (%t : f32) axis = 1 prologue [#softmax.scale_by<0>] : tensor<?x?x?xf32> -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}
// 9 chunks of 16-bit values held packed in blocks of 512 threads (C exactly 9 spans: 1152 on 4
// lanes, 2304 on 2): 24 bytes of spill at 88 and 104 before those blocks took at least 112
// (generated seed 8 of the strided_axis family, C = 2049).
func.func @c2304_f16(%x: tensor<2304x?x8xf16>) -> tensor<2304x?x8xf16> {
  %p = softmax.softmax %x axis = 0 : tensor<2304x?x8xf16>
  return %p : tensor<2304x?x8xf16>
}
func.func @c1152_bf16(%x: tensor<4x1152x1024xbf16>) -> tensor<4x1152x1024xbf16> {
  %p = softmax.softmax %x axis = 1 : tensor<4x1152x1024xbf16>
  return %p : tensor<4x1152x1024xbf16>
}
// 12 chunks of 8 bf16 values packed in blocks of 512: 16 bytes of spill at 112 registers before
// packed kernels took every register their occupancy leaves (none at 120 or 128).
func.func @c1500_bf16(%x: tensor<4x1500x1024xbf16>) -> tensor<4x1500x1024xbf16> {
  %p = softmax.softmax %x axis = 1 : tensor<4x1500x1024xbf16>
  return %p : tensor<4x1500x1024xbf16>
}
func.func @c3000_bf16(%x: tensor<2x3000x1024xbf16>) -> tensor<2x3000x1024xbf16> {
  %p = softmax.softmax %x axis = 1 : tensor<2x3000x1024xbf16>
  return %p : tensor<2x3000x1024xbf16>
}
// Past 8 blocks of C = 512's slices, clusters of up to 16 blocks of C = 1024's plan (4 lanes x
// 64 rows x 16 in blocks of 256; AxisPlan.cpp rule 5); after a scale, 16-bit values held as
// f32 (64 a thread; holdsPackedAfterPrologue).
func.func @c5000_f32(%x: tensor<2x5000x1024xf32>) -> tensor<2x5000x1024xf32> {
  %p = softmax.softmax %x axis = 1 : tensor<2x5000x1024xf32>
  return %p : tensor<2x5000x1024xf32>
}
func.func @c16384_f32(%x: tensor<1x16384x4096xf32>) -> tensor<1x16384x4096xf32> {
  %p = softmax.softmax %x axis = 1 : tensor<1x16384x4096xf32>
  return %p : tensor<1x16384x4096xf32>
}
func.func @c512_scaled_bf16_f32_values(%x: tensor<64x512x4096xbf16>) -> tensor<64x512x4096xbf16> {
  %s = softmax.scale %x by 0.125 : tensor<64x512x4096xbf16>
  %p = softmax.softmax %s axis = 1 : tensor<64x512x4096xbf16>
  return %p : tensor<64x512x4096xbf16>
}
// A column over a cluster (hand-written: no plan chosen is one), its exchange included.
func.func @cluster_c4096_f32(%x: tensor<4x4096x1024xf32>) -> tensor<4x4096x1024xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<strided_axis, lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 8>]} : tensor<4x4096x1024xf32> -> tensor<4x4096x1024xf32>
  return %0 : tensor<4x4096x1024xf32>
}
// Rule 6 (AxisPlan.cpp): 16-bit values held packed over clusters of blocks of 256, 2 lanes x 128
// rows x 16 chunks of 8 each (128 registers, two blocks a multiprocessor); f16 C = 12000: the
// last block's slice in part past C.
func.func @c16384_bf16(%x: tensor<2x16384x4096xbf16>) -> tensor<2x16384x4096xbf16> {
  %p = softmax.softmax %x axis = 1 : tensor<2x16384x4096xbf16>
  return %p : tensor<2x16384x4096xbf16>
}
func.func @c12000_f16(%x: tensor<2x12000x1000xf16>) -> tensor<2x12000x1000xf16> {
  %p = softmax.softmax %x axis = 1 : tensor<2x12000x1000xf16>
  return %p : tensor<2x12000x1000xf16>
}
