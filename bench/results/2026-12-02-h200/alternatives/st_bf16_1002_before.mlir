// The static program with the plan softmax-select-strategy chose before 16-bit rows off the
// 8-byte boundary took vectors of 4 (that of 7c3010d: the widest vector), written by hand.
func.func @softmax(%x: tensor<133949x1002xbf16>) -> tensor<133949x1002xbf16> {
  %y = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 128, rows = 2, vector = 8, chunks = 1>]} : tensor<133949x1002xbf16> -> tensor<133949x1002xbf16>
  return %y : tensor<133949x1002xbf16>
}
