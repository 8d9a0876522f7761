func.func @f(%x: tensor<262144x512xbf16>) -> tensor<262144x512xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 64, rows = 4, vector = 8, chunks = 1>]} : tensor<262144x512xbf16> -> tensor<262144x512xbf16>
  return %0 : tensor<262144x512xbf16>
}
