func.func @f(%x: tensor<65472x1025xf32>) -> tensor<65472x1025xf32> {
  %0 = softmax.fused softmax %x axis = 1 prologue [] {strategies = [#softmax.strategy<row_registers, lanes = 128, rows = 2, vector = 1, chunks = 9>]} : tensor<65472x1025xf32> -> tensor<65472x1025xf32>
  return %0 : tensor<65472x1025xf32>
}
