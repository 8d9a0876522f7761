// Generated seed 1362 (scripts/softmax_gen.py 1362): ptxas -arch=sm_90 spills in the kernel named in docs/fuzzing.md (2026-12-05 run of seeds 401-1656). Not a lit test (test/Fuzz/lit.local.cfg excludes Open/).
func.func @gen_1362(%x: tensor<?xbf16>, %a1: tensor<1xi1>, %a2: f32) -> tensor<?xbf16> {
  %v0 = softmax.cast %x : tensor<?xbf16> to tensor<?xf32>
  %v1 = softmax.mask %v0, tensor %a1 axis = -1 : tensor<?xf32>, tensor<1xi1>
  %v2 = softmax.scale %v1 by %a2 : tensor<?xf32>, f32
  %v3 = softmax.softmax %v2 axis = -1 masked_rows = nan : tensor<?xf32>
  %v4 = softmax.cast %v3 : tensor<?xf32> to tensor<?xbf16>
  return %v4 : tensor<?xbf16>
}
