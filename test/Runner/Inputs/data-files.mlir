// Programs for --input / --output / --expected-output (test/Runner/npy.test).

// A scalar, a mask and bf16 ('<V2' in .npy), shapes from the files.
func.func @scaled_masked_bf16(%x: tensor<?x?xbf16>, %t: f32, %keep: tensor<1x?xi1>) -> tensor<?x?xbf16> {
  %s = softmax.scale %x by %t : tensor<?x?xbf16>, f32
  %m = softmax.mask %s, tensor %keep : tensor<?x?xbf16>, tensor<1x?xi1>
  %p = softmax.softmax %m : tensor<?x?xbf16>
  return %p : tensor<?x?xbf16>
}

// Two results.
func.func @two_results(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %p = softmax.softmax %x : tensor<2x4xf32>
  %l = softmax.log_softmax %x : tensor<2x4xf32>
  return %p, %l : tensor<2x4xf32>, tensor<2x4xf32>
}
