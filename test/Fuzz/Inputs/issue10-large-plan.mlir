func.func @f(%x: tensor<8x16384xf32>) -> tensor<8x16384xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [#softmax.scale<2.0>, #softmax.mask<causal, offset = 0, fill = -1.0e4>] {strategies = [#softmax.strategy<chunked_online, lanes = 32, rows = 32, vector = 8, chunks = 16>]} : tensor<8x16384xf32> -> tensor<8x16384xf32>
  return %0 : tensor<8x16384xf32>
}
