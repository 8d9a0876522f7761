// Open finding (not a test: test/Fuzz/lit.local.cfg excludes Open/): generated program seed 533
// (scripts/softmax_gen.py 533). It compiles, but ptxas spills (2026-12-01, b5166fc): an f32 bias and two boolean masks on f16 rows: multi_row_0_general 72 bytes at 144 registers.
func.func @gen_533(%x: tensor<5x1x5x?xf16>, %a1: tensor<1x1x?xf32>, %a2: tensor<1x1x1xi1>, %a3: tensor<5x1x1x?xi1>) -> tensor<5x1x5x?xf16> {
  %v0 = softmax.cast %x : tensor<5x1x5x?xf16> to tensor<5x1x5x?xf32>
  %v1 = softmax.cast %v0 : tensor<5x1x5x?xf32> to tensor<5x1x5x?xf16>
  %v2 = softmax.add_bias %v1, %a1 : tensor<5x1x5x?xf16>, tensor<1x1x?xf32>
  %v3 = softmax.mask %v2, tensor %a2 axis = -1 : tensor<5x1x5x?xf16>, tensor<1x1x1xi1>
  %v4 = softmax.mask %v3, tensor %a3 axis = -1 : tensor<5x1x5x?xf16>, tensor<5x1x1x?xi1>
  %v5 = softmax.softmax %v4 axis = -1 masked_rows = nan : tensor<5x1x5x?xf16>
  return %v5 : tensor<5x1x5x?xf16>
}
