// Generated seed 1397 (scripts/softmax_gen.py 1397): ptxas -arch=sm_90 spills in the kernel named in docs/fuzzing.md (2026-12-05 run of seeds 401-1656). Not a lit test (test/Fuzz/lit.local.cfg excludes Open/).
func.func @gen_1397(%x: tensor<?xf16>) -> tensor<?xbf16> {
  %v0 = softmax.cast %x : tensor<?xf16> to tensor<?xbf16>
  %v1 = softmax.softmax %v0 axis = 0 masked_rows = zero : tensor<?xbf16>
  return %v1 : tensor<?xbf16>
}
