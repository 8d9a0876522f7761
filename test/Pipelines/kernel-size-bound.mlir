// The kernel size bound end to end (issue 11: a 3 KB program of a long prologue and hand-written
// plans with large chunk counts took 80 s and 886 MB to compile). A hand-written plan past the
// bound, vector * chunks * (4 + prologue steps) <= 1024 (FusedOp::getUnrolledWork), is rejected
// with a diagnostic; softmax-select-strategy fits the plans it chooses to the bound
// (select-strategy.mlir, @long_prologue_*).
// RUN: not softmax-opt %s --softmax-to-nvvm 2>&1 | FileCheck %s --check-prefix=BOUND

// BOUND: error: 'softmax.fused' op 'strategies' entry 1 (#softmax.strategy<chunked_online, lanes = 256, rows = 1, vector = 8, chunks = 64>) unrolls 512 values a thread through 24 prologue steps: vector * chunks * (4 + steps) = 14336 exceeds the kernel size bound of 1024
func.func @hand_written(%x: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = softmax.fused softmax %x (%b : tensor<?xf32>) axis = 1 prologue [#softmax.scale<1.250000e-01>, #softmax.bias<0>, #softmax.mask<causal, offset = 3, fill = 0xFFF0000000000000>, #softmax.round<bf16>, #softmax.scale<1.250000e-01>, #softmax.bias<0>, #softmax.mask<causal, offset = 3, fill = 0xFFF0000000000000>, #softmax.round<bf16>, #softmax.scale<1.250000e-01>, #softmax.bias<0>, #softmax.mask<causal, offset = 3, fill = 0xFFF0000000000000>, #softmax.round<bf16>, #softmax.scale<1.250000e-01>, #softmax.bias<0>, #softmax.mask<causal, offset = 3, fill = 0xFFF0000000000000>, #softmax.round<bf16>, #softmax.scale<1.250000e-01>, #softmax.bias<0>, #softmax.mask<causal, offset = 3, fill = 0xFFF0000000000000>, #softmax.round<bf16>, #softmax.scale<1.250000e-01>, #softmax.bias<0>, #softmax.mask<causal, offset = 3, fill = 0xFFF0000000000000>, #softmax.round<bf16>] {strategies = [#softmax.strategy<row_registers, lanes = 256, rows = 1, vector = 4, chunks = 8>, #softmax.strategy<chunked_online, lanes = 256, rows = 1, vector = 8, chunks = 64>]} : tensor<?x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
