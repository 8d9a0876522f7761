// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-select-strategy{chip=sm_90}))' --split-input-file | FileCheck %s --check-prefix=SM90
// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-select-strategy{chip=sm_80}))' --split-input-file | FileCheck %s --check-prefix=SM80

// f32 rows wider than a block's registers hold (16384 columns). sm_90 spreads them over the
// fewest blocks of a thread-block cluster (at most 16; more than 8 is a non-portable size that
// the runtime and the API opt each kernel into) that hold 16384 columns each; each block gets the register plan of its ceil(width / blocks) columns, one row a block.
// sm_80 has no clusters: the row goes to shared memory (row_shared) while it fits, else the
// chunked plan reads it twice.

// SM90-LABEL: func.func @n16385_f32(
// SM90: strategies = [#softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 9, cluster = 2>]
// SM80-LABEL: func.func @n16385_f32(
// SM80: strategies = [#softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 4, chunks = 8>]
func.func @n16385_f32(%x: tensor<64x16385xf32>) -> tensor<64x16385xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<64x16385xf32> -> tensor<64x16385xf32>
  return %0 : tensor<64x16385xf32>
}

// -----

// SM90-LABEL: func.func @n131072_f32(
// SM90: strategies = [#softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 16, cluster = 8>]
// SM80-LABEL: func.func @n131072_f32(
// SM80: strategies = [#softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 4, chunks = 8>]
func.func @n131072_f32(%x: tensor<64x131072xf32>) -> tensor<64x131072xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<64x131072xf32> -> tensor<64x131072xf32>
  return %0 : tensor<64x131072xf32>
}

// -----

// One column more than 8 blocks hold: 9 blocks (a cluster size need not be a power of two).
// SM90-LABEL: func.func @n131073_f32(
// SM90: strategies = [#softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 15, cluster = 9>]
func.func @n131073_f32(%x: tensor<64x131073xf32>) -> tensor<64x131073xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<64x131073xf32> -> tensor<64x131073xf32>
  return %0 : tensor<64x131073xf32>
}

// -----

// SM90-LABEL: func.func @n262144_f32(
// SM90: strategies = [#softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 16, cluster = 16>]
func.func @n262144_f32(%x: tensor<64x262144xf32>) -> tensor<64x262144xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<64x262144xf32> -> tensor<64x262144xf32>
  return %0 : tensor<64x262144xf32>
}

// -----

// One column more than 16 blocks hold: the chunked plan (row_shared's 57856 are fewer), with
// enough rows to fill the GPU a block a row (fewer are split over blocks: row_split).
// SM90-LABEL: func.func @n262145_f32(
// SM90: strategies = [#softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 4, chunks = 8>]
func.func @n262145_f32(%x: tensor<256x262145xf32>) -> tensor<256x262145xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<256x262145xf32> -> tensor<256x262145xf32>
  return %0 : tensor<256x262145xf32>
}

// -----

// 16-bit rows of a plain softmax up to 115704 columns are staged in shared memory
// (select-strategy-staged.mlir); sm_80 has neither bulk copies, nor clusters, nor the shared
// memory for 50257 f32 values: the chunked plan.
// SM90-LABEL: func.func @n50257_bf16(
// SM90: strategies = [#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1>]
// SM80-LABEL: func.func @n50257_bf16(
// SM80: strategies = [#softmax.strategy<row_split, lanes = 256, rows = 1, vector = 8, chunks = 2>]
func.func @n50257_bf16(%x: tensor<64x50257xbf16>) -> tensor<64x50257xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<64x50257xbf16> -> tensor<64x50257xbf16>
  return %0 : tensor<64x50257xbf16>
}

// -----

// An f16 input with f32 results, 262144 columns: all 16 blocks, on the vectors of the wider
// (f32) type.
// SM90-LABEL: func.func @n262144_f16_to_f32(
// SM90: strategies = [#softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 16, cluster = 16>]
func.func @n262144_f16_to_f32(%x: tensor<64x262144xf16>) -> tensor<64x262144xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<64x262144xf16> -> tensor<64x262144xf32>
  return %0 : tensor<64x262144xf32>
}

// -----

// Other 16-bit rows (a prologue step) are neither staged nor held packed, and as f32 values
// measured slower clustered (SelectStrategy.cpp, clusterPlan): the row in shared memory as
// f32. A log_softmax without a prologue is staged.
// SM90-LABEL: func.func @n50257_bf16_scaled(
// SM90: strategies = [#softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 8, chunks = 4>]
// SM90-LABEL: func.func @n50257_bf16_log(
// SM90: strategies = [#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1>]
func.func @n50257_bf16_scaled(%x: tensor<64x50257xbf16>) -> tensor<64x50257xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<0.5>] : tensor<64x50257xbf16> -> tensor<64x50257xbf16>
  return %0 : tensor<64x50257xbf16>
}
func.func @n50257_bf16_log(%x: tensor<64x50257xbf16>) -> tensor<64x50257xbf16> {
  %0 = softmax.fused log_softmax %x axis = 1 prologue [] : tensor<64x50257xbf16> -> tensor<64x50257xbf16>
  return %0 : tensor<64x50257xbf16>
}

// -----

// A dynamic bf16 width: after the register tiers (up to 16384 columns), the staged tiers (one
// block a row up to 57712 columns, clusters of up to 16 blocks up to 923512: no row_cluster
// tier is wider), then the chunked plan (sm_80: no bulk copies, no clusters, and a dynamic row in
// shared memory needs the full 227 KB of sm_90).
// SM90-LABEL: func.func @dynamic_bf16(
// SM90: #softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 4>, #softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1>, #softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 8, chunks = 8, cluster = 8>, #softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1, cluster = 16>, #softmax.strategy<row_split, lanes = 256, rows = 1, vector = 8, chunks = 4>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]
// SM80-LABEL: func.func @dynamic_bf16(
// SM80-NOT: row_cluster
// SM80-NOT: row_staged
// SM80: #softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 4>, #softmax.strategy<row_split, lanes = 256, rows = 1, vector = 8, chunks = 4>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]
func.func @dynamic_bf16(%x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<?x?xbf16> -> tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}

// -----

// A few rows known statically (at most 16: every cluster at once on the GPU) spread over
// clusters whatever the program (spreading each row over 8 blocks wins on latency: bf16
// 1x128256 8.7 us against 22.8 us), on 512 lanes of 32 values a block.
// SM90-LABEL: func.func @few_rows_bf16(
// SM90: strategies = [#softmax.strategy<row_cluster, lanes = 512, rows = 1, vector = 8, chunks = 4, cluster = 8>]
// SM80-LABEL: func.func @few_rows_bf16(
// SM80: strategies = [#softmax.strategy<row_split, lanes = 256, rows = 1, vector = 8, chunks = 1>]
func.func @few_rows_bf16(%x: tensor<8x128256xbf16>) -> tensor<8x128256xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<8x128256xbf16> -> tensor<8x128256xbf16>
  return %0 : tensor<8x128256xbf16>
}

// -----

// A dynamic f32 width: cluster tiers of 2, 4, 8 and 16 blocks after the register tiers (sm_90; the
// row in shared memory holds fewer columns than the last, so it has no tier); on sm_80 the row
// in shared memory, then the chunked plan.
// SM90-LABEL: func.func @dynamic_f32(
// SM90: #softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 4, chunks = 16>, #softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 16, cluster = 2>, #softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 16, cluster = 4>, #softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 16, cluster = 8>, #softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 16, cluster = 16>, #softmax.strategy<row_split, lanes = 256, rows = 1, vector = 4, chunks = 4>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 4, chunks = 8>]
// SM80-LABEL: func.func @dynamic_f32(
// SM80-NOT: row_cluster
// SM80-NOT: row_staged
// SM80: #softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 4, chunks = 16>, #softmax.strategy<row_split, lanes = 256, rows = 1, vector = 4, chunks = 4>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 4, chunks = 8>]
func.func @dynamic_f32(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<?x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
