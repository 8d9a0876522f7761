module {
  module {
    func.func @nested(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
      %0 = softmax.softmax %x : tensor<4x8xf32>
      return %0 : tensor<4x8xf32>
    }
  }
  func.func @no_softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    return %x : tensor<4x8xf32>
  }
}
