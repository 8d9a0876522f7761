// Generated seed 820 (scripts/softmax_gen.py 820): ptxas -arch=sm_90 spills in the kernel named in docs/fuzzing.md (2026-12-05 run of seeds 401-1656). Not a lit test (test/Fuzz/lit.local.cfg excludes Open/).
func.func @gen_820(%x: tensor<17x?xf32>, %a1: tensor<?xbf16>, %a2: f32, %a3: tensor<17x?xf32>) -> tensor<17x?xf16> {
  %y = softmax.fused log_softmax %x (%a1, %a2, %a3 : tensor<?xbf16>, f32, tensor<17x?xf32>) axis = 1 prologue [#softmax.bias<0>, #softmax.scale_by<1>, #softmax.scale<0.088388>, #softmax.bias<2>] masked_rows = zero {strategies = [#softmax.strategy<chunked_online, lanes = 512, rows = 2, vector = 8, chunks = 4>]} : tensor<17x?xf32> -> tensor<17x?xf16>
  return %y : tensor<17x?xf16>
}
