# Included after find_package(MLIR). In a static build, first rewrite MLIR's imported targets so
# that they link the static LLVM component libraries instead of libLLVM.so (SoftmaxStaticPrelude).
if(SOFTMAX_STATIC_TOOLS)
  softmax_static_fixup()
endif()

# softmax_mlir_link(<target> <PUBLIC|PRIVATE> <MLIR component libraries...>)
#
# Links <target> against MLIR according to the link model of this build:
#  - shared: the libMLIR.so target `MLIR` alone (it brings libLLVM.so through its interface);
#  - static (SOFTMAX_STATIC_TOOLS): the named static component libraries.
# Every project library and tool says which MLIR libraries it needs, so the static link pulls in
# only those, and the shared link stays a one-line dependency.
function(softmax_mlir_link target scope)
  if(SOFTMAX_STATIC_TOOLS)
    target_link_libraries(${target} ${scope} ${ARGN})
  else()
    target_link_libraries(${target} ${scope} MLIR LLVM)
  endif()
endfunction()

# softmax_add_library(<name> SOURCES ... [DEPENDS ...] [MLIR_LIBS ...] [LIBS ...])
#
# One static library per layer (lib/softmax/<Layer>), built from focused translation units, and
# installed as SoftmaxCompiler::<Layer> (cmake/SoftmaxInstall.cmake). Its users get the
# project's include directories and MLIR's (SoftmaxMLIRIncludes) with it.
function(softmax_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS;MLIR_LIBS;LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  target_include_directories(${name} PUBLIC
    "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include;${PROJECT_BINARY_DIR}/include>"
    "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
  target_link_libraries(${name} PUBLIC ${ARG_LIBS} SoftmaxMLIRIncludes)
  softmax_mlir_link(${name} PUBLIC ${ARG_MLIR_LIBS})
  if(SOFTMAX_STATIC_TOOLS)
    target_compile_options(${name} PRIVATE -ffunction-sections -fdata-sections)
  endif()
  softmax_install_targets(${name})
endfunction()

# softmax_finish_tool(<target>): link options of the self-contained static tools; installs the
# tool.
function(softmax_finish_tool target)
  if(SOFTMAX_STATIC_TOOLS)
    target_compile_options(${target} PRIVATE -ffunction-sections -fdata-sections)
    target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc -fuse-ld=lld
                        -Wl,--gc-sections -Wl,--icf=all -Wl,-s)
  endif()
  softmax_install_targets(${target})
endfunction()
