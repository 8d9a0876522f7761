func.func @f(%x: tensor<?x?xf16>) -> tensor<?x?xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 512, rows = 1, vector = 8, chunks = 4>, #softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4>]} : tensor<?x?xf16> -> tensor<?x?xf16>
  return %0 : tensor<?x?xf16>
}
