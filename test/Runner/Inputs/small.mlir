// Small cases for softmax-run (entries chosen with --entry).

// An odd row width (no 16-byte multiple).
func.func @softmax_odd(%x: tensor<37x1000xf32>) -> tensor<37x1000xf32> {
  %y = softmax.softmax %x : tensor<37x1000xf32>
  return %y : tensor<37x1000xf32>
}

// Rows wider than any register plan: the chunked kernel.
func.func @softmax_wide_bf16(%x: tensor<6x200003xbf16>) -> tensor<6x200003xbf16> {
  %y = softmax.softmax %x : tensor<6x200003xbf16>
  return %y : tensor<6x200003xbf16>
}

// Rank 3, a per-head bias, log-softmax in f16, masked rows as NaN.
func.func @log_softmax_bias(%x: tensor<4x33x129xf16>, %b: tensor<4x1x129xf16>) -> tensor<4x33x129xf16> {
  %s = softmax.add_bias %x, %b : tensor<4x33x129xf16>, tensor<4x1x129xf16>
  %y = softmax.log_softmax %s masked_rows = nan : tensor<4x33x129xf16>
  return %y : tensor<4x33x129xf16>
}

// Tiny rows, many of them (several rows a warp), causal mask with an offset.
func.func @causal_small(%x: tensor<64x8x8xf32>) -> tensor<64x8x8xf32> {
  %m = softmax.mask %x, causal offset = 1 : tensor<64x8x8xf32>
  %y = softmax.softmax %m : tensor<64x8x8xf32>
  return %y : tensor<64x8x8xf32>
}

// Dynamic everything, 1-D.
func.func @softmax_1d(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = softmax.softmax %x : tensor<?xf32>
  return %y : tensor<?xf32>
}

// Any 2-D f32 shape (--shape=MxN): the runner's general-purpose case for strides and widths.
func.func @softmax_dyn_f32(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %y = softmax.softmax %x : tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
