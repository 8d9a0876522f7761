// Open finding (not a test: test/Fuzz/lit.local.cfg excludes Open/): generated program seed 40
// (scripts/softmax_gen.py 40). It compiles, but ptxas spills: static 60000-wide f16 with a boolean mask: the chunked_online kernel spills 16 bytes.
// Plans and register budgets (nvvm.maxnreg) are the pipeline's own choice (softmax-select-strategy).
// Reproduce: softmax-opt --softmax-to-nvvm=ptx-file=F.ptx THIS -o /dev/null && ptxas -arch=sm_90 -v F.ptx
func.func @gen_40(%x: tensor<?x4x?x60000xf16>, %a1: tensor<60000xi1>) -> tensor<?x4x?x60000xf16> {
  %v0 = softmax.mask %x, tensor %a1 axis = -1 : tensor<?x4x?x60000xf16>, tensor<60000xi1>
  %v1 = softmax.mask %v0, causal offset = 100 axis = -1 fill = -30000.0 : tensor<?x4x?x60000xf16>
  %v2 = softmax.softmax %v1 axis = -1 masked_rows = zero : tensor<?x4x?x60000xf16>
  return %v2 : tensor<?x4x?x60000xf16>
}
