// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-select-strategy))' --split-input-file | FileCheck %s --check-prefix=SM90
// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-select-strategy{chip=sm_80}))' --split-input-file | FileCheck %s --check-prefix=SM80
// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-select-strategy{shared-memory-per-block=65536}))' --split-input-file | FileCheck %s --check-prefix=SMALL

// 16-bit rows of a softmax or log_softmax without a prologue, 16385 to 923512 columns, are
// staged in shared memory by bulk copies (row_staged, sm_90: blocks of 512 threads, one a row
// or a cluster of them; SelectStrategy.cpp, stagedPlan). sm_80 has no bulk copies.
// SM90-LABEL: func.func @first(
// SM90: strategies = [#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1>]
// SM80-LABEL: func.func @first(
// SM80-NOT: row_staged
// A shared-memory budget of 64 KB holds 16385 16-bit columns as stored (32786 bytes and the
// header).
// SMALL-LABEL: func.func @first(
// SMALL: row_staged
func.func @first(%x: tensor<256x16385xbf16>) -> tensor<256x16385xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<256x16385xbf16> -> tensor<256x16385xbf16>
  return %0 : tensor<256x16385xbf16>
}

// -----

// Rows staged over a cluster: the fewest blocks that keep each within 113 KB (two blocks a
// multiprocessor: 7215 words of 16 bytes and the header): one block up to 57712 16-bit columns
// (7214 words and the extra word of a misaligned start), two from 57713, three from 115433; 16
// blocks up to the widest row they keep at two a multiprocessor (923512 columns, 7215 words a
// block), chunked past it (StrategyAttr::getDispatchWidth).
// SM90-LABEL: func.func @one_block(
// SM90: strategies = [#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1>]
// SM90-LABEL: func.func @two_blocks(
// SM90: strategies = [#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1, cluster = 2>]
// SM90-LABEL: func.func @three_blocks(
// SM90: strategies = [#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1, cluster = 3>]
// SM90-LABEL: func.func @widest(
// SM90: strategies = [#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1, cluster = 16>]
// SM90-LABEL: func.func @past(
// SM90: strategies = [#softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]
// A dynamic width: after the register tiers, a tier of one block a row (up to 57712 columns:
// its own kernel, without the cluster's code) and one over the chip's largest cluster (the
// launch takes the blocks the width needs) up to 923512 columns, instead of the row_cluster
// tiers (lower-to-gpu-staged-cluster.mlir shows the dispatch).
// SM90-LABEL: func.func @dynamic(
// SM90: #softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 4>, #softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1>, #softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1, cluster = 16>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]
// SM80-LABEL: func.func @dynamic(
// SM80-NOT: row_staged
// A 64 KB budget does not hold a block of 57712 columns (115712 bytes), but does the two
// slices of 57713 (58000 bytes each).
// SMALL-LABEL: func.func @one_block(
// SMALL-NOT: row_staged
// SMALL-LABEL: func.func @two_blocks(
// SMALL: row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1, cluster = 2>
// SMALL-LABEL: func.func @dynamic(
// SMALL-NOT: row_staged
// SMALL: row_cluster, lanes = 256, rows = 1, vector = 8, chunks = 8, cluster = 16>, #softmax.strategy<chunked_online
func.func @one_block(%x: tensor<256x57712xbf16>) -> tensor<256x57712xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<256x57712xbf16> -> tensor<256x57712xbf16>
  return %0 : tensor<256x57712xbf16>
}
func.func @two_blocks(%x: tensor<256x57713xbf16>) -> tensor<256x57713xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<256x57713xbf16> -> tensor<256x57713xbf16>
  return %0 : tensor<256x57713xbf16>
}
func.func @three_blocks(%x: tensor<256x115433xf16>) -> tensor<256x115433xf16> {
  %0 = softmax.fused log_softmax %x axis = 1 prologue [] : tensor<256x115433xf16> -> tensor<256x115433xf16>
  return %0 : tensor<256x115433xf16>
}
func.func @widest(%x: tensor<256x923512xbf16>) -> tensor<256x923512xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<256x923512xbf16> -> tensor<256x923512xbf16>
  return %0 : tensor<256x923512xbf16>
}
func.func @past(%x: tensor<256x923513xbf16>) -> tensor<256x923513xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<256x923513xbf16> -> tensor<256x923513xbf16>
  return %0 : tensor<256x923513xbf16>
}
func.func @dynamic(%x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<?x?xbf16> -> tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
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
