// Generated seed 518 (scripts/softmax_gen.py 518): ptxas -arch=sm_90 spills in the kernel named in docs/fuzzing.md (2026-12-05 run of seeds 401-1656). Not a lit test (test/Fuzz/lit.local.cfg excludes Open/).
func.func @gen_518(%x: tensor<?x?x1000xbf16>) -> tensor<?x?x1000xf16> {
  %y = softmax.fused softmax %x axis = 2 prologue [#softmax.round<bf16>, #softmax.scale<10000.0>] masked_rows = zero {strategies = [#softmax.strategy<row_registers, lanes = 128, rows = 8, vector = 8, chunks = 1>]} : tensor<?x?x1000xbf16> -> tensor<?x?x1000xf16>
  return %y : tensor<?x?x1000xf16>
}
