// Open finding (not a test: test/Fuzz/lit.local.cfg excludes Open/): generated program seed 403
// (scripts/softmax_gen.py 403). It compiles, but ptxas spills (2026-12-01, b5166fc): two boolean masks on f16 rows, row_registers_10 and multi_row_7 (8192 columns) 56-80 bytes at 184 registers: the class of spill-gen-140.
func.func @gen_403(%x: tensor<?x?xf16>, %a1: tensor<?xi1>, %a2: tensor<1x?xi1>) -> tensor<?x?xf32> {
  %v0 = softmax.mask %x, tensor %a1 axis = 1 fill = -30000.0 : tensor<?x?xf16>, tensor<?xi1>
  %v1 = softmax.mask %v0, causal offset = -4 axis = 1 fill = -30000.0 : tensor<?x?xf16>
  %v2 = softmax.mask %v1, tensor %a2 axis = 1 fill = -10000.0 : tensor<?x?xf16>, tensor<1x?xi1>
  %v3 = softmax.softmax %v2 axis = 1 masked_rows = nan : tensor<?x?xf16>
  %v4 = softmax.cast %v3 : tensor<?x?xf16> to tensor<?x?xf32>
  return %v4 : tensor<?x?xf32>
}
