// Static bf16 1025 columns on a hand-written plan (rows1): 96 lanes x 1 rows, vectors of 4, 3 chunks.
func.func @softmax(%x: tensor<130944x1025xbf16>) -> tensor<130944x1025xbf16> {
  %y = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 96, rows = 1, vector = 4, chunks = 3>]} : tensor<130944x1025xbf16> -> tensor<130944x1025xbf16>
  return %y : tensor<130944x1025xbf16>
}
