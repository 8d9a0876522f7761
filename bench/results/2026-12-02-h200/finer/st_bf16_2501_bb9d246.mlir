// Static bf16 2501 columns on the plan softmax-select-strategy chose at bb9d246, written by hand.
func.func @softmax(%x: tensor<53665x2501xbf16>) -> tensor<53665x2501xbf16> {
  %y = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 224, rows = 1, vector = 4, chunks = 3>]} : tensor<53665x2501xbf16> -> tensor<53665x2501xbf16>
  return %y : tensor<53665x2501xbf16>
}
