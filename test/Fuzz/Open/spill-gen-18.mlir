// Open finding (not a test: test/Fuzz/lit.local.cfg excludes Open/): generated program seed 18
// (scripts/softmax_gen.py 18). It compiles, but ptxas spills: dynamic-width f16 padding mask and log_softmax (masked_rows = nan): row_registers_9 spills 12 bytes, multi_row_3 8.
// Plans and register budgets (nvvm.maxnreg) are the pipeline's own choice (softmax-select-strategy).
// Reproduce: softmax-opt --softmax-to-nvvm=ptx-file=F.ptx THIS -o /dev/null && ptxas -arch=sm_90 -v F.ptx
func.func @gen_18(%x: tensor<8x?xf16>, %a1: tensor<8xi32>) -> tensor<8x?xf32> {
  %v0 = softmax.mask %x, padding %a1 axis = -1 fill = -10000.0 : tensor<8x?xf16>, tensor<8xi32>
  %v1 = softmax.log_softmax %v0 axis = -1 masked_rows = nan : tensor<8x?xf16>
  %v2 = softmax.cast %v1 : tensor<8x?xf16> to tensor<8x?xf32>
  return %v2 : tensor<8x?xf32>
}
