// Open finding (not a test: test/Fuzz/lit.local.cfg excludes Open/): generated program seed 89
// (scripts/softmax_gen.py 89). It compiles, but ptxas spills: dynamic-width f32 with two f32 biases: row_shared_12_general 8 bytes at 112 registers (none at 72, 88-104, 120: ptxas is not monotonic in the budget; 2026-12-01).
// Plans and register budgets (nvvm.maxnreg) are the pipeline's own choice (softmax-select-strategy).
// Reproduce: softmax-opt --softmax-to-nvvm=ptx-file=F.ptx THIS -o /dev/null && ptxas -arch=sm_90 -v F.ptx
func.func @gen_89(%x: tensor<?xf32>, %a1: tensor<?xf32>, %a2: tensor<?xf32>) -> tensor<?xbf16> {
  %v0 = softmax.add_bias %x, %a1 : tensor<?xf32>, tensor<?xf32>
  %v1 = softmax.add_bias %v0, %a2 : tensor<?xf32>, tensor<?xf32>
  %v2 = softmax.softmax %v1 axis = 0 masked_rows = zero : tensor<?xf32>
  %v3 = softmax.cast %v2 : tensor<?xf32> to tensor<?xbf16>
  return %v3 : tensor<?xbf16>
}
