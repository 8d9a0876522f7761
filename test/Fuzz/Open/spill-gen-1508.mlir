// Generated seed 1508 (scripts/softmax_gen.py 1508): ptxas -arch=sm_90 spills in the kernel named in docs/fuzzing.md (2026-12-05 run of seeds 401-1656). Not a lit test (test/Fuzz/lit.local.cfg excludes Open/).
func.func @gen_1508(%x: tensor<?x3x?xbf16>, %a1: bf16) -> tensor<?x3x?xf16> {
  %v0 = softmax.cast %x : tensor<?x3x?xbf16> to tensor<?x3x?xf32>
  %v1 = softmax.cast %v0 : tensor<?x3x?xf32> to tensor<?x3x?xf16>
  %v2 = softmax.scale %v1 by %a1 : tensor<?x3x?xf16>, bf16
  %v3 = softmax.softmax %v2 axis = -1 masked_rows = zero : tensor<?x3x?xf16>
  return %v3 : tensor<?x3x?xf16>
}
