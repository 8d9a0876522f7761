func.func @f(%x: tensor<131072x1024xf16>) -> tensor<131072x1024xf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<multi_row, lanes = 32, rows = 8, vector = 8, chunks = 4>]} : tensor<131072x1024xf16> -> tensor<131072x1024xf16>
  return %0 : tensor<131072x1024xf16>
}
