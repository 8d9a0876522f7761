// Each kernel module's pipeline (buildKernelToNVVMPipeline) converts to the NVVM and LLVM
// dialects in one pass: convert-gpu-to-nvvm applies the to-LLVM patterns of every loaded dialect,
// so upstream's convert-nvvm-to-llvm, convert-arith-to-llvm and convert-index-to-llvm before it,
// and a canonicalizer and CSE after each, are not run on the kernels (the host keeps them).
// RUN: softmax-opt %s --softmax-to-nvvm --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE:      gpu.module(
// PIPELINE-NEXT:   canonicalize{{.*}}region-simplify=disabled
// PIPELINE-NEXT:   cse,
// PIPELINE-NEXT:   softmax-kernel-vector-to-scf,
// PIPELINE-NEXT:   convert-scf-to-cf
// PIPELINE-NEXT:   expand-strided-metadata,
// PIPELINE-NEXT:   lower-affine,
// PIPELINE-NEXT:   convert-gpu-to-nvvm{{.*}}index-bitwidth=64
// PIPELINE-NEXT:   reconcile-unrealized-casts
// PIPELINE-NEXT: ),
// PIPELINE-NEXT: softmax-serialize-kernels

// That one conversion lowers what a kernel may hold, here one outlined from a user's gpu.launch
// with ops of the nvvm, arith, index, vector, scf and memref dialects (the softmax kernels'
// PTX is the same as with upstream's passes one a dialect: scripts/ptx-identity.sh,
// bench/results/2026-12-07-cpu/ptx-identity-one-conversion.txt).
// RUN: softmax-opt %s --softmax-to-nvvm="ptx-file=%t.ptx" -o /dev/null
// RUN: FileCheck %s --input-file=%t.ptx
// CHECK:     .entry user_kernel_kernel
// CHECK:     %laneid
// CHECK:     mul.wide.u32 {{.*}}, 16;
// CHECK:     ld.global
// CHECK:     mul.rn.f32
// CHECK:     @%p{{[0-9]+}} bra
// CHECK:     st.global.b32
func.func @user_kernel(%m: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %lane = nvvm.read.ptx.sreg.laneid : i32
    %i = arith.index_cast %lane : i32 to index
    %four = index.constant 4
    %j = index.mul %i, %four
    %v = vector.load %m[%j] : memref<64xf32>, vector<4xf32>
    %e = arith.mulf %v, %v : vector<4xf32>
    %s = vector.reduction <add>, %e : vector<4xf32> into f32
    %zero = arith.constant 0.0 : f32
    %positive = arith.cmpf ogt, %s, %zero : f32
    scf.if %positive {
      memref.store %s, %m[%i] : memref<64xf32>
    }
    gpu.terminator
  }
  return
}
