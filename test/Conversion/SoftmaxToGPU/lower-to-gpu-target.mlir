// Plans are checked against the limits of the chip the pass compiles for: a row_shared row
// must fit the chip's shared memory (227 KB a block on sm_90, 163 KB on sm_80, 99 KB on sm_86).
// RUN: softmax-opt %s --softmax-lower-to-gpu="chip=sm_86" --split-input-file -verify-diagnostics
// RUN: softmax-opt %s --softmax-lower-to-gpu="chip=sm_90" --split-input-file | FileCheck %s --check-prefix=SM90
// RUN: not softmax-opt %s --softmax-lower-to-gpu="chip=sm_80" --split-input-file 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: not softmax-opt %s --softmax-lower-to-gpu="chip=sm_99" --split-input-file 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// SM90: gpu.func @static_row_0_row_shared
// SM90: gpu.func @dynamic_row_0_row_shared_0
// SM80-NOT: error: {{.*}}for a row of 40000 elements
// SM80: error: 'softmax.fused' op 'strategies' entry 0 (#softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 4, chunks = 8>) needs 231552 bytes of shared memory for the widest row it is dispatched (57856 elements), but sm_80 gives a block at most 166912
// UNKNOWN: error: softmax-lower-to-gpu: unknown chip 'sm_99' (known: sm_80, sm_86, sm_89, sm_90, sm_90a)

func.func @static_row(%x: tensor<4x40000xf32>) -> tensor<4x40000xf32> {
  // expected-error @+1 {{'softmax.fused' op 'strategies' entry 0 (#softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 4, chunks = 8>) needs 160128 bytes of shared memory for a row of 40000 elements, but sm_86 gives a block at most 101376; use chunked_online (softmax-select-strategy chooses for the chip given by its 'chip' option)}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 4, chunks = 8>]} : tensor<4x40000xf32> -> tensor<4x40000xf32>
  return %0 : tensor<4x40000xf32>
}

// -----

// A dynamic width is dispatched to row_shared up to its full capacity, 57856 f32.
func.func @dynamic_row(%x: tensor<4x?xf32>) -> tensor<4x?xf32> {
  // expected-error @+1 {{'softmax.fused' op 'strategies' entry 0 (#softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 4, chunks = 8>) needs 231552 bytes of shared memory for the widest row it is dispatched (57856 elements), but sm_86 gives a block at most 101376}}
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 4, chunks = 8>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 4, chunks = 8>]} : tensor<4x?xf32> -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}
