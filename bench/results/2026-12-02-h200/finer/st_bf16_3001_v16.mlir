// Static bf16 3001 columns on a hand-written plan (v16): 192 lanes x 1 rows, vectors of 4, 4 chunks.
func.func @softmax(%x: tensor<44724x3001xbf16>) -> tensor<44724x3001xbf16> {
  %y = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 192, rows = 1, vector = 4, chunks = 4>]} : tensor<44724x3001xbf16> -> tensor<44724x3001xbf16>
  return %y : tensor<44724x3001xbf16>
}
