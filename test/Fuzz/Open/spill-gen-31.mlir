// Open finding (not a test: test/Fuzz/lit.local.cfg excludes Open/): generated program seed 31
// (scripts/softmax_gen.py 31). It compiles, but ptxas spills: dynamic-width f16 plain log/softmax into f32: row_registers_9 spills 40 bytes.
// Plans and register budgets (nvvm.maxnreg) are the pipeline's own choice (softmax-select-strategy).
// Reproduce: softmax-opt --softmax-to-nvvm=ptx-file=F.ptx THIS -o /dev/null && ptxas -arch=sm_90 -v F.ptx
func.func @gen_31(%x: tensor<?xf16>) -> tensor<?xf32> {
  %v0 = softmax.cast %x : tensor<?xf16> to tensor<?xf32>
  %v1 = softmax.softmax %v0 axis = 0 masked_rows = zero : tensor<?xf32>
  return %v1 : tensor<?xf32>
}
