// RUN: softmax-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(softmax-kernel-vector-to-scf))' | FileCheck %s
// RUN: softmax-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(softmax-kernel-vector-to-scf))' --mlir-timing --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMING

// A kernel with a 2-D vector transfer (as one outlined from a user's gpu.launch may have): it is
// lowered as convert-vector-to-scf lowers it, a loop of 1-D transfers.
// CHECK-LABEL: gpu.module @transfer
// CHECK-NOT:     memref<2x4xf32>, vector<2x4xf32>
// CHECK:         scf.for
// CHECK:           vector.transfer_read {{.*}} : memref<2x4xf32>, vector<4xf32>
// CHECK-NOT:     memref<2x4xf32>, vector<2x4xf32>
gpu.module @transfer {
  gpu.func @k(%m: memref<2x4xf32>, %o: memref<2x4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %p = arith.constant 0.0 : f32
    %v = vector.transfer_read %m[%c0, %c0], %p : memref<2x4xf32>, vector<2x4xf32>
    vector.transfer_write %v, %o[%c0, %c0] : vector<2x4xf32>, memref<2x4xf32>
    gpu.return
  }
}

// -----

// What the softmax kernels hold (vector loads, stores, extracts): nothing to convert; the
// module is left as it is.
// CHECK-LABEL: gpu.module @plain
// CHECK:         vector.load {{.*}} vector<8xf32>
// CHECK-NEXT:    vector.extract
// CHECK-NEXT:    memref.store
gpu.module @plain {
  gpu.func @k(%m: memref<8xf32>, %o: memref<8xf32>) kernel {
    %c0 = arith.constant 0 : index
    %v = vector.load %m[%c0] : memref<8xf32>, vector<8xf32>
    %e = vector.extract %v[3] : f32 from vector<8xf32>
    memref.store %e, %o[%c0] : memref<8xf32>
    gpu.return
  }
}

// The timer's report of each input: the conversion runs for the first, not for the second.
// TIMING:      KernelVectorToSCFPass
// TIMING:        ConvertVectorToSCF
// TIMING:      Total
// TIMING:      KernelVectorToSCFPass
// TIMING-NOT:    ConvertVectorToSCF
// TIMING:      Total
