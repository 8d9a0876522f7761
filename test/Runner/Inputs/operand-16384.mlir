// Static 16-bit rows of 16384 columns (512 threads of 32 values) beside a step with an operand:
// at the 64 registers of the 24-warp target ptxas spills 4 bytes (generated seed 4414); 72 fit,
// one block a multiprocessor instead of two. scripts/gpu/run.sh operand16 times them at their
// budget and at 72 and 64 (--max-registers), beside the plain softmax (RowKernel.cpp: 64 stays,
// the faster).
func.func @scale_by_bf16(%x: tensor<8192x16384xbf16>, %s: f32) -> tensor<8192x16384xbf16> {
  %y = softmax.fused softmax %x (%s : f32) axis = 1 prologue [#softmax.scale_by<0>] : tensor<8192x16384xbf16> -> tensor<8192x16384xbf16>
  return %y : tensor<8192x16384xbf16>
}

func.func @bias1_f16(%x: tensor<8192x16384xf16>, %b: tensor<1xf16>) -> tensor<8192x16384xf16> {
  %y = softmax.add_bias %x, %b : tensor<8192x16384xf16>, tensor<1xf16>
  %z = softmax.softmax %y : tensor<8192x16384xf16>
  return %z : tensor<8192x16384xf16>
}

func.func @plain_bf16(%x: tensor<8192x16384xbf16>) -> tensor<8192x16384xbf16> {
  %y = softmax.softmax %x : tensor<8192x16384xbf16>
  return %y : tensor<8192x16384xbf16>
}
