// Generated seed 1382 (scripts/softmax_gen.py 1382): ptxas -arch=sm_90 spills in the kernel named in docs/fuzzing.md (2026-12-05 run of seeds 401-1656). Not a lit test (test/Fuzz/lit.local.cfg excludes Open/).
func.func @gen_1382(%x: tensor<2x8x?x?xf32>, %a1: tensor<8x?x1xi1>, %a2: tensor<1x?xf16>) -> tensor<2x8x?x?xbf16> {
  %y = softmax.fused log_softmax %x (%a1, %a2 : tensor<8x?x1xi1>, tensor<1x?xf16>) axis = 3 prologue [#softmax.mask<tensor, operand = 0, fill = -10000.0>, #softmax.round<bf16>, #softmax.mask<causal, offset = 3, fill = -10000.0>, #softmax.bias<1>] masked_rows = zero {strategies = [#softmax.strategy<chunked_online, lanes = 1024, rows = 1, vector = 8, chunks = 8>]} : tensor<2x8x?x?xf32> -> tensor<2x8x?x?xbf16>
  return %y : tensor<2x8x?x?xbf16>
}
