// A softmax over the last axis of logits plus a per-column bias, decomposed into linalg ops the
// way IREE's input pipelines hand it to global optimization (before its own RaiseSpecialOps):
// a max reduction from -inf with maximumf, one generic each for x - max and exp, a sum from 0,
// and a multiplication by the reciprocal of the sum. The batch size is dynamic. Run
// `softmax-opt --softmax-raise` first: it becomes softmax.add_bias and softmax.softmax
// (docs/raising.md).
#map = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @classifier_probs(%logits: tensor<?x32000xf32>, %bias: tensor<32000xf32>) -> tensor<?x32000xf32> {
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32
  %batch = tensor.dim %logits, %c0 : tensor<?x32000xf32>
  %e = tensor.empty(%batch) : tensor<?x32000xf32>
  %er = tensor.empty(%batch) : tensor<?xf32>
  %x = linalg.generic {indexing_maps = [#map, #col, #map], iterator_types = ["parallel", "parallel"]}
      ins(%logits, %bias : tensor<?x32000xf32>, tensor<32000xf32>) outs(%e : tensor<?x32000xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %0 = arith.addf %in, %b : f32
    linalg.yield %0 : f32
  } -> tensor<?x32000xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%er : tensor<?xf32>) -> tensor<?xf32>
  %max = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x32000xf32>) outs(%minit : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<?xf32>
  %sub = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<?x32000xf32>, tensor<?xf32>) outs(%e : tensor<?x32000xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    linalg.yield %0 : f32
  } -> tensor<?x32000xf32>
  %exp = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%sub : tensor<?x32000xf32>) outs(%e : tensor<?x32000xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<?x32000xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%er : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<?x32000xf32>) outs(%sinit : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<?xf32>
  %rcp = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%sum : tensor<?xf32>) outs(%er : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %one, %in : f32
    linalg.yield %0 : f32
  } -> tensor<?xf32>
  %p = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %rcp : tensor<?x32000xf32>, tensor<?xf32>) outs(%e : tensor<?x32000xf32>) {
  ^bb0(%in: f32, %r: f32, %out: f32):
    %0 = arith.mulf %in, %r : f32
    linalg.yield %0 : f32
  } -> tensor<?x32000xf32>
  return %p : tensor<?x32000xf32>
}
