// softmax-serialize-kernels compiles each gpu.module to a gpu.binary of the same name, the
// modules in parallel, the binaries in the modules' order, as a sequential run makes them
// (serialize-kernels-invalid.mlir has its diagnostics).
// RUN: softmax-opt %s --softmax-serialize-kernels | FileCheck %s
// RUN: softmax-opt %s --softmax-serialize-kernels --mlir-disable-threading | FileCheck %s

// CHECK-NOT: gpu.module
// CHECK: gpu.binary @first [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">, {{.*}}assembly = "{{.*}}.visible .entry first_kernel(
// CHECK-NEXT: gpu.binary @second [#gpu.object<#nvvm.target<chip = "sm_80">, {{.*}}assembly = "{{.*}}.target sm_80{{.*}}.visible .entry second_kernel(

gpu.module @first [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
  llvm.func @first_kernel() attributes {nvvm.kernel} {
    llvm.return
  }
}
gpu.module @second [#nvvm.target<chip = "sm_80">] {
  llvm.func @second_kernel() attributes {nvvm.kernel} {
    llvm.return
  }
}
