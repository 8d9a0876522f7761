"""ctypes bindings of the C API (include/softmax-c/Softmax.h, libsoftmax-c.so).

Only the standard library: the machines reach no Python package index (docs/python.md).
"""
import ctypes
import ctypes.util
import os

MAX_RANK = 8
DYNAMIC = -(2 ** 63)

# softmax_scalar_type
SCALAR_TYPES = ["i1", "i8", "i16", "i32", "i64", "index", "f16", "bf16", "f32", "f64"]
# softmax_argument_kind
ARGUMENT_TENSOR, ARGUMENT_FLOAT, ARGUMENT_INT = 0, 1, 2


class CompileOptions(ctypes.Structure):
    _fields_ = [("chip", ctypes.c_char_p), ("features", ctypes.c_char_p),
                ("opt_level", ctypes.c_int), ("format", ctypes.c_char_p),
                ("registers_per_thread", ctypes.c_int64), ("threads_per_block", ctypes.c_int64),
                ("raise_", ctypes.c_int), ("cache_dir", ctypes.c_char_p)]


class ArgumentInfo(ctypes.Structure):
    _fields_ = [("is_tensor", ctypes.c_int), ("is_output", ctypes.c_int),
                ("type", ctypes.c_int), ("rank", ctypes.c_int),
                ("shape", ctypes.c_int64 * MAX_RANK)]


class Argument(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int), ("data", ctypes.c_void_p), ("rank", ctypes.c_int),
                ("sizes", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("float_value", ctypes.c_double), ("int_value", ctypes.c_int64)]


class Launch(ctypes.Structure):
    _fields_ = [("kernel", ctypes.c_size_t), ("grid", ctypes.c_uint64 * 3),
                ("block", ctypes.c_uint64 * 3), ("cluster", ctypes.c_uint64 * 3),
                ("shared_bytes", ctypes.c_uint32)]


def _candidates():
    env = os.environ.get("SOFTMAX_C_LIBRARY")
    if env:
        yield env
    here = os.path.dirname(os.path.abspath(__file__))
    # The repository's build trees (python/ sits at the repository's root).
    for build in ("build", "build-static"):
        yield os.path.join(here, "..", "..", build, "lib", "libsoftmax-c.so")
    found = ctypes.util.find_library("softmax-c")
    if found:
        yield found


def load_library():
    """The C API's shared library: $SOFTMAX_C_LIBRARY, else the repository's build/lib, else the
    system's search path."""
    tried = []
    for path in _candidates():
        if path and (os.path.exists(path) or not os.path.dirname(path)):
            try:
                lib = ctypes.CDLL(path)
            except OSError as error:
                tried.append(f"{path}: {error}")
                continue
            _declare(lib)
            return lib
        tried.append(f"{path}: not found")
    raise OSError("libsoftmax-c.so not found (set SOFTMAX_C_LIBRARY): " + "; ".join(tried))


def _declare(lib):
    p, c_size, c_i64 = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int64
    sigs = {
        "softmax_error_message": (ctypes.c_char_p, [p]),
        "softmax_error_destroy": (None, [p]),
        "softmax_compile_options_init": (None, [ctypes.POINTER(CompileOptions)]),
        "softmax_compile": (p, [ctypes.c_char_p, c_size, ctypes.POINTER(CompileOptions),
                                ctypes.POINTER(p)]),
        "softmax_executable_destroy": (None, [p]),
        "softmax_executable_same": (ctypes.c_int, [p, p]),
        "softmax_cache_size": (c_size, []),
        "softmax_cache_clear": (None, []),
        "softmax_executable_ptx": (p, [p, ctypes.POINTER(ctypes.c_char_p),
                                       ctypes.POINTER(c_size)]),
        "softmax_executable_kernel_image": (p, [p, c_size, ctypes.POINTER(p),
                                                ctypes.POINTER(c_size)]),
        "softmax_executable_kernel_compiled": (ctypes.c_int, [p, c_size]),
        "softmax_executable_num_kernels": (c_size, [p]),
        "softmax_executable_kernel": (ctypes.c_char_p, [p, c_size, ctypes.POINTER(c_i64)]),
        "softmax_executable_num_functions": (c_size, [p]),
        "softmax_executable_function": (ctypes.c_char_p, [p, c_size]),
        "softmax_function_num_arguments": (c_i64, [p, ctypes.c_char_p]),
        "softmax_function_argument": (p, [p, ctypes.c_char_p, c_size,
                                          ctypes.POINTER(ArgumentInfo)]),
        "softmax_plan": (p, [p, ctypes.c_char_p, ctypes.POINTER(Argument), c_size,
                             ctypes.POINTER(Launch), c_size, ctypes.POINTER(c_size)]),
        "softmax_workspace_size": (p, [p, ctypes.c_char_p, ctypes.POINTER(Argument), c_size,
                                       ctypes.POINTER(ctypes.c_uint64)]),
        "softmax_prepare": (p, [p, ctypes.c_char_p, ctypes.POINTER(Argument), c_size]),
        "softmax_load": (p, [p]),
        "softmax_run": (p, [p, ctypes.c_char_p, ctypes.POINTER(Argument), c_size, p, p,
                            ctypes.c_uint64]),
    }
    for name, (restype, argtypes) in sigs.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
