// Generated seed 469 (scripts/softmax_gen.py 469): ptxas -arch=sm_90 spills in the kernel named in docs/fuzzing.md (2026-12-05 run of seeds 401-1656). Not a lit test (test/Fuzz/lit.local.cfg excludes Open/).
func.func @gen_469(%x: tensor<16x1x?xf16>, %a1: f32) -> tensor<16x1x?xbf16> {
  %v0 = softmax.cast %x : tensor<16x1x?xf16> to tensor<16x1x?xf32>
  %v1 = softmax.mask %v0, causal offset = 0 axis = 2 : tensor<16x1x?xf32>
  %v2 = softmax.scale %v1 by 0.125 : tensor<16x1x?xf32>
  %v3 = softmax.scale %v2 by %a1 : tensor<16x1x?xf32>, f32
  %v4 = softmax.log_softmax %v3 axis = 2 masked_rows = nan : tensor<16x1x?xf32>
  %v5 = softmax.cast %v4 : tensor<16x1x?xf32> to tensor<16x1x?xbf16>
  return %v5 : tensor<16x1x?xbf16>
}
