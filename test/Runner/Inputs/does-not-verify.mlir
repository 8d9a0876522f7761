func.func @bad(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %y = softmax.softmax %x axis = 5 : tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
