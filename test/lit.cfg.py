# -*- Python -*-
import os
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "SOFTMAX"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.softmax_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

config.environment["FILECHECK_OPTS"] = "--enable-var-scope --dump-input=fail"
# The C++/C/Python API in tests: every pass verified, and no disk cache (a test that wants one
# names its own directory), so that each test compiles for real and none writes to ~/.cache.
config.environment["SOFTMAX_VERIFY_PASSES"] = "1"
config.environment["SOFTMAX_CACHE_DIR"] = "off"

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%softmax_src_root", config.softmax_src_root))
config.substitutions.append(("%softmax_obj_root", config.softmax_obj_root))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
# `not` and `count` are found on PATH by the shell: put LLVM's tools first.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.softmax_tools_dir, append_path=True)

# test/Embedding: `cmake --install` of this build, and an out-of-tree consumer configured the
# way this build was (generator, compiler, launcher, linker; Release, as LLVM's packages are).
consumer_cmake = [config.cmake_command, "-G", '"%s"' % config.cmake_generator,
                  "-DCMAKE_BUILD_TYPE=Release"]
if config.cmake_make_program:
    consumer_cmake.append("-DCMAKE_MAKE_PROGRAM=" + config.cmake_make_program)
if config.cxx_compiler:
    consumer_cmake.append("-DCMAKE_CXX_COMPILER=" + config.cxx_compiler)
if config.cxx_compiler_launcher:
    consumer_cmake.append("-DCMAKE_CXX_COMPILER_LAUNCHER=" + config.cxx_compiler_launcher)
if config.llvm_use_linker:
    consumer_cmake.append("-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=" + config.llvm_use_linker)
config.substitutions.append(("%consumer-cmake", " ".join(consumer_cmake)))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%mlir_include_dir", config.mlir_include_dir))

tool_dirs = [config.softmax_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["softmax-opt", "softmax-run", "softmax-fuzz"], tool_dirs)

# `gpu`: a CUDA driver and device are usable (softmax-run --probe exits 0). The tests under
# Integration/ need one; SOFTMAX_TEST_GPU=0 or 1 overrides the probe.
import subprocess
gpu_override = os.environ.get("SOFTMAX_TEST_GPU")
if gpu_override is not None:
    has_gpu = gpu_override == "1"
else:
    has_gpu = False
    softmax_run = os.path.join(config.softmax_tools_dir, "softmax-run")
    if os.path.exists(softmax_run):
        try:
            has_gpu = subprocess.run([softmax_run, "--probe"], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, timeout=120).returncode == 0
        except (OSError, subprocess.SubprocessError):
            has_gpu = False
if has_gpu:
    config.available_features.add("gpu")

# ptxas (from a CUDA toolkit) assembles the generated PTX in the tests that need it.
import shutil
ptxas = shutil.which("ptxas") or next(
    (p for p in [os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "ptxas")]
     if os.path.exists(p)), None)
if ptxas:
    config.available_features.add("ptxas")
    # softmax-opt's ptx-file holds one PTX module a kernel: %ptxas-each assembles each of them
    # (scripts/ptxas-each.py). Before %ptxas, which is a prefix of it.
    config.substitutions.append(
        ("%ptxas-each", f"{sys.executable} {config.softmax_src_root}/scripts/ptxas-each.py "
                        f"--ptxas {ptxas}"))
    config.substitutions.append(("%ptxas", ptxas))
