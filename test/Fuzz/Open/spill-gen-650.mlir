// Generated seed 650 (scripts/softmax_gen.py 650): ptxas -arch=sm_90 spills in the kernel named in docs/fuzzing.md (2026-12-05 run of seeds 401-1656). Not a lit test (test/Fuzz/lit.local.cfg excludes Open/).
func.func @gen_650(%x: tensor<17x17x?xf16>, %a1: f64, %a2: tensor<?xf32>, %a3: tensor<?xf32>) -> tensor<17x17x?xbf16> {
  %y = softmax.fused softmax %x (%a1, %a2, %a3 : f64, tensor<?xf32>, tensor<?xf32>) axis = 2 prologue [#softmax.scale_by<0>, #softmax.bias<1>, #softmax.mask<causal, offset = 0, fill = 0.0>, #softmax.bias<2>] masked_rows = zero {strategies = [#softmax.strategy<chunked_online, lanes = 64, rows = 16, vector = 8, chunks = 8>]} : tensor<17x17x?xf16> -> tensor<17x17x?xbf16>
  return %y : tensor<17x17x?xbf16>
}
