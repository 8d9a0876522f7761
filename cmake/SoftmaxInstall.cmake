# What `cmake --install` puts under the prefix (docs/embedding.md):
#   include/softmax/...                 the headers, the generated .inc and the .td files
#   lib/libSoftmax*.a                   one static library per layer
#   bin/softmax-opt, bin/softmax-run    the tools
#   lib/cmake/SoftmaxCompiler/          SoftmaxCompilerConfig.cmake and the exported targets,
#                                       SoftmaxCompiler::<Layer> (Dialect, Transforms, ...) and
#                                       SoftmaxCompiler::softmax-opt / softmax-run
include(CMakePackageConfigHelpers)

set(SOFTMAX_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/SoftmaxCompiler")

# MLIR's and LLVM's include directories, for the project's libraries and whoever links them.
# Debian's MLIR targets carry none. Installed, the package config fills this target in from the
# MLIR that find_dependency(MLIR) finds (cmake/SoftmaxCompilerConfig.cmake.in).
add_library(SoftmaxMLIRIncludes INTERFACE)
target_include_directories(SoftmaxMLIRIncludes SYSTEM INTERFACE
  "$<BUILD_INTERFACE:${LLVM_INCLUDE_DIRS};${MLIR_INCLUDE_DIRS}>")
target_compile_features(SoftmaxMLIRIncludes INTERFACE cxx_std_17)

# softmax_install_targets(<target>...): installs the targets into the SoftmaxCompiler export set.
# A library's exported name drops the `Softmax` prefix: SoftmaxDialect is
# SoftmaxCompiler::Dialect.
function(softmax_install_targets)
  foreach(target IN LISTS ARGN)
    string(REGEX REPLACE "^Softmax" "" export_name "${target}")
    set_target_properties(${target} PROPERTIES EXPORT_NAME "${export_name}")
  endforeach()
  install(TARGETS ${ARGN} EXPORT SoftmaxCompilerTargets
    ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
    LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
    RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
endfunction()

# Called once every target exists: the headers and the package.
function(softmax_install_package)
  softmax_install_targets(SoftmaxMLIRIncludes)
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/softmax"
    DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
    FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
  install(DIRECTORY "${PROJECT_BINARY_DIR}/include/softmax"
    DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
    FILES_MATCHING PATTERN "*.inc" PATTERN "CMakeFiles" EXCLUDE)
  install(EXPORT SoftmaxCompilerTargets NAMESPACE SoftmaxCompiler::
    DESTINATION "${SOFTMAX_INSTALL_CMAKEDIR}")
  configure_package_config_file(
    "${PROJECT_SOURCE_DIR}/cmake/SoftmaxCompilerConfig.cmake.in"
    "${PROJECT_BINARY_DIR}/lib/cmake/SoftmaxCompiler/SoftmaxCompilerConfig.cmake"
    INSTALL_DESTINATION "${SOFTMAX_INSTALL_CMAKEDIR}"
    PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
  write_basic_package_version_file(
    "${PROJECT_BINARY_DIR}/lib/cmake/SoftmaxCompiler/SoftmaxCompilerConfigVersion.cmake"
    VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMinorVersion)
  install(FILES
    "${PROJECT_BINARY_DIR}/lib/cmake/SoftmaxCompiler/SoftmaxCompilerConfig.cmake"
    "${PROJECT_BINARY_DIR}/lib/cmake/SoftmaxCompiler/SoftmaxCompilerConfigVersion.cmake"
    DESTINATION "${SOFTMAX_INSTALL_CMAKEDIR}")
endfunction()
