// Open finding (not a test: test/Fuzz/lit.local.cfg excludes Open/): generated program seed 46
// (scripts/softmax_gen.py 46). It compiles, but ptxas spills: a 1-D bf16 row with a boolean mask: the
// general kernels of the widest register tiers and of the row_cluster tiers (20-44 bytes; the
// planner does not count the mask's registers, the same class as spill-gen-39).
// Plans and register budgets (nvvm.maxnreg) are the pipeline's own choice (softmax-select-strategy).
// Reproduce: softmax-opt --softmax-to-nvvm=ptx-file=F.ptx THIS -o /dev/null && ptxas -arch=sm_90 -v F.ptx
func.func @gen_46(%x: tensor<?xbf16>, %a1: tensor<?xi1>) -> tensor<?xf16> {
  %v0 = softmax.mask %x, tensor %a1 axis = 0 fill = 0.0 : tensor<?xbf16>, tensor<?xi1>
  %v1 = softmax.softmax %v0 axis = 0 masked_rows = zero : tensor<?xbf16>
  %v2 = softmax.cast %v1 : tensor<?xbf16> to tensor<?xf16>
  return %v2 : tensor<?xf16>
}
