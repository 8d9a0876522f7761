// Static f16 1100 columns on the plan softmax-select-strategy chose at bb9d246, written by hand.
func.func @softmax(%x: tensor<122016x1100xf16>) -> tensor<122016x1100xf16> {
  %y = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 96, rows = 2, vector = 4, chunks = 3>]} : tensor<122016x1100xf16> -> tensor<122016x1100xf16>
  return %y : tensor<122016x1100xf16>
}
