// Static bf16 1537 columns on the plan softmax-select-strategy chose at bb9d246, written by hand.
func.func @softmax(%x: tensor<87324x1537xbf16>) -> tensor<87324x1537xbf16> {
  %y = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 128, rows = 2, vector = 4, chunks = 4>]} : tensor<87324x1537xbf16> -> tensor<87324x1537xbf16>
  return %y : tensor<87324x1537xbf16>
}
