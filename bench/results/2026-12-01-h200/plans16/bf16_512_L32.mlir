func.func @f(%x: tensor<262144x512xbf16>) -> tensor<262144x512xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<multi_row, lanes = 32, rows = 8, vector = 8, chunks = 2>]} : tensor<262144x512xbf16> -> tensor<262144x512xbf16>
  return %0 : tensor<262144x512xbf16>
}
