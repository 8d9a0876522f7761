// Open finding (not a test: test/Fuzz/lit.local.cfg excludes Open/): generated program seed 50
// (scripts/softmax_gen.py 50). It compiles, but ptxas spills: static 20000-wide bf16 with an f32 bias: the row_shared kernel spills 24 bytes.
// Plans and register budgets (nvvm.maxnreg) are the pipeline's own choice (softmax-select-strategy).
// Reproduce: softmax-opt --softmax-to-nvvm=ptx-file=F.ptx THIS -o /dev/null && ptxas -arch=sm_90 -v F.ptx
func.func @gen_50(%x: tensor<4x8x?x20000xbf16>, %a1: tensor<8x1x20000xf32>) -> tensor<4x8x?x20000xf32> {
  %v0 = softmax.cast %x : tensor<4x8x?x20000xbf16> to tensor<4x8x?x20000xf32>
  %v1 = softmax.add_bias %v0, %a1 : tensor<4x8x?x20000xf32>, tensor<8x1x20000xf32>
  %v2 = softmax.log_softmax %v1 axis = 3 masked_rows = nan : tensor<4x8x?x20000xf32>
  return %v2 : tensor<4x8x?x20000xf32>
}
