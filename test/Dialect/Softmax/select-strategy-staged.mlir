// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-select-strategy))' --split-input-file | FileCheck %s --check-prefix=SM90
// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-select-strategy{chip=sm_80}))' --split-input-file | FileCheck %s --check-prefix=SM80
// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-select-strategy{shared-memory-per-block=65536}))' --split-input-file | FileCheck %s --check-prefix=SMALL

// 16-bit rows of a softmax or log_softmax without a prologue, 16385 to 115704 columns, are
// staged in shared memory by a bulk copy (row_staged, sm_90: one block of 512 threads a row;
// SelectStrategy.cpp, stagedPlan). sm_80 has no bulk copies.
// SM90-LABEL: func.func @first(
// SM90: strategies = [#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1>]
// SM80-LABEL: func.func @first(
// SM80-NOT: row_staged
// A shared-memory budget of 64 KB holds 16385 16-bit columns as stored (32786 bytes and the
// header), not 115704 (231696 bytes).
// SMALL-LABEL: func.func @first(
// SMALL: row_staged
// SMALL-LABEL: func.func @last(
// SMALL-NEXT: strategies = [#softmax.strategy<chunked_online
func.func @first(%x: tensor<256x16385xbf16>) -> tensor<256x16385xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<256x16385xbf16> -> tensor<256x16385xbf16>
  return %0 : tensor<256x16385xbf16>
}

// -----

// The widest row the block's 227 KB hold as stored (14463 words of 8), and one column more:
// the cluster plan (8 blocks of 256 lanes of 64 packed values).
// SM90-LABEL: func.func @last(
// SM90: strategies = [#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1>]
// SM90-LABEL: func.func @past(
// SM90: strategies = [#softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 8, chunks = 8, cluster = 8>]
func.func @last(%x: tensor<256x115704xf16>) -> tensor<256x115704xf16> {
  %0 = softmax.fused log_softmax %x axis = 1 prologue [] : tensor<256x115704xf16> -> tensor<256x115704xf16>
  return %0 : tensor<256x115704xf16>
}
func.func @past(%x: tensor<256x115705xf16>) -> tensor<256x115705xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<256x115705xf16> -> tensor<256x115705xf16>
  return %0 : tensor<256x115705xf16>
}

// -----

// Not staged: f32 rows (the cluster plans measured faster), a few rows (a cluster spreads each
// over more multiprocessors), a prologue, a cast of the result, and a smaller shared-memory
// budget than the row needs (above).
// SM90-LABEL: func.func @f32(
// SM90: row_cluster
// SM90-LABEL: func.func @few(
// SM90: row_cluster
// SM90-LABEL: func.func @scaled(
// SM90: row_shared
// SM90-LABEL: func.func @cast(
// SM90: row_cluster
func.func @f32(%x: tensor<256x50257xf32>) -> tensor<256x50257xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<256x50257xf32> -> tensor<256x50257xf32>
  return %0 : tensor<256x50257xf32>
}
func.func @few(%x: tensor<16x50257xbf16>) -> tensor<16x50257xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<16x50257xbf16> -> tensor<16x50257xbf16>
  return %0 : tensor<16x50257xbf16>
}
func.func @scaled(%x: tensor<256x50257xbf16>) -> tensor<256x50257xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<0.5>] : tensor<256x50257xbf16> -> tensor<256x50257xbf16>
  return %0 : tensor<256x50257xbf16>
}
func.func @cast(%x: tensor<256x50257xbf16>) -> tensor<256x50257xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<256x50257xbf16> -> tensor<256x50257xf32>
  return %0 : tensor<256x50257xf32>
}
