// Generated seed 683 (scripts/softmax_gen.py 683): ptxas -arch=sm_90 spills in the kernel named in docs/fuzzing.md (2026-12-05 run of seeds 401-1656). Not a lit test (test/Fuzz/lit.local.cfg excludes Open/).
func.func @gen_683(%x: tensor<?x3x?x?xbf16>, %a1: tensor<?x3x?x1xi1>, %a2: tensor<?xi64>) -> tensor<?x3x?x?xf32> {
  %v0 = softmax.cast %x : tensor<?x3x?x?xbf16> to tensor<?x3x?x?xf32>
  %v1 = softmax.mask %v0, tensor %a1 axis = -1 fill = -30000.0 : tensor<?x3x?x?xf32>, tensor<?x3x?x1xi1>
  %v2 = softmax.mask %v1, padding %a2 axis = -1 fill = 0.0 : tensor<?x3x?x?xf32>, tensor<?xi64>
  %v3 = softmax.mask %v2, causal offset = 1 axis = -1 : tensor<?x3x?x?xf32>
  %v4 = softmax.cast %v3 : tensor<?x3x?x?xf32> to tensor<?x3x?x?xbf16>
  %v5 = softmax.softmax %v4 axis = -1 masked_rows = zero : tensor<?x3x?x?xbf16>
  %v6 = softmax.cast %v5 : tensor<?x3x?x?xbf16> to tensor<?x3x?x?xf32>
  return %v6 : tensor<?x3x?x?xf32>
}
