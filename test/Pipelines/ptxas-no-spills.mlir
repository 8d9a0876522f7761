// Every plan sm_90 chooses x f32/f16/bf16, plain and scale + causal + softmax + cast, assembles with ptxas
// for sm_90 without spills: 0 bytes of stack and of spill stores/loads in every kernel.
// REQUIRES: ptxas
// RUN: softmax-opt %s --softmax-to-nvvm="ptx-file=%t.ptx" -o /dev/null
// RUN: %ptxas-each -arch=sm_90 -v %t.ptx -o %t.cubin > %t.log 2>&1
// RUN: FileCheck %s < %t.log
// RUN: grep "bytes spill" %t.log | sort -u | FileCheck %s --check-prefix=NOSPILL

// Each kernel once, by name (30 kernels: 4 plans x 3 types x 2 programs, and rows over a
// 16-block cluster (f32; plain bf16 is staged over 5 blocks there) and a 13-block one (f16 in,
// f32 out); the 50000-column programs are row_cluster in f32, row_staged in plain 16-bit
// softmax, row_shared in the fused 16-bit ones, which are not clustered; the chunked ones are
// wider than 16 blocks hold (f32) or than the staged clusters take (plain 16-bit: 1000000
// columns) or not clustered (fused 16-bit); ptxas-no-spills-sm80.mlir has row_shared in f32
// too).
// CHECK-DAG: Compiling entry function 'plain_multi_row_f32_0_multi_row' for 'sm_90'
// CHECK-DAG: Compiling entry function 'fused_multi_row_f32_0_multi_row' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_multi_row_f16_0_multi_row' for 'sm_90'
// CHECK-DAG: Compiling entry function 'fused_multi_row_f16_0_multi_row' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_multi_row_bf16_0_multi_row' for 'sm_90'
// CHECK-DAG: Compiling entry function 'fused_multi_row_bf16_0_multi_row' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_row_registers_f32_0_row_registers' for 'sm_90'
// CHECK-DAG: Compiling entry function 'fused_row_registers_f32_0_row_registers' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_row_registers_f16_0_row_registers' for 'sm_90'
// CHECK-DAG: Compiling entry function 'fused_row_registers_f16_0_row_registers' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_row_registers_bf16_0_row_registers' for 'sm_90'
// CHECK-DAG: Compiling entry function 'fused_row_registers_bf16_0_row_registers' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_row_cluster_f32_0_row_cluster' for 'sm_90'
// CHECK-DAG: Compiling entry function 'fused_row_cluster_f32_0_row_cluster' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_row_cluster_f16_0_row_staged' for 'sm_90'
// CHECK-DAG: Compiling entry function 'fused_row_cluster_f16_0_row_shared' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_row_cluster_bf16_0_row_staged' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_row_cluster16_bf16_0_row_staged' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_row_cluster13_f16_0_row_cluster' for 'sm_90'
// CHECK-DAG: Compiling entry function 'fused_row_cluster_bf16_0_row_shared' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_chunked_online_f32_0_chunked_online' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_row_cluster16_f32_0_row_cluster' for 'sm_90'
// CHECK-DAG: Compiling entry function 'fused_row_cluster16_f32_0_row_cluster' for 'sm_90'
// CHECK-DAG: Compiling entry function 'fused_chunked_online_f32_0_chunked_online' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_chunked_online_f16_0_chunked_online' for 'sm_90'
// CHECK-DAG: Compiling entry function 'fused_chunked_online_f16_0_chunked_online' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_chunked_online_bf16_0_chunked_online' for 'sm_90'
// CHECK-DAG: Compiling entry function 'fused_chunked_online_bf16_0_chunked_online' for 'sm_90'
// Few wide rows split over blocks (row_split: partial, combine, normalize and the fallback).
// CHECK-DAG: Compiling entry function 'plain_row_split_f32_0_row_split_partial' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_row_split_f32_0_row_split_combine' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_row_split_f32_0_row_split_normalize' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_row_split_f32_0_row_split_fallback' for 'sm_90'
// CHECK-DAG: Compiling entry function 'fused_row_split_f16_0_row_split_partial' for 'sm_90'
// CHECK-DAG: Compiling entry function 'fused_row_split_f16_0_row_split_normalize' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_row_split_bf16_0_row_split_partial' for 'sm_90'
// CHECK-DAG: Compiling entry function 'plain_row_split_bf16_0_row_split_normalize' for 'sm_90'
// CHECK-DAG: Compiling entry function 'fused_row_split_bf16_0_row_split_partial' for 'sm_90'
// CHECK-DAG: Compiling entry function 'fused_row_split_bf16_0_row_split_normalize' for 'sm_90'
// NOSPILL: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// NOSPILL-NOT: bytes

func.func @plain_multi_row_f32(%x: tensor<65536x256xf32>) -> tensor<65536x256xf32> {
  %p = softmax.softmax %x : tensor<65536x256xf32>
  return %p : tensor<65536x256xf32>
}

func.func @fused_multi_row_f32(%x: tensor<65536x256xf32>) -> tensor<65536x256xbf16> {
  %s = softmax.scale %x by 0.125 : tensor<65536x256xf32>
  %c = softmax.mask %s, causal offset = 128 : tensor<65536x256xf32>
  %p = softmax.softmax %c : tensor<65536x256xf32>
  %y = softmax.cast %p : tensor<65536x256xf32> to tensor<65536x256xbf16>
  return %y : tensor<65536x256xbf16>
}

func.func @plain_multi_row_f16(%x: tensor<65536x256xf16>) -> tensor<65536x256xf16> {
  %p = softmax.softmax %x : tensor<65536x256xf16>
  return %p : tensor<65536x256xf16>
}

func.func @fused_multi_row_f16(%x: tensor<65536x256xf16>) -> tensor<65536x256xf16> {
  %w = softmax.cast %x : tensor<65536x256xf16> to tensor<65536x256xf32>
  %s = softmax.scale %w by 0.125 : tensor<65536x256xf32>
  %c = softmax.mask %s, causal offset = 128 : tensor<65536x256xf32>
  %p = softmax.softmax %c : tensor<65536x256xf32>
  %y = softmax.cast %p : tensor<65536x256xf32> to tensor<65536x256xf16>
  return %y : tensor<65536x256xf16>
}

func.func @plain_multi_row_bf16(%x: tensor<65536x256xbf16>) -> tensor<65536x256xbf16> {
  %p = softmax.softmax %x : tensor<65536x256xbf16>
  return %p : tensor<65536x256xbf16>
}

func.func @fused_multi_row_bf16(%x: tensor<65536x256xbf16>) -> tensor<65536x256xbf16> {
  %w = softmax.cast %x : tensor<65536x256xbf16> to tensor<65536x256xf32>
  %s = softmax.scale %w by 0.125 : tensor<65536x256xf32>
  %c = softmax.mask %s, causal offset = 128 : tensor<65536x256xf32>
  %p = softmax.softmax %c : tensor<65536x256xf32>
  %y = softmax.cast %p : tensor<65536x256xf32> to tensor<65536x256xbf16>
  return %y : tensor<65536x256xbf16>
}

func.func @plain_row_registers_f32(%x: tensor<4096x16384xf32>) -> tensor<4096x16384xf32> {
  %p = softmax.softmax %x : tensor<4096x16384xf32>
  return %p : tensor<4096x16384xf32>
}

func.func @fused_row_registers_f32(%x: tensor<4096x16384xf32>) -> tensor<4096x16384xbf16> {
  %s = softmax.scale %x by 0.125 : tensor<4096x16384xf32>
  %c = softmax.mask %s, causal offset = 16384 : tensor<4096x16384xf32>
  %p = softmax.softmax %c : tensor<4096x16384xf32>
  %y = softmax.cast %p : tensor<4096x16384xf32> to tensor<4096x16384xbf16>
  return %y : tensor<4096x16384xbf16>
}

func.func @plain_row_registers_f16(%x: tensor<4096x16384xf16>) -> tensor<4096x16384xf16> {
  %p = softmax.softmax %x : tensor<4096x16384xf16>
  return %p : tensor<4096x16384xf16>
}

func.func @fused_row_registers_f16(%x: tensor<4096x16384xf16>) -> tensor<4096x16384xf16> {
  %w = softmax.cast %x : tensor<4096x16384xf16> to tensor<4096x16384xf32>
  %s = softmax.scale %w by 0.125 : tensor<4096x16384xf32>
  %c = softmax.mask %s, causal offset = 16384 : tensor<4096x16384xf32>
  %p = softmax.softmax %c : tensor<4096x16384xf32>
  %y = softmax.cast %p : tensor<4096x16384xf32> to tensor<4096x16384xf16>
  return %y : tensor<4096x16384xf16>
}

func.func @plain_row_registers_bf16(%x: tensor<4096x16384xbf16>) -> tensor<4096x16384xbf16> {
  %p = softmax.softmax %x : tensor<4096x16384xbf16>
  return %p : tensor<4096x16384xbf16>
}

func.func @fused_row_registers_bf16(%x: tensor<4096x16384xbf16>) -> tensor<4096x16384xbf16> {
  %w = softmax.cast %x : tensor<4096x16384xbf16> to tensor<4096x16384xf32>
  %s = softmax.scale %w by 0.125 : tensor<4096x16384xf32>
  %c = softmax.mask %s, causal offset = 16384 : tensor<4096x16384xf32>
  %p = softmax.softmax %c : tensor<4096x16384xf32>
  %y = softmax.cast %p : tensor<4096x16384xf32> to tensor<4096x16384xbf16>
  return %y : tensor<4096x16384xbf16>
}

func.func @plain_row_cluster_f32(%x: tensor<256x50000xf32>) -> tensor<256x50000xf32> {
  %p = softmax.softmax %x : tensor<256x50000xf32>
  return %p : tensor<256x50000xf32>
}

func.func @fused_row_cluster_f32(%x: tensor<256x50000xf32>) -> tensor<256x50000xbf16> {
  %s = softmax.scale %x by 0.125 : tensor<256x50000xf32>
  %c = softmax.mask %s, causal offset = 25000 : tensor<256x50000xf32>
  %p = softmax.softmax %c : tensor<256x50000xf32>
  %y = softmax.cast %p : tensor<256x50000xf32> to tensor<256x50000xbf16>
  return %y : tensor<256x50000xbf16>
}

func.func @plain_row_cluster_f16(%x: tensor<256x50000xf16>) -> tensor<256x50000xf16> {
  %p = softmax.softmax %x : tensor<256x50000xf16>
  return %p : tensor<256x50000xf16>
}

func.func @fused_row_cluster_f16(%x: tensor<256x50000xf16>) -> tensor<256x50000xf16> {
  %w = softmax.cast %x : tensor<256x50000xf16> to tensor<256x50000xf32>
  %s = softmax.scale %w by 0.125 : tensor<256x50000xf32>
  %c = softmax.mask %s, causal offset = 25000 : tensor<256x50000xf32>
  %p = softmax.softmax %c : tensor<256x50000xf32>
  %y = softmax.cast %p : tensor<256x50000xf32> to tensor<256x50000xf16>
  return %y : tensor<256x50000xf16>
}

func.func @plain_row_cluster_bf16(%x: tensor<256x50000xbf16>) -> tensor<256x50000xbf16> {
  %p = softmax.softmax %x : tensor<256x50000xbf16>
  return %p : tensor<256x50000xbf16>
}

func.func @fused_row_cluster_bf16(%x: tensor<256x50000xbf16>) -> tensor<256x50000xbf16> {
  %w = softmax.cast %x : tensor<256x50000xbf16> to tensor<256x50000xf32>
  %s = softmax.scale %w by 0.125 : tensor<256x50000xf32>
  %c = softmax.mask %s, causal offset = 25000 : tensor<256x50000xf32>
  %p = softmax.softmax %c : tensor<256x50000xf32>
  %y = softmax.cast %p : tensor<256x50000xf32> to tensor<256x50000xbf16>
  return %y : tensor<256x50000xbf16>
}

func.func @plain_chunked_online_f32(%x: tensor<256x300000xf32>) -> tensor<256x300000xf32> {
  %p = softmax.softmax %x : tensor<256x300000xf32>
  return %p : tensor<256x300000xf32>
}

func.func @fused_chunked_online_f32(%x: tensor<256x300000xf32>) -> tensor<256x300000xbf16> {
  %s = softmax.scale %x by 0.125 : tensor<256x300000xf32>
  %c = softmax.mask %s, causal offset = 150000 : tensor<256x300000xf32>
  %p = softmax.softmax %c : tensor<256x300000xf32>
  %y = softmax.cast %p : tensor<256x300000xf32> to tensor<256x300000xbf16>
  return %y : tensor<256x300000xbf16>
}

func.func @plain_row_cluster16_bf16(%x: tensor<256x262144xbf16>) -> tensor<256x262144xbf16> {
  %p = softmax.softmax %x : tensor<256x262144xbf16>
  return %p : tensor<256x262144xbf16>
}

func.func @plain_row_cluster13_f16(%x: tensor<256x200001xf16>) -> tensor<256x200001xf32> {
  %w = softmax.cast %x : tensor<256x200001xf16> to tensor<256x200001xf32>
  %p = softmax.softmax %w : tensor<256x200001xf32>
  return %p : tensor<256x200001xf32>
}

func.func @plain_row_cluster16_f32(%x: tensor<256x262144xf32>) -> tensor<256x262144xf32> {
  %p = softmax.softmax %x : tensor<256x262144xf32>
  return %p : tensor<256x262144xf32>
}

func.func @fused_row_cluster16_f32(%x: tensor<256x262144xf32>) -> tensor<256x262144xbf16> {
  %s = softmax.scale %x by 0.125 : tensor<256x262144xf32>
  %c = softmax.mask %s, causal offset = 131072 : tensor<256x262144xf32>
  %p = softmax.log_softmax %c : tensor<256x262144xf32>
  %y = softmax.cast %p : tensor<256x262144xf32> to tensor<256x262144xbf16>
  return %y : tensor<256x262144xbf16>
}

func.func @plain_chunked_online_f16(%x: tensor<256x1000000xf16>) -> tensor<256x1000000xf16> {
  %p = softmax.softmax %x : tensor<256x1000000xf16>
  return %p : tensor<256x1000000xf16>
}

func.func @fused_chunked_online_f16(%x: tensor<256x200000xf16>) -> tensor<256x200000xf16> {
  %w = softmax.cast %x : tensor<256x200000xf16> to tensor<256x200000xf32>
  %s = softmax.scale %w by 0.125 : tensor<256x200000xf32>
  %c = softmax.mask %s, causal offset = 100000 : tensor<256x200000xf32>
  %p = softmax.softmax %c : tensor<256x200000xf32>
  %y = softmax.cast %p : tensor<256x200000xf32> to tensor<256x200000xf16>
  return %y : tensor<256x200000xf16>
}

func.func @plain_chunked_online_bf16(%x: tensor<256x1000000xbf16>) -> tensor<256x1000000xbf16> {
  %p = softmax.softmax %x : tensor<256x1000000xbf16>
  return %p : tensor<256x1000000xbf16>
}

func.func @fused_chunked_online_bf16(%x: tensor<256x200000xbf16>) -> tensor<256x200000xbf16> {
  %w = softmax.cast %x : tensor<256x200000xbf16> to tensor<256x200000xf32>
  %s = softmax.scale %w by 0.125 : tensor<256x200000xf32>
  %c = softmax.mask %s, causal offset = 100000 : tensor<256x200000xf32>
  %p = softmax.softmax %c : tensor<256x200000xf32>
  %y = softmax.cast %p : tensor<256x200000xf32> to tensor<256x200000xbf16>
  return %y : tensor<256x200000xbf16>
}

func.func @plain_row_split_f32(%x: tensor<8x1048576xf32>) -> tensor<8x1048576xf32> {
  %p = softmax.log_softmax %x : tensor<8x1048576xf32>
  return %p : tensor<8x1048576xf32>
}

func.func @fused_row_split_f16(%x: tensor<2x1000000xf16>) -> tensor<2x1000000xbf16> {
  %w = softmax.cast %x : tensor<2x1000000xf16> to tensor<2x1000000xf32>
  %s = softmax.scale %w by 0.125 : tensor<2x1000000xf32>
  %c = softmax.mask %s, causal offset = 500000 : tensor<2x1000000xf32>
  %p = softmax.softmax %c : tensor<2x1000000xf32>
  %y = softmax.cast %p : tensor<2x1000000xf32> to tensor<2x1000000xbf16>
  return %y : tensor<2x1000000xbf16>
}

func.func @plain_row_split_bf16(%x: tensor<4x4194304xbf16>) -> tensor<4x4194304xbf16> {
  %p = softmax.softmax %x : tensor<4x4194304xbf16>
  return %p : tensor<4x4194304xbf16>
}

func.func @fused_row_split_bf16(%x: tensor<16x524288xbf16>, %b: tensor<524288xf32>) -> tensor<16x524288xbf16> {
  %w = softmax.cast %x : tensor<16x524288xbf16> to tensor<16x524288xf32>
  %s = softmax.add_bias %w, %b : tensor<16x524288xf32>, tensor<524288xf32>
  %p = softmax.softmax %s : tensor<16x524288xf32>
  %y = softmax.cast %p : tensor<16x524288xf32> to tensor<16x524288xbf16>
  return %y : tensor<16x524288xbf16>
}
