// Static bf16 2501 columns on a hand-written plan (v16): 160 lanes x 1 rows, vectors of 4, 4 chunks.
func.func @softmax(%x: tensor<53665x2501xbf16>) -> tensor<53665x2501xbf16> {
  %y = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 160, rows = 1, vector = 4, chunks = 4>]} : tensor<53665x2501xbf16> -> tensor<53665x2501xbf16>
  return %y : tensor<53665x2501xbf16>
}
