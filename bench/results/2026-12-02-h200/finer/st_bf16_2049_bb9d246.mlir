// Static bf16 2049 columns on the plan softmax-select-strategy chose at bb9d246, written by hand.
func.func @softmax(%x: tensor<65504x2049xbf16>) -> tensor<65504x2049xbf16> {
  %y = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 192, rows = 1, vector = 4, chunks = 3>]} : tensor<65504x2049xbf16> -> tensor<65504x2049xbf16>
  return %y : tensor<65504x2049xbf16>
}
