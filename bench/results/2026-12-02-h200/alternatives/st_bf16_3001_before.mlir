// The static program with the plan softmax-select-strategy chose before 16-bit rows off the
// 8-byte boundary took vectors of 4 (that of 7c3010d: the widest vector), written by hand.
func.func @softmax(%x: tensor<44724x3001xbf16>) -> tensor<44724x3001xbf16> {
  %y = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 384, rows = 1, vector = 8, chunks = 1>]} : tensor<44724x3001xbf16> -> tensor<44724x3001xbf16>
  return %y : tensor<44724x3001xbf16>
}
