// Generated seed 1118 (scripts/softmax_gen.py 1118): ptxas -arch=sm_90 spills in the kernel named in docs/fuzzing.md (2026-12-05 run of seeds 401-1656). Not a lit test (test/Fuzz/lit.local.cfg excludes Open/).
func.func @gen_1118(%x: tensor<64x57856xbf16>) -> tensor<64x57856xf16> {
  %v0 = softmax.cast %x : tensor<64x57856xbf16> to tensor<64x57856xf32>
  %v1 = softmax.softmax %v0 axis = -1 masked_rows = zero : tensor<64x57856xf32>
  %v2 = softmax.cast %v1 : tensor<64x57856xf32> to tensor<64x57856xf16>
  return %v2 : tensor<64x57856xf16>
}
