# Included before find_package(MLIR) when SOFTMAX_STATIC_TOOLS is ON.
#
# Debian's MLIR/LLVM packages export every MLIR target with the shared `LLVM` target (libLLVM.so)
# in its interface, and LLVM's own config links zstd and zlib as shared libraries. For tools that
# must run where no LLVM is installed, point those at static archives and, once MLIR's targets
# exist, swap `LLVM` for the static component libraries (see SoftmaxStaticFixup below).

find_library(SOFTMAX_ZSTD_STATIC NAMES libzstd.a REQUIRED)
if(NOT TARGET zstd::libzstd_shared)
  add_library(zstd::libzstd_shared STATIC IMPORTED)
  set_target_properties(zstd::libzstd_shared PROPERTIES IMPORTED_LOCATION "${SOFTMAX_ZSTD_STATIC}")
endif()
if(NOT TARGET zstd::libzstd_static)
  add_library(zstd::libzstd_static STATIC IMPORTED)
  set_target_properties(zstd::libzstd_static PROPERTIES IMPORTED_LOCATION "${SOFTMAX_ZSTD_STATIC}")
endif()
find_library(SOFTMAX_ZLIB_STATIC NAMES libz.a REQUIRED)
set(ZLIB_LIBRARY "${SOFTMAX_ZLIB_STATIC}" CACHE FILEPATH "static zlib" FORCE)
set(ZLIB_INCLUDE_DIR /usr/include CACHE PATH "" FORCE)
set(LLVM_ENABLE_Z3_SOLVER OFF CACHE BOOL "" FORCE)

# Called from SoftmaxLinkModel once MLIR's imported targets are known.
macro(softmax_static_fixup)
  set(LLVM_LINK_LLVM_DYLIB OFF)
  llvm_map_components_to_libnames(_softmax_llvm_static_libs
    Core Support Passes Analysis TransformUtils IPO Linker BitReader BitWriter IRReader AsmParser
    Target TargetParser MC MCParser Object Option ProfileData Demangle FrontendOpenMP
    FrontendOffloading FrontendHLSL OrcJIT OrcShared OrcTargetProcess ExecutionEngine RuntimeDyld
    JITLink PerfJITEvents NVPTXCodeGen NVPTXDesc NVPTXInfo X86CodeGen X86AsmParser X86Desc X86Info
    AMDGPUCodeGen AMDGPUDesc AMDGPUInfo AMDGPUAsmParser Instrumentation Coverage)
  get_property(_softmax_all_mlir GLOBAL PROPERTY MLIR_ALL_LIBS)
  foreach(_t IN LISTS _softmax_all_mlir)
    if(TARGET ${_t})
      get_target_property(_type ${_t} TYPE)
      if(_type STREQUAL "STATIC_LIBRARY" OR _type STREQUAL "INTERFACE_LIBRARY")
        get_target_property(_libs ${_t} INTERFACE_LINK_LIBRARIES)
        if(_libs)
          list(TRANSFORM _libs REPLACE "^LLVM$" "${_softmax_llvm_static_libs}")
          list(TRANSFORM _libs REPLACE "^\\$<LINK_ONLY:LLVM>$" "${_softmax_llvm_static_libs}")
          # A few targets (MLIRExecutionEngine, MLIRJitRunner, ...) name the libMLIR.so dylib
          # itself: their static dependencies are linked by name by the tools instead.
          list(REMOVE_ITEM _libs MLIR "$<LINK_ONLY:MLIR>")
          list(REMOVE_ITEM _libs z3 -lz3 /usr/lib/x86_64-linux-gnu/libz3.so)
          set_target_properties(${_t} PROPERTIES INTERFACE_LINK_LIBRARIES "${_libs}")
        endif()
      endif()
    endif()
  endforeach()
  # LLVMSupport names libz3.so (used only by the Z3 constraint solver, which nothing here calls).
  if(TARGET LLVMSupport)
    get_target_property(_libs LLVMSupport INTERFACE_LINK_LIBRARIES)
    if(_libs)
      list(FILTER _libs EXCLUDE REGEX "z3")
      set_target_properties(LLVMSupport PROPERTIES INTERFACE_LINK_LIBRARIES "${_libs}")
    endif()
  endif()
endmacro()
