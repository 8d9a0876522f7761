// Generated seed 1386 (scripts/softmax_gen.py 1386): ptxas -arch=sm_90 spills in the kernel named in docs/fuzzing.md (2026-12-05 run of seeds 401-1656). Not a lit test (test/Fuzz/lit.local.cfg excludes Open/).
func.func @gen_1386(%x: tensor<5x57856xf32>) -> tensor<5x57856xf16> {
  %y = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<0.125>, #softmax.scale<0.003>, #softmax.mask<causal, offset = 0, fill = 0xFFF0000000000000>] masked_rows = zero {strategies = [#softmax.strategy<chunked_online, lanes = 256, rows = 4, vector = 8, chunks = 8>]} : tensor<5x57856xf32> -> tensor<5x57856xf16>
  return %y : tensor<5x57856xf16>
}
