// A two-pass plan (chunked_online, row_shared) holds a span's values in registers: a plan whose
// estimate (getRowKernelRegisterNeed: half the span's values and 48, the values past 32 whole,
// side operands) passes what a block of its threads may have is rejected before any code is
// made. ptxas spilled such hand-written plans 208-356 bytes (docs/fuzzing.md).
// RUN: softmax-opt %s --softmax-lower-to-gpu --split-input-file -verify-diagnostics
// RUN: not softmax-opt %s --softmax-lower-to-gpu --split-input-file 2>/dev/null | FileCheck %s

// 64 values a span on 1024 threads: 96 registers, where a block of 1024 leaves 64.
func.func @wide_span(%x: tensor<8x65536xf32>) -> tensor<8x65536xf32> {
  // expected-error @+1 {{'softmax.fused' op 'strategies' entry 0 (#softmax.strategy<chunked_online, lanes = 1024, rows = 1, vector = 8, chunks = 8>) needs about 96 registers a thread for its 64 values a span, but a block of 1024 threads leaves 64 on sm_90; use fewer values a span (vector x chunks) or fewer threads a block}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<chunked_online, lanes = 1024, rows = 1, vector = 8, chunks = 8>]} : tensor<8x65536xf32> -> tensor<8x65536xf32>
  return %0 : tensor<8x65536xf32>
}

// -----

// Rows of a block count: 256 lanes x 4 rows is a block of 1024 too; row_shared as well.
func.func @rows(%x: tensor<8x57856xf32>) -> tensor<8x57856xf32> {
  // expected-error @+1 {{'strategies' entry 0 (#softmax.strategy<chunked_online, lanes = 256, rows = 4, vector = 8, chunks = 8>) needs about 96 registers}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<chunked_online, lanes = 256, rows = 4, vector = 8, chunks = 8>]} : tensor<8x57856xf32> -> tensor<8x57856xf32>
  return %0 : tensor<8x57856xf32>
}

// -----

func.func @shared(%x: tensor<8x40000xf32>) -> tensor<8x40000xf32> {
  // expected-error @+1 {{'strategies' entry 0 (#softmax.strategy<row_shared, lanes = 1024, rows = 1, vector = 8, chunks = 8>) needs about 96 registers}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_shared, lanes = 1024, rows = 1, vector = 8, chunks = 8>]} : tensor<8x40000xf32> -> tensor<8x40000xf32>
  return %0 : tensor<8x40000xf32>
}

// -----

// Side operands along the row count: 32 values and an f32 and a bf16 bias need 70.
func.func @side_operands(%x: tensor<17x?xf32>, %a: tensor<?xbf16>, %b: tensor<17x?xf32>) -> tensor<17x?xf32> {
  // expected-error @+1 {{'strategies' entry 0 (#softmax.strategy<chunked_online, lanes = 512, rows = 2, vector = 8, chunks = 4>) needs about 70 registers a thread for its 32 values a span, but a block of 1024 threads leaves 64}}
  %0 = softmax.fused softmax %x(%a, %b : tensor<?xbf16>, tensor<17x?xf32>) axis = 1 prologue [#softmax.bias<0>, #softmax.bias<1>] {strategies = [#softmax.strategy<chunked_online, lanes = 512, rows = 2, vector = 8, chunks = 4>]} : tensor<17x?xf32> -> tensor<17x?xf32>
  return %0 : tensor<17x?xf32>
}

// -----

// The same spans on blocks that leave room are lowered: 64 values on 512 threads (128 a
// thread), 16 values on 1024 (56 of 64).
// CHECK: gpu.func @half_block_0_chunked_online(
// CHECK: gpu.func @small_span_0_chunked_online(
func.func @half_block(%x: tensor<8x65536xf32>) -> tensor<8x65536xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 8>]} : tensor<8x65536xf32> -> tensor<8x65536xf32>
  return %0 : tensor<8x65536xf32>
}
func.func @small_span(%x: tensor<8x65536xf32>) -> tensor<8x65536xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<chunked_online, lanes = 1024, rows = 1, vector = 4, chunks = 4>]} : tensor<8x65536xf32> -> tensor<8x65536xf32>
  return %0 : tensor<8x65536xf32>
}
