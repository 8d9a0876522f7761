// Open finding (not a test: test/Fuzz/lit.local.cfg excludes Open/): generated program seed 140
// (scripts/softmax_gen.py 140). It compiles, but ptxas spills: dynamic-width bf16 with two boolean
// masks: row_registers_10 and multi_row_7 (8192 columns) 36-40 bytes at 184 registers (2026-12-01).
func.func @gen_140(%x: tensor<?xbf16>, %a1: tensor<?xi1>, %a2: tensor<?xi1>) -> tensor<?xf16> {
  %v0 = softmax.mask %x, tensor %a1 axis = -1 : tensor<?xbf16>, tensor<?xi1>
  %v1 = softmax.mask %v0, tensor %a2 axis = -1 fill = -30000.0 : tensor<?xbf16>, tensor<?xi1>
  %v2 = softmax.scale %v1 by 2.0 : tensor<?xbf16>
  %v3 = softmax.softmax %v2 axis = -1 masked_rows = nan : tensor<?xbf16>
  %v4 = softmax.cast %v3 : tensor<?xbf16> to tensor<?xf16>
  return %v4 : tensor<?xf16>
}
