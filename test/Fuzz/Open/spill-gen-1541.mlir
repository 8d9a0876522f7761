// Generated seed 1541 (scripts/softmax_gen.py 1541): ptxas -arch=sm_90 spills in the kernel named in docs/fuzzing.md (2026-12-05 run of seeds 401-1656). Not a lit test (test/Fuzz/lit.local.cfg excludes Open/).
func.func @gen_1541(%x: tensor<5x4x?xbf16>, %a1: bf16) -> tensor<5x4x?xf16> {
  %v0 = softmax.scale %x by %a1 : tensor<5x4x?xbf16>, bf16
  %v1 = softmax.softmax %v0 axis = 2 masked_rows = nan : tensor<5x4x?xbf16>
  %v2 = softmax.cast %v1 : tensor<5x4x?xbf16> to tensor<5x4x?xf16>
  return %v2 : tensor<5x4x?xf16>
}
