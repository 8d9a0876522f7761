// PTX that calls an undefined function (math.exp without libdevice becomes __nv_expf) is a
// compile error, not a module that fails to load on the GPU.
// RUN: not softmax-opt %s --pass-pipeline='builtin.module(nvvm-attach-target{chip=sm_90 features=+ptx80},gpu.module(convert-gpu-to-nvvm),gpu-module-to-binary{format=isa},softmax-check-ptx)' 2>&1 | FileCheck %s
// CHECK: error: the PTX of 'k' calls the unresolved external function '__nv_expf' (libdevice not linked?); it would fail to load on the GPU

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<32xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %a[%t] : memref<32xf32>
      %e = math.exp %v : f32
      memref.store %e, %a[%t] : memref<32xf32>
      gpu.return
    }
  }
}
