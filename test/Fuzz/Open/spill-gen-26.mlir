// Open finding (not a test: test/Fuzz/lit.local.cfg excludes Open/): generated program seed 26
// (scripts/softmax_gen.py 26). It compiles, but ptxas spills: dynamic-width f16 with a boolean mask: every register tier spills (row_registers_11: 340 bytes of spill stores).
// Plans and register budgets (nvvm.maxnreg) are the pipeline's own choice (softmax-select-strategy).
// Reproduce: softmax-opt --softmax-to-nvvm=ptx-file=F.ptx THIS -o /dev/null && ptxas -arch=sm_90 -v F.ptx
func.func @gen_26(%x: tensor<64x?xf16>, %a1: tensor<?xi1>, %a2: tensor<64xi32>) -> tensor<64x?xbf16> {
  %v0 = softmax.cast %x : tensor<64x?xf16> to tensor<64x?xf32>
  %v1 = softmax.mask %v0, causal offset = 0 axis = -1 fill = 0.0 : tensor<64x?xf32>
  %v2 = softmax.mask %v1, tensor %a1 axis = -1 fill = -30000.0 : tensor<64x?xf32>, tensor<?xi1>
  %v3 = softmax.mask %v2, padding %a2 axis = -1 : tensor<64x?xf32>, tensor<64xi32>
  %v4 = softmax.softmax %v3 axis = -1 masked_rows = zero : tensor<64x?xf32>
  %v5 = softmax.cast %v4 : tensor<64x?xf32> to tensor<64x?xbf16>
  return %v5 : tensor<64x?xbf16>
}
