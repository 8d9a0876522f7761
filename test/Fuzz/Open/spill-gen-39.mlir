// Open finding (not a test: test/Fuzz/lit.local.cfg excludes Open/): generated program seed 39
// (scripts/softmax_gen.py 39). It compiles, but ptxas spills: dynamic-width bf16 with a boolean mask: register tiers spill (row_registers_11: 316 bytes).
// Plans and register budgets (nvvm.maxnreg) are the pipeline's own choice (softmax-select-strategy).
// Reproduce: softmax-opt --softmax-to-nvvm=ptx-file=F.ptx THIS -o /dev/null && ptxas -arch=sm_90 -v F.ptx
func.func @gen_39(%x: tensor<4x?xbf16>, %a1: tensor<?xi1>) -> tensor<4x?xbf16> {
  %v0 = softmax.cast %x : tensor<4x?xbf16> to tensor<4x?xf16>
  %v1 = softmax.mask %v0, tensor %a1 axis = 1 fill = -10000.0 : tensor<4x?xf16>, tensor<?xi1>
  %v2 = softmax.scale %v1 by 0.088388 : tensor<4x?xf16>
  %v3 = softmax.softmax %v2 axis = 1 masked_rows = zero : tensor<4x?xf16>
  %v4 = softmax.cast %v3 : tensor<4x?xf16> to tensor<4x?xbf16>
  return %v4 : tensor<4x?xbf16>
}
