// Static bf16 1537 columns on a hand-written plan (rows1): 128 lanes x 1 rows, vectors of 4, 4 chunks.
func.func @softmax(%x: tensor<87324x1537xbf16>) -> tensor<87324x1537xbf16> {
  %y = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 128, rows = 1, vector = 4, chunks = 4>]} : tensor<87324x1537xbf16> -> tensor<87324x1537xbf16>
  return %y : tensor<87324x1537xbf16>
}
