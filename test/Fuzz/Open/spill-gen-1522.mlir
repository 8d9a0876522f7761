// Generated seed 1522 (scripts/softmax_gen.py 1522): ptxas -arch=sm_90 spills in the kernel named in docs/fuzzing.md (2026-12-05 run of seeds 401-1656). Not a lit test (test/Fuzz/lit.local.cfg excludes Open/).
func.func @gen_1522(%x: tensor<4x?xf32>, %a1: tensor<1xi1>, %a2: tensor<4xi64>) -> tensor<4x?xf16> {
  %y = softmax.fused log_softmax %x (%a1, %a2 : tensor<1xi1>, tensor<4xi64>) axis = 1 prologue [#softmax.mask<tensor, operand = 0, fill = 0xFFF0000000000000>, #softmax.mask<padding, operand = 1, fill = 0.0>] masked_rows = nan {strategies = [#softmax.strategy<chunked_online, lanes = 1024, rows = 1, vector = 8, chunks = 8>]} : tensor<4x?xf32> -> tensor<4x?xf16>
  return %y : tensor<4x?xf16>
}
