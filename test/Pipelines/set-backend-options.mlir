// softmax-set-backend-options sets LLVM's -disable-lsr for the softmax-serialize-kernels after it:
// by default loop strength reduction runs (the PTX is that of an explicit -disable-lsr=false),
// `loop-strength-reduction=false` turns it off (the chunked kernel's loops then differ: the
// PTX is that of an explicit -disable-lsr), and an explicit -disable-lsr on the command line
// wins over the pass.
// RUN: softmax-opt %s --softmax-to-nvvm="ptx-file=%t.default.ptx" -o /dev/null
// RUN: softmax-opt %s --disable-lsr=false --softmax-to-nvvm="ptx-file=%t.lsr.ptx" -o /dev/null
// RUN: softmax-opt %s --softmax-to-nvvm="ptx-file=%t.off.ptx loop-strength-reduction=false" -o /dev/null
// RUN: softmax-opt %s --disable-lsr --softmax-to-nvvm="ptx-file=%t.given.ptx" -o /dev/null
// RUN: softmax-opt %s --disable-lsr=false --softmax-to-nvvm="ptx-file=%t.given-on.ptx loop-strength-reduction=false" -o /dev/null
// RUN: diff %t.default.ptx %t.lsr.ptx
// RUN: not diff -q %t.default.ptx %t.off.ptx
// RUN: diff %t.off.ptx %t.given.ptx
// RUN: diff %t.default.ptx %t.given-on.ptx
// The pass in the pipeline, before the kernels are compiled, with its option:
// RUN: softmax-opt %s --softmax-to-nvvm="loop-strength-reduction=false" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s
// CHECK: softmax-set-backend-options{loop-strength-reduction=false}
// CHECK: softmax-serialize-kernels

func.func @softmax(%x: tensor<64x300000xf32>) -> tensor<64x300000xf32> {
  %y = softmax.softmax %x : tensor<64x300000xf32>
  return %y : tensor<64x300000xf32>
}
