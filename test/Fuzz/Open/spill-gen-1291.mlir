// Generated seed 1291 (scripts/softmax_gen.py 1291): ptxas -arch=sm_90 spills in the kernel named in docs/fuzzing.md (2026-12-05 run of seeds 401-1656). Not a lit test (test/Fuzz/lit.local.cfg excludes Open/).
func.func @gen_1291(%x: tensor<3x17x16x?xf16>, %a1: tensor<3x1x1xi64>, %a2: bf16) -> tensor<3x17x16x?xf16> {
  %v0 = softmax.mask %x, padding %a1 axis = -1 : tensor<3x17x16x?xf16>, tensor<3x1x1xi64>
  %v1 = softmax.scale %v0 by %a2 : tensor<3x17x16x?xf16>, bf16
  %v2 = softmax.log_softmax %v1 axis = -1 masked_rows = zero : tensor<3x17x16x?xf16>
  return %v2 : tensor<3x17x16x?xf16>
}
