// Open finding (not a test: test/Fuzz/lit.local.cfg excludes Open/): generated program seed 87
// (scripts/softmax_gen.py 87). It compiles, but ptxas spills: dynamic-width f16 with a bf16 bias, a scale and a padding mask: every tier spills, up to 460 bytes (row_registers_11).
// Plans and register budgets (nvvm.maxnreg) are the pipeline's own choice (softmax-select-strategy).
// Reproduce: softmax-opt --softmax-to-nvvm=ptx-file=F.ptx THIS -o /dev/null && ptxas -arch=sm_90 -v F.ptx
func.func @gen_87(%x: tensor<64x?xf16>, %a1: tensor<?xbf16>, %a2: tensor<64xi32>) -> tensor<64x?xf16> {
  %v0 = softmax.add_bias %x, %a1 : tensor<64x?xf16>, tensor<?xbf16>
  %v1 = softmax.scale %v0 by 0.088388 : tensor<64x?xf16>
  %v2 = softmax.mask %v1, padding %a2 axis = -1 : tensor<64x?xf16>, tensor<64xi32>
  %v3 = softmax.softmax %v2 axis = -1 masked_rows = zero : tensor<64x?xf16>
  return %v3 : tensor<64x?xf16>
}
