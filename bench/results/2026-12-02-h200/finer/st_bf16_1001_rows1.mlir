// Static bf16 1001 columns on a hand-written plan (rows1): 64 lanes x 1 rows, vectors of 4, 4 chunks.
func.func @softmax(%x: tensor<134083x1001xbf16>) -> tensor<134083x1001xbf16> {
  %y = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 1, vector = 4, chunks = 4>]} : tensor<134083x1001xbf16> -> tensor<134083x1001xbf16>
  return %y : tensor<134083x1001xbf16>
}
