// Static bf16 1100 columns on a hand-written plan (v16): 96 lanes x 1 rows, vectors of 4, 4 chunks.
func.func @softmax(%x: tensor<122016x1100xbf16>) -> tensor<122016x1100xbf16> {
  %y = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 96, rows = 1, vector = 4, chunks = 4>]} : tensor<122016x1100xbf16> -> tensor<122016x1100xbf16>
  return %y : tensor<122016x1100xbf16>
}
