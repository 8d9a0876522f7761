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

// Rows one block does not hold (past 115704 16-bit columns): the register cluster plan while a
// portable cluster of 8 holds the row (131072 columns), then the row staged over a cluster:
// the fewest blocks that keep each within 113 KB (two blocks a multiprocessor: 7215 words of
// 16 bytes and the header), three at 131073 columns (16385 words), five at 262144, up to 16
// blocks at 923512 columns, chunked past it (StrategyAttr::getDispatchWidth).
// SM90-LABEL: func.func @one_block(
// SM90: strategies = [#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1>]
// SM90-LABEL: func.func @portable_cluster(
// SM90: strategies = [#softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 8, chunks = 8, cluster = 8>]
// SM90-LABEL: func.func @three_blocks(
// SM90: strategies = [#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1, cluster = 3>]
// SM90-LABEL: func.func @five_blocks(
// SM90: strategies = [#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1, cluster = 5>]
// SM90-LABEL: func.func @widest(
// SM90: strategies = [#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1, cluster = 16>]
// SM90-LABEL: func.func @past(
// SM90: strategies = [#softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]
// A dynamic width: after the register tiers, the row on one block (up to 115704 columns),
// the register cluster of 8 blocks (up to 131072), the row staged over the chip's largest
// cluster (the launch takes the blocks the width needs) up to 923512 columns, the rows split
// over blocks where they are fewer than the multiprocessors (row_split), else chunked
// (lower-to-gpu-staged-cluster.mlir shows the dispatch).
// SM90-LABEL: func.func @dynamic(
// SM90: #softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 4>, #softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1>, #softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 8, chunks = 8, cluster = 8>, #softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1, cluster = 16>, #softmax.strategy<row_split, lanes = 256, rows = 1, vector = 8, chunks = 4>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]
// SM80-LABEL: func.func @dynamic(
// SM80-NOT: row_staged
// A 64 KB budget does not hold a block of 57712 columns (115712 bytes), nor a dynamic tier on
// one block or over a cluster.
// SMALL-LABEL: func.func @one_block(
// SMALL-NOT: row_staged
// SMALL-LABEL: func.func @dynamic(
// SMALL-NOT: row_staged
// SMALL: row_cluster, lanes = 256, rows = 1, vector = 8, chunks = 8, cluster = 16>, #softmax.strategy<row_split, lanes = 256, rows = 1, vector = 8, chunks = 4>, #softmax.strategy<chunked_online
func.func @one_block(%x: tensor<256x57712xbf16>) -> tensor<256x57712xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<256x57712xbf16> -> tensor<256x57712xbf16>
  return %0 : tensor<256x57712xbf16>
}
func.func @portable_cluster(%x: tensor<256x128256xbf16>) -> tensor<256x128256xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<256x128256xbf16> -> tensor<256x128256xbf16>
  return %0 : tensor<256x128256xbf16>
}
func.func @three_blocks(%x: tensor<256x131073xf16>) -> tensor<256x131073xf16> {
  %0 = softmax.fused log_softmax %x axis = 1 prologue [] : tensor<256x131073xf16> -> tensor<256x131073xf16>
  return %0 : tensor<256x131073xf16>
}
func.func @five_blocks(%x: tensor<256x262144xbf16>) -> tensor<256x262144xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<256x262144xbf16> -> tensor<256x262144xbf16>
  return %0 : tensor<256x262144xbf16>
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
