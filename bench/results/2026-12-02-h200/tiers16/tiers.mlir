func.func @softmax(%x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %y = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 1>, #softmax.strategy<row_registers, lanes = 1024, rows = 1, vector = 8, chunks = 1>, #softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 3>, #softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 4>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]} : tensor<?x?xbf16> -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}
