// Open finding (not a test: test/Fuzz/lit.local.cfg excludes Open/): generated program seed 24
// (scripts/softmax_gen.py 24). It compiles, but ptxas spills: static 57856-wide f32 with a boolean mask: the row_shared kernel spills 12 bytes.
// Plans and register budgets (nvvm.maxnreg) are the pipeline's own choice (softmax-select-strategy).
// Reproduce: softmax-opt --softmax-to-nvvm=ptx-file=F.ptx THIS -o /dev/null && ptxas -arch=sm_90 -v F.ptx
func.func @gen_24(%x: tensor<?x?x?x57856xf32>, %a1: tensor<?x?x?x1xi1>) -> tensor<?x?x?x57856xf32> {
  %v0 = softmax.mask %x, tensor %a1 axis = -1 : tensor<?x?x?x57856xf32>, tensor<?x?x?x1xi1>
  %v1 = softmax.softmax %v0 axis = -1 masked_rows = zero : tensor<?x?x?x57856xf32>
  return %v1 : tensor<?x?x?x57856xf32>
}
