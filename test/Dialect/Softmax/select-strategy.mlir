// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-select-strategy))' --split-input-file | FileCheck %s

// Plans at and around each threshold (docs/strategies.md has the measurements behind them), for
// f32, f16 and bf16, with M = 65536 rows:
//  - values a thread: f32: 8 for rows of at most 64, 16 up to 4096 columns, 32 up to 8192, 64
//    beyond; 16-bit inputs (pipelined: the next row's raw values are held too): 8 (one vector
//    a lane) up to 4096 columns (65: 16 lanes, 512: 64 lanes in blocks of 4 rows, 1024: 128
//    lanes, 4096: 512 lanes), 16 up to 8192 (4097: 512 lanes of 16), and 512 lanes of 32 at
//    16384;
//  - multi_row while at most 32 lanes cover a row, row_registers while the row fits the
//    registers (values + prefetched raw values + 64 for the rest, TargetInfo.h) up to 16384
//    columns, the widest measured (f32: 256 lanes x 64 values);
//  - f32: row_cluster (sm_90, the default chip) while the fewest blocks of a cluster (at most
//    16) that hold 16384 columns each cover the row, each block the register plan of its
//    ceil(width / blocks) columns (select-strategy-cluster.mlir has the plans of other chips);
//  - row_shared while the row as f32 fits 226 KB of shared memory (57856 elements): 16-bit
//    inputs, and f32 where clusters are not;
//  - chunked_online beyond. The vector is 16 bytes (or the widest power of two a narrower row
//    fills); rows are split at vector boundaries, so any width keeps whole vectors. Static
//    rows of 513-4096 columns (16-bit) or 513-1280 (f32) take the widest vector that divides
//    the width, so that every row starts on a vector boundary (f32: 1 or 2 elements, 16-bit:
//    4, with 16 values a thread on the whole warps they fill and one row a block); @aligned_*
//    below. 16-bit rows that no vector of 4 divides (odd widths, 1002) take vectors of 4 too,
//    in the general kernel (@n513_bf16, @n1025_bf16, @n1002_bf16).

// CHECK-LABEL: func.func @n1_f32(
// CHECK: strategies = [#softmax.strategy<multi_row, lanes = 1, rows = 128, vector = 1, chunks = 1>]
func.func @n1_f32(%x: tensor<65536x1xf32>) -> tensor<65536x1xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x1xf32> -> tensor<65536x1xf32>
  return %0 : tensor<65536x1xf32>
}

// -----

// CHECK-LABEL: func.func @n31_f32(
// CHECK: strategies = [#softmax.strategy<multi_row, lanes = 4, rows = 64, vector = 4, chunks = 2>]
func.func @n31_f32(%x: tensor<65536x31xf32>) -> tensor<65536x31xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x31xf32> -> tensor<65536x31xf32>
  return %0 : tensor<65536x31xf32>
}

// -----

// CHECK-LABEL: func.func @n32_f32(
// CHECK: strategies = [#softmax.strategy<multi_row, lanes = 4, rows = 64, vector = 4, chunks = 2>]
func.func @n32_f32(%x: tensor<65536x32xf32>) -> tensor<65536x32xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x32xf32> -> tensor<65536x32xf32>
  return %0 : tensor<65536x32xf32>
}

// -----

// CHECK-LABEL: func.func @n33_f32(
// CHECK: strategies = [#softmax.strategy<multi_row, lanes = 8, rows = 32, vector = 4, chunks = 2>]
func.func @n33_f32(%x: tensor<65536x33xf32>) -> tensor<65536x33xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x33xf32> -> tensor<65536x33xf32>
  return %0 : tensor<65536x33xf32>
}

// -----

// CHECK-LABEL: func.func @n64_f32(
// CHECK: strategies = [#softmax.strategy<multi_row, lanes = 8, rows = 32, vector = 4, chunks = 2>]
func.func @n64_f32(%x: tensor<65536x64xf32>) -> tensor<65536x64xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x64xf32> -> tensor<65536x64xf32>
  return %0 : tensor<65536x64xf32>
}

// -----

// CHECK-LABEL: func.func @n65_f32(
// CHECK: strategies = [#softmax.strategy<multi_row, lanes = 8, rows = 32, vector = 4, chunks = 3>]
func.func @n65_f32(%x: tensor<65536x65xf32>) -> tensor<65536x65xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x65xf32> -> tensor<65536x65xf32>
  return %0 : tensor<65536x65xf32>
}

// -----

// CHECK-LABEL: func.func @n512_f32(
// CHECK: strategies = [#softmax.strategy<multi_row, lanes = 32, rows = 8, vector = 4, chunks = 4>]
func.func @n512_f32(%x: tensor<65536x512xf32>) -> tensor<65536x512xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x512xf32> -> tensor<65536x512xf32>
  return %0 : tensor<65536x512xf32>
}

// -----

// CHECK-LABEL: func.func @n513_f32(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 4, vector = 1, chunks = 9>]
func.func @n513_f32(%x: tensor<65536x513xf32>) -> tensor<65536x513xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x513xf32> -> tensor<65536x513xf32>
  return %0 : tensor<65536x513xf32>
}

// -----

// CHECK-LABEL: func.func @n1024_f32(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 4, vector = 4, chunks = 4>]
func.func @n1024_f32(%x: tensor<65536x1024xf32>) -> tensor<65536x1024xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x1024xf32> -> tensor<65536x1024xf32>
  return %0 : tensor<65536x1024xf32>
}

// -----

// CHECK-LABEL: func.func @n1025_f32(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 128, rows = 2, vector = 1, chunks = 9>]
func.func @n1025_f32(%x: tensor<65536x1025xf32>) -> tensor<65536x1025xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x1025xf32> -> tensor<65536x1025xf32>
  return %0 : tensor<65536x1025xf32>
}

// -----

// CHECK-LABEL: func.func @n4096_f32(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 4, chunks = 4>]
func.func @n4096_f32(%x: tensor<65536x4096xf32>) -> tensor<65536x4096xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x4096xf32> -> tensor<65536x4096xf32>
  return %0 : tensor<65536x4096xf32>
}

// -----

// CHECK-LABEL: func.func @n4097_f32(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 224, rows = 1, vector = 4, chunks = 5>]
func.func @n4097_f32(%x: tensor<65536x4097xf32>) -> tensor<65536x4097xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x4097xf32> -> tensor<65536x4097xf32>
  return %0 : tensor<65536x4097xf32>
}

// -----

// CHECK-LABEL: func.func @n16384_f32(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 4, chunks = 16>]
func.func @n16384_f32(%x: tensor<65536x16384xf32>) -> tensor<65536x16384xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x16384xf32> -> tensor<65536x16384xf32>
  return %0 : tensor<65536x16384xf32>
}

// -----

// CHECK-LABEL: func.func @n16385_f32(
// CHECK: strategies = [#softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 9, cluster = 2>]
func.func @n16385_f32(%x: tensor<65536x16385xf32>) -> tensor<65536x16385xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x16385xf32> -> tensor<65536x16385xf32>
  return %0 : tensor<65536x16385xf32>
}

// -----

// CHECK-LABEL: func.func @n57856_f32(
// CHECK: strategies = [#softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 15, cluster = 4>]
func.func @n57856_f32(%x: tensor<65536x57856xf32>) -> tensor<65536x57856xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x57856xf32> -> tensor<65536x57856xf32>
  return %0 : tensor<65536x57856xf32>
}

// -----

// CHECK-LABEL: func.func @n57864_f32(
// CHECK: strategies = [#softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 15, cluster = 4>]
func.func @n57864_f32(%x: tensor<65536x57864xf32>) -> tensor<65536x57864xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x57864xf32> -> tensor<65536x57864xf32>
  return %0 : tensor<65536x57864xf32>
}

// -----

// CHECK-LABEL: func.func @n1_f16(
// CHECK: strategies = [#softmax.strategy<multi_row, lanes = 1, rows = 128, vector = 1, chunks = 1>]
func.func @n1_f16(%x: tensor<65536x1xf16>) -> tensor<65536x1xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x1xf16> -> tensor<65536x1xf16>
  return %0 : tensor<65536x1xf16>
}

// -----

// CHECK-LABEL: func.func @n31_f16(
// CHECK: strategies = [#softmax.strategy<multi_row, lanes = 4, rows = 64, vector = 8, chunks = 1>]
func.func @n31_f16(%x: tensor<65536x31xf16>) -> tensor<65536x31xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x31xf16> -> tensor<65536x31xf16>
  return %0 : tensor<65536x31xf16>
}

// -----

// CHECK-LABEL: func.func @n32_f16(
// CHECK: strategies = [#softmax.strategy<multi_row, lanes = 4, rows = 64, vector = 8, chunks = 1>]
func.func @n32_f16(%x: tensor<65536x32xf16>) -> tensor<65536x32xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x32xf16> -> tensor<65536x32xf16>
  return %0 : tensor<65536x32xf16>
}

// -----

// CHECK-LABEL: func.func @n33_f16(
// CHECK: strategies = [#softmax.strategy<multi_row, lanes = 8, rows = 32, vector = 8, chunks = 1>]
func.func @n33_f16(%x: tensor<65536x33xf16>) -> tensor<65536x33xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x33xf16> -> tensor<65536x33xf16>
  return %0 : tensor<65536x33xf16>
}

// -----

// CHECK-LABEL: func.func @n64_f16(
// CHECK: strategies = [#softmax.strategy<multi_row, lanes = 8, rows = 32, vector = 8, chunks = 1>]
func.func @n64_f16(%x: tensor<65536x64xf16>) -> tensor<65536x64xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x64xf16> -> tensor<65536x64xf16>
  return %0 : tensor<65536x64xf16>
}

// -----

// CHECK-LABEL: func.func @n65_f16(
// CHECK: strategies = [#softmax.strategy<multi_row, lanes = 16, rows = 16, vector = 8, chunks = 1>]
func.func @n65_f16(%x: tensor<65536x65xf16>) -> tensor<65536x65xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x65xf16> -> tensor<65536x65xf16>
  return %0 : tensor<65536x65xf16>
}

// -----

// CHECK-LABEL: func.func @n512_f16(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 4, vector = 8, chunks = 1>]
func.func @n512_f16(%x: tensor<65536x512xf16>) -> tensor<65536x512xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x512xf16> -> tensor<65536x512xf16>
  return %0 : tensor<65536x512xf16>
}

// -----

// CHECK-LABEL: func.func @n513_f16(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 1, vector = 4, chunks = 4>]
func.func @n513_f16(%x: tensor<65536x513xf16>) -> tensor<65536x513xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x513xf16> -> tensor<65536x513xf16>
  return %0 : tensor<65536x513xf16>
}

// -----

// CHECK-LABEL: func.func @n1024_f16(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 128, rows = 2, vector = 8, chunks = 1>]
func.func @n1024_f16(%x: tensor<65536x1024xf16>) -> tensor<65536x1024xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x1024xf16> -> tensor<65536x1024xf16>
  return %0 : tensor<65536x1024xf16>
}

// -----

// CHECK-LABEL: func.func @n1025_f16(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 96, rows = 1, vector = 4, chunks = 4>]
func.func @n1025_f16(%x: tensor<65536x1025xf16>) -> tensor<65536x1025xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x1025xf16> -> tensor<65536x1025xf16>
  return %0 : tensor<65536x1025xf16>
}

// -----

// CHECK-LABEL: func.func @n4096_f16(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 1>]
func.func @n4096_f16(%x: tensor<65536x4096xf16>) -> tensor<65536x4096xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x4096xf16> -> tensor<65536x4096xf16>
  return %0 : tensor<65536x4096xf16>
}

// -----

// CHECK-LABEL: func.func @n4097_f16(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 288, rows = 1, vector = 8, chunks = 2>]
func.func @n4097_f16(%x: tensor<65536x4097xf16>) -> tensor<65536x4097xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x4097xf16> -> tensor<65536x4097xf16>
  return %0 : tensor<65536x4097xf16>
}

// -----

// CHECK-LABEL: func.func @n16384_f16(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 4>]
func.func @n16384_f16(%x: tensor<65536x16384xf16>) -> tensor<65536x16384xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x16384xf16> -> tensor<65536x16384xf16>
  return %0 : tensor<65536x16384xf16>
}

// -----

// Beyond 16384 columns a plain 16-bit softmax is staged in shared memory as stored, on one
// block up to 57712 columns and over a cluster beyond (select-strategy-staged.mlir); the bf16 rows below, scaled, show the
// row_shared threshold that the other 16-bit programs keep.
// CHECK-LABEL: func.func @n16385_f16(
// CHECK: strategies = [#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1>]
func.func @n16385_f16(%x: tensor<65536x16385xf16>) -> tensor<65536x16385xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x16385xf16> -> tensor<65536x16385xf16>
  return %0 : tensor<65536x16385xf16>
}

// -----

// CHECK-LABEL: func.func @n57856_f16(
// CHECK: strategies = [#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1>]
func.func @n57856_f16(%x: tensor<65536x57856xf16>) -> tensor<65536x57856xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x57856xf16> -> tensor<65536x57856xf16>
  return %0 : tensor<65536x57856xf16>
}

// -----

// CHECK-LABEL: func.func @n57864_f16(
// CHECK: strategies = [#softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1>]
func.func @n57864_f16(%x: tensor<65536x57864xf16>) -> tensor<65536x57864xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x57864xf16> -> tensor<65536x57864xf16>
  return %0 : tensor<65536x57864xf16>
}

// -----

// CHECK-LABEL: func.func @n1_bf16(
// CHECK: strategies = [#softmax.strategy<multi_row, lanes = 1, rows = 128, vector = 1, chunks = 1>]
func.func @n1_bf16(%x: tensor<65536x1xbf16>) -> tensor<65536x1xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x1xbf16> -> tensor<65536x1xbf16>
  return %0 : tensor<65536x1xbf16>
}

// -----

// CHECK-LABEL: func.func @n31_bf16(
// CHECK: strategies = [#softmax.strategy<multi_row, lanes = 4, rows = 64, vector = 8, chunks = 1>]
func.func @n31_bf16(%x: tensor<65536x31xbf16>) -> tensor<65536x31xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x31xbf16> -> tensor<65536x31xbf16>
  return %0 : tensor<65536x31xbf16>
}

// -----

// CHECK-LABEL: func.func @n32_bf16(
// CHECK: strategies = [#softmax.strategy<multi_row, lanes = 4, rows = 64, vector = 8, chunks = 1>]
func.func @n32_bf16(%x: tensor<65536x32xbf16>) -> tensor<65536x32xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x32xbf16> -> tensor<65536x32xbf16>
  return %0 : tensor<65536x32xbf16>
}

// -----

// CHECK-LABEL: func.func @n33_bf16(
// CHECK: strategies = [#softmax.strategy<multi_row, lanes = 8, rows = 32, vector = 8, chunks = 1>]
func.func @n33_bf16(%x: tensor<65536x33xbf16>) -> tensor<65536x33xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x33xbf16> -> tensor<65536x33xbf16>
  return %0 : tensor<65536x33xbf16>
}

// -----

// CHECK-LABEL: func.func @n64_bf16(
// CHECK: strategies = [#softmax.strategy<multi_row, lanes = 8, rows = 32, vector = 8, chunks = 1>]
func.func @n64_bf16(%x: tensor<65536x64xbf16>) -> tensor<65536x64xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x64xbf16> -> tensor<65536x64xbf16>
  return %0 : tensor<65536x64xbf16>
}

// -----

// CHECK-LABEL: func.func @n65_bf16(
// CHECK: strategies = [#softmax.strategy<multi_row, lanes = 16, rows = 16, vector = 8, chunks = 1>]
func.func @n65_bf16(%x: tensor<65536x65xbf16>) -> tensor<65536x65xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x65xbf16> -> tensor<65536x65xbf16>
  return %0 : tensor<65536x65xbf16>
}

// -----

// CHECK-LABEL: func.func @n512_bf16(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 4, vector = 8, chunks = 1>]
func.func @n512_bf16(%x: tensor<65536x512xbf16>) -> tensor<65536x512xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x512xbf16> -> tensor<65536x512xbf16>
  return %0 : tensor<65536x512xbf16>
}

// -----

// CHECK-LABEL: func.func @n513_bf16(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 1, vector = 4, chunks = 4>]
func.func @n513_bf16(%x: tensor<65536x513xbf16>) -> tensor<65536x513xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x513xbf16> -> tensor<65536x513xbf16>
  return %0 : tensor<65536x513xbf16>
}

// -----

// CHECK-LABEL: func.func @n1024_bf16(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 128, rows = 2, vector = 8, chunks = 1>]
func.func @n1024_bf16(%x: tensor<65536x1024xbf16>) -> tensor<65536x1024xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x1024xbf16> -> tensor<65536x1024xbf16>
  return %0 : tensor<65536x1024xbf16>
}

// -----

// CHECK-LABEL: func.func @n1025_bf16(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 96, rows = 1, vector = 4, chunks = 4>]
func.func @n1025_bf16(%x: tensor<65536x1025xbf16>) -> tensor<65536x1025xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x1025xbf16> -> tensor<65536x1025xbf16>
  return %0 : tensor<65536x1025xbf16>
}

// -----

// CHECK-LABEL: func.func @n4096_bf16(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 1>]
func.func @n4096_bf16(%x: tensor<65536x4096xbf16>) -> tensor<65536x4096xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x4096xbf16> -> tensor<65536x4096xbf16>
  return %0 : tensor<65536x4096xbf16>
}

// -----

// CHECK-LABEL: func.func @n4097_bf16(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 288, rows = 1, vector = 8, chunks = 2>]
func.func @n4097_bf16(%x: tensor<65536x4097xbf16>) -> tensor<65536x4097xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x4097xbf16> -> tensor<65536x4097xbf16>
  return %0 : tensor<65536x4097xbf16>
}

// -----

// CHECK-LABEL: func.func @n16384_bf16(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 4>]
func.func @n16384_bf16(%x: tensor<65536x16384xbf16>) -> tensor<65536x16384xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x16384xbf16> -> tensor<65536x16384xbf16>
  return %0 : tensor<65536x16384xbf16>
}

// -----

// CHECK-LABEL: func.func @n16385_bf16(
// CHECK: strategies = [#softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 8, chunks = 4>]
func.func @n16385_bf16(%x: tensor<65536x16385xbf16>) -> tensor<65536x16385xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<0.5>] : tensor<65536x16385xbf16> -> tensor<65536x16385xbf16>
  return %0 : tensor<65536x16385xbf16>
}

// -----

// CHECK-LABEL: func.func @n57856_bf16(
// CHECK: strategies = [#softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 8, chunks = 4>]
func.func @n57856_bf16(%x: tensor<65536x57856xbf16>) -> tensor<65536x57856xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<0.5>] : tensor<65536x57856xbf16> -> tensor<65536x57856xbf16>
  return %0 : tensor<65536x57856xbf16>
}

// -----

// CHECK-LABEL: func.func @n57864_bf16(
// CHECK: strategies = [#softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]
func.func @n57864_bf16(%x: tensor<65536x57864xbf16>) -> tensor<65536x57864xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<0.5>] : tensor<65536x57864xbf16> -> tensor<65536x57864xbf16>
  return %0 : tensor<65536x57864xbf16>
}

// -----
// A dynamic width gets one variant a power of two (8, 16, ..., the register limit: each the plan a
// static width at the top of its tier gets), row_shared (or, on sm_90, the cluster tiers of
// f32 and of a plain 16-bit softmax: select-strategy-cluster.mlir), and a final chunked_online plan; the
// host code dispatches on N. The vector is the widest, checked for alignment at run time. The
// tiers serving widths that a static width puts on a narrower vector (513-1280 columns of f32,
// 513-4096 of 16 bits, where the widest does not divide them) list their plans on those vectors
// after the tier's own, of the same span, with one row a block: the tier's alternatives (f32
// vectors of 2 and 1, 16-bit vectors of 4). Between the 16-bit tiers, tiers of their
// alternative's 16 values a thread on fewer whole warps (@dynamic_bf16: 96 lanes between 1024
// and 2048 columns; 160, 192, 224 between 2048 and 4096), the plans static widths there get.
// CHECK-LABEL: func.func @dynamic_f32(
// CHECK: strategies = [#softmax.strategy<multi_row, lanes = 1, rows = 256, vector = 4, chunks = 2>, #softmax.strategy<multi_row, lanes = 2, rows = 128, vector = 4, chunks = 2>, #softmax.strategy<multi_row, lanes = 4, rows = 64, vector = 4, chunks = 2>, #softmax.strategy<multi_row, lanes = 8, rows = 32, vector = 4, chunks = 2>, #softmax.strategy<multi_row, lanes = 8, rows = 32, vector = 4, chunks = 4>, #softmax.strategy<multi_row, lanes = 16, rows = 16, vector = 4, chunks = 4>, #softmax.strategy<multi_row, lanes = 32, rows = 8, vector = 4, chunks = 4>, #softmax.strategy<row_registers, lanes = 64, rows = 4, vector = 4, chunks = 4>, #softmax.strategy<row_registers, lanes = 64, rows = 1, vector = 2, chunks = 8>, #softmax.strategy<row_registers, lanes = 64, rows = 1, vector = 1, chunks = 16>, #softmax.strategy<row_registers, lanes = 128, rows = 2, vector = 4, chunks = 4>, #softmax.strategy<row_registers, lanes = 128, rows = 1, vector = 2, chunks = 8>, #softmax.strategy<row_registers, lanes = 128, rows = 1, vector = 1, chunks = 16>, #softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 4, chunks = 4>, #softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 4, chunks = 8>, #softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 4, chunks = 16>, #softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 16, cluster = 2>, #softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 16, cluster = 4>, #softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 16, cluster = 8>, #softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 4, chunks = 16, cluster = 16>, #softmax.strategy<row_split, lanes = 256, rows = 1, vector = 4, chunks = 4>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 4, chunks = 8>]
func.func @dynamic_f32(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<?x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @dynamic_bf16(
// CHECK: strategies = [#softmax.strategy<multi_row, lanes = 1, rows = 256, vector = 8, chunks = 1>, #softmax.strategy<multi_row, lanes = 2, rows = 128, vector = 8, chunks = 1>, #softmax.strategy<multi_row, lanes = 4, rows = 64, vector = 8, chunks = 1>, #softmax.strategy<multi_row, lanes = 8, rows = 32, vector = 8, chunks = 1>, #softmax.strategy<multi_row, lanes = 16, rows = 16, vector = 8, chunks = 1>, #softmax.strategy<multi_row, lanes = 32, rows = 8, vector = 8, chunks = 1>, #softmax.strategy<row_registers, lanes = 64, rows = 4, vector = 8, chunks = 1>, #softmax.strategy<row_registers, lanes = 128, rows = 2, vector = 8, chunks = 1>, #softmax.strategy<row_registers, lanes = 64, rows = 1, vector = 4, chunks = 4>, #softmax.strategy<row_registers, lanes = 96, rows = 1, vector = 4, chunks = 4>, #softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 8, chunks = 1>, #softmax.strategy<row_registers, lanes = 128, rows = 1, vector = 4, chunks = 4>, #softmax.strategy<row_registers, lanes = 160, rows = 1, vector = 4, chunks = 4>, #softmax.strategy<row_registers, lanes = 192, rows = 1, vector = 4, chunks = 4>, #softmax.strategy<row_registers, lanes = 224, rows = 1, vector = 4, chunks = 4>, #softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 1>, #softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 4, chunks = 4>, #softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 2>, #softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 3>, #softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 4>, #softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1>, #softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 8, chunks = 8, cluster = 8>, #softmax.strategy<row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1, cluster = 16>, #softmax.strategy<row_split, lanes = 256, rows = 1, vector = 8, chunks = 4>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]
func.func @dynamic_bf16(%x: tensor<64x?xbf16>) -> tensor<64x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<64x?xbf16> -> tensor<64x?xbf16>
  return %0 : tensor<64x?xbf16>
}

// -----

// Few rows: fewer rows a block, so that every multiprocessor gets work.
// CHECK-LABEL: func.func @few_rows(
// CHECK: strategies = [#softmax.strategy<multi_row, lanes = 8, rows = 4, vector = 4, chunks = 4>]
func.func @few_rows(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<64x128xf32> -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// -----

// The output type counts too: an f32 -> f16 softmax moves 16-byte vectors of 4.
// CHECK-LABEL: func.func @mixed_types(
// CHECK: vector = 4
func.func @mixed_types(%x: tensor<64x1024xf16>) -> tensor<64x1024xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<64x1024xf16> -> tensor<64x1024xf32>
  return %0 : tensor<64x1024xf32>
}

// -----

// A hand-written plan is kept.
// CHECK-LABEL: func.func @hand_written(
// CHECK: strategies = [#softmax.strategy<chunked_online, lanes = 256, rows = 1, vector = 4, chunks = 2>]
func.func @hand_written(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<chunked_online, lanes = 256, rows = 1, vector = 4, chunks = 2>]} : tensor<64x1024xf32> -> tensor<64x1024xf32>
  return %0 : tensor<64x1024xf32>
}


// -----

// A zero-width row never launches (the host code skips empty tensors), but its plan is still a
// valid one: one column, chunks >= 1.
// CHECK-LABEL: func.func @zero_width(
// CHECK: strategies = [#softmax.strategy<multi_row, lanes = 1, rows = 32, vector = 1, chunks = 1>]
func.func @zero_width(%x: tensor<4x0xf32>) -> tensor<4x0xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<4x0xf32> -> tensor<4x0xf32>
  return %0 : tensor<4x0xf32>
}

// -----

// 16-bit rows cut short by a -inf causal or padding mask (their removed lanes are not read) keep
// 32 values a thread: 64 lanes of 32 at 2048 columns, where an unmasked row takes 256 lanes of 8.
// A finite fill reads every lane, so it takes the unmasked plan.
// CHECK-LABEL: func.func @causal_bf16(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 4, vector = 8, chunks = 4>]
func.func @causal_bf16(%x: tensor<4096x2048xbf16>) -> tensor<4096x2048xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<1.250000e-01>, #softmax.mask<causal, fill = 0xFFF0000000000000>] : tensor<4096x2048xbf16> -> tensor<4096x2048xbf16>
  return %0 : tensor<4096x2048xbf16>
}
// CHECK-LABEL: func.func @padding_bf16(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 4, vector = 8, chunks = 4>]
func.func @padding_bf16(%x: tensor<4096x2048xbf16>, %len: tensor<4096xi32>) -> tensor<4096x2048xbf16> {
  %0 = softmax.fused softmax %x(%len : tensor<4096xi32>) axis = 1 prologue [#softmax.mask<padding, operand = 0, fill = 0xFFF0000000000000>] : tensor<4096x2048xbf16> -> tensor<4096x2048xbf16>
  return %0 : tensor<4096x2048xbf16>
}
// CHECK-LABEL: func.func @causal_fill_bf16(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 8, chunks = 1>]
func.func @causal_fill_bf16(%x: tensor<4096x2048xbf16>) -> tensor<4096x2048xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.mask<causal, fill = -1.000000e+04>] : tensor<4096x2048xbf16> -> tensor<4096x2048xbf16>
  return %0 : tensor<4096x2048xbf16>
}

// -----

// Rows off the widest vector's boundary (static widths of 513-4096 columns in 16 bits, 513-1280
// in f32): the widest vector that divides the width, 16-bit vectors of 4 with 16 values a
// thread on the whole warps they fill (96 lanes for 1100) and one row a block; wider f32 rows
// (1537, where the general kernel measured faster) keep the widest.
// CHECK-LABEL: func.func @aligned_bf16_1100(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 96, rows = 1, vector = 4, chunks = 4>]
func.func @aligned_bf16_1100(%x: tensor<65536x1100xbf16>) -> tensor<65536x1100xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x1100xbf16> -> tensor<65536x1100xbf16>
  return %0 : tensor<65536x1100xbf16>
}

// -----

// log_softmax keeps its values to the end: 8 a thread on the narrower vector (12 spilled).
// CHECK-LABEL: func.func @aligned_log_bf16_1100(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 160, rows = 1, vector = 4, chunks = 2>]
func.func @aligned_log_bf16_1100(%x: tensor<65536x1100xbf16>) -> tensor<65536x1100xbf16> {
  %0 = softmax.fused log_softmax %x axis = 1 prologue [] : tensor<65536x1100xbf16> -> tensor<65536x1100xbf16>
  return %0 : tensor<65536x1100xbf16>
}

// -----

// CHECK-LABEL: func.func @aligned_f16_3500(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 224, rows = 1, vector = 4, chunks = 4>]
func.func @aligned_f16_3500(%x: tensor<65536x3500xf16>) -> tensor<65536x3500xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x3500xf16> -> tensor<65536x3500xf16>
  return %0 : tensor<65536x3500xf16>
}

// -----

// CHECK-LABEL: func.func @aligned_f32_1026(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 128, rows = 2, vector = 2, chunks = 5>]
func.func @aligned_f32_1026(%x: tensor<65536x1026xf32>) -> tensor<65536x1026xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x1026xf32> -> tensor<65536x1026xf32>
  return %0 : tensor<65536x1026xf32>
}

// -----

// CHECK-LABEL: func.func @n1002_bf16(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 1, vector = 4, chunks = 4>]
func.func @n1002_bf16(%x: tensor<65536x1002xbf16>) -> tensor<65536x1002xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x1002xbf16> -> tensor<65536x1002xbf16>
  return %0 : tensor<65536x1002xbf16>
}

// -----

// CHECK-LABEL: func.func @widest_bf16_5004(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 320, rows = 1, vector = 8, chunks = 2>]
func.func @widest_bf16_5004(%x: tensor<65536x5004xbf16>) -> tensor<65536x5004xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x5004xbf16> -> tensor<65536x5004xbf16>
  return %0 : tensor<65536x5004xbf16>
}

// -----

// CHECK-LABEL: func.func @widest_f32_1537(
// CHECK: strategies = [#softmax.strategy<row_registers, lanes = 128, rows = 2, vector = 4, chunks = 4>]
func.func @widest_f32_1537(%x: tensor<65536x1537xf32>) -> tensor<65536x1537xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<65536x1537xf32> -> tensor<65536x1537xf32>
  return %0 : tensor<65536x1537xf32>
}

// -----

// A prologue so long that a plan holding 64 values a thread would unroll past the kernel size
// bound (64 * (4 + 13) = 1088 > 1024, FusedOp::getUnrolledWork): the static 16384-column row,
// a 64-value register plan with a short chain, goes to chunked_online; the dynamic width loses
// its 16384-column tier (the 8192 one, 32 values, stays).
// CHECK-LABEL: func.func @long_prologue_static
// CHECK: strategies = [#softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 4, chunks = 8>]
// CHECK-LABEL: func.func @long_prologue_dynamic
// CHECK: #softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 4, chunks = 8>, #softmax.strategy<row_split, lanes = 256, rows = 1, vector = 4, chunks = 4>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 4, chunks = 8>]}
func.func @long_prologue_static(%x: tensor<64x16384xf32>) -> tensor<64x16384xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>] : tensor<64x16384xf32> -> tensor<64x16384xf32>
  return %0 : tensor<64x16384xf32>
}
func.func @long_prologue_dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>] : tensor<?x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// 300 steps: the span shrinks to one vector of 2 a thread (2 * 304 = 608).
// CHECK-LABEL: func.func @very_long_prologue
// CHECK: strategies = [#softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 2, chunks = 1>]
func.func @very_long_prologue(%x: tensor<64x16384xf32>) -> tensor<64x16384xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>, #softmax.scale<1.0e-1>] : tensor<64x16384xf32> -> tensor<64x16384xf32>
  return %0 : tensor<64x16384xf32>
}
