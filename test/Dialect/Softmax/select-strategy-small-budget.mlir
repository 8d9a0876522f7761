// A register budget too small for any register plan of a dynamic width leaves only the on-chip
// and chunked plans (every plan valid: no chunks = 0), and the program still compiles.
// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-select-strategy{registers-per-thread=65}))' | FileCheck %s
// RUN: softmax-opt %s --pass-pipeline='builtin.module(func.func(softmax-select-strategy{registers-per-thread=65}))' | softmax-opt --pass-pipeline='builtin.module(softmax-lower-to-gpu)' -o /dev/null

// CHECK-LABEL: func.func @dynamic_bf16
// CHECK: strategies = [#softmax.strategy<row_shared, lanes = 512, rows = 1, vector = 8, chunks = 4>, #softmax.strategy<row_split, lanes = 256, rows = 1, vector = 8, chunks = 4>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]
func.func @dynamic_bf16(%x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] : tensor<?x?xbf16> -> tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}
