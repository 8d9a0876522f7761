"""softmax_compiler.softmax() without a GPU, on `__cuda_array_interface__` stand-ins: argument
checks, the shape-class cache, and what reaches the C API. The launch itself fails here (no CUDA
driver), after the C API has bound and checked every argument and evaluated the launch rules
(docs/api.md: argument errors come before the driver's), so the Launcher still holds the call's
arguments and its plan() shows the launch the call would have made. The GPU half is
scripts/gpu/python_check.py."""
import ctypes

import pytest

import softmax_compiler as sc
from softmax_compiler import _softmax



def _has_cuda_driver():
    try:
        ctypes.CDLL("libcuda.so.1")  # what the C API dlopens
        return True
    except OSError:
        return False


pytestmark = pytest.mark.skipif(_has_cuda_driver(),
                                reason="a CUDA driver is present: the stand-ins' pointers are fake")

TYPESTR = {"f32": "<f4", "f16": "<f2", "f64": "<f8", "i1": "|b1", "i32": "<i4", "i64": "<i8"}


class Array:
    """A CUDA array as CuPy describes it (never dereferenced: the launch fails before)."""

    def __init__(self, shape, dtype="f32", strides=None, pointer=1 << 20):
        self.shape = tuple(shape)
        itemsize = int(TYPESTR[dtype][2:])
        self.__cuda_array_interface__ = {
            "shape": self.shape, "typestr": TYPESTR[dtype], "data": (pointer, False),
            "strides": None if strides is None else tuple(s * itemsize for s in strides),
            "version": 3}


def launch(x, **options):
    """softmax() up to the driver: returns the cache entry the call used."""
    with pytest.raises(sc.SoftmaxError, match="CUDA driver"):
        sc.softmax(x, **options)
    return last_entry()


def last_entry():
    return list(_softmax._cache.values())[-1]


def planned(entry):
    error, launches = entry.launcher.plan()
    sc._check(error)
    assert len(launches) == 1
    return launches[0]


@pytest.fixture(autouse=True)
def fresh_cache():
    sc.softmax_cache_clear()
    yield


def test_one_compile_serves_every_shape_of_the_class():
    first = launch(Array((8, 1000)), out=Array((8, 1000)))
    assert first.spec.shape == (None, None)
    second = launch(Array((300, 300000)), out=Array((300, 300000)))
    assert second is first and len(sc.softmax_cache_info()) == 1
    # The second call's arguments are what the C API evaluated: 300 rows of 300000.
    names = [name for name, _ in first.executable.kernels]
    assert "chunked_online" in names[planned(second).kernel]


def test_contiguous_inputs_of_any_rank_share_the_2d_program():
    entry = launch(Array((4, 6, 1000)), out=Array((4, 6, 1000)))
    assert entry.spec.shape == (None, None)
    assert launch(Array((1000,)), out=Array((1000,))) is entry
    assert len(sc.softmax_cache_info()) == 1
    # A row stride larger than the width: the same 2-D program, given the strides.
    strided = launch(Array((4, 1000), strides=(1024, 1)), out=Array((4, 1000)))
    assert strided is entry
    assert strided.launcher.tensor_dims(0) == ([4, 1000], [1024, 1])
    assert strided.launcher.tensor_dims(2 - 1) == ([4, 1000], [1000, 1])


def test_fast_path_marshalling():
    # softmax()'s torch fast path calls launch2d; here with fake pointers, then the plan of
    # what it stored.
    entry = launch(Array((8, 1000)), out=Array((8, 1000)))
    launcher = entry.launcher
    with launcher.lock:
        error = launcher.launch2d(1 << 20, 1 << 21, 300, 300000, 0)
    with pytest.raises(sc.SoftmaxError, match="CUDA driver"):
        sc._check(error)
    assert launcher.tensor_dims(0) == ([300, 300000], [300000, 1])
    assert launcher.tensor_dims(1) == ([300, 300000], [300000, 1])
    assert launcher.arg_structs[0].data == 1 << 20 and launcher.arg_structs[1].data == 1 << 21
    names = [name for name, _ in entry.executable.kernels]
    assert "chunked_online" in names[planned(entry).kernel]


def test_strided_3d_input_keeps_its_rank():
    entry = launch(Array((2, 4, 1000), strides=(8192, 2048, 1)), out=Array((2, 4, 1000)))
    assert entry.spec.shape == (None, None, None)
    assert entry.launcher.tensor_dims(0) == ([2, 4, 1000], [8192, 2048, 1])
    assert planned(entry).grid[0] >= 1


def test_static_shapes_compile_per_shape():
    a = launch(Array((8, 1000)), out=Array((8, 1000)), shapes="static")
    b = launch(Array((8, 1024)), out=Array((8, 1024)), shapes="static")
    assert a.spec.shape == (8, 1000) and b.spec.shape == (8, 1024)
    # One plan: its fast kernel and its general one (docs/strategies.md).
    names = [name for name, _ in a.executable.kernels]
    assert names == [names[0], names[0] + "_general"], names


def test_side_operands_keep_their_broadcast_ones_static():
    x = Array((2, 64, 100))
    entry = launch(x, out=Array((2, 64, 100)), bias=Array((64, 1)), causal=True,
                   lengths=Array((2, 1), "i64"), mask=Array((1, 100), "i1"), temperature=2.0,
                   scale=0.125)
    spec = entry.spec
    assert spec.shape == (None, None, None)
    assert spec.bias == (None, 1) and spec.lengths == (None, 1) and spec.mask == (1, None)
    assert spec.lengths_dtype == "i64" and spec.causal and spec.scale == 0.125
    args = entry.launcher.arg_structs
    assert args[entry.indices["inv_temperature"]].float_value == 0.5
    assert planned(entry).grid[0] >= 1


def test_scale_objects_share_the_class_of_their_value():
    class Scalar:  # a 0-d tensor, say: hashes by identity, converts with float()
        def __float__(self):
            return 0.125
    first = launch(Array((8, 100)), out=Array((8, 100)), scale=Scalar(), shapes="static")
    second = launch(Array((8, 100)), out=Array((8, 100)), scale=Scalar(), shapes="static")
    assert second is first and first.spec.scale == 0.125


def test_out_dtype_and_log():
    entry = launch(Array((8, 100), "f16"), out=Array((8, 100)), out_dtype="f32", log=True,
                   masked_rows="nan")
    assert (entry.spec.dtype, entry.spec.out_dtype, entry.spec.log) == ("f16", "f32", True)
    assert "softmax.cast" in entry.spec.program()


@pytest.mark.parametrize("options,error,message", [
    (dict(out=Array((8, 101))), ValueError, r"out has shape \(8, 101\)"),
    (dict(out=Array((8, 100), "f16")), TypeError, "out is f16"),
    (dict(out=Array((8, 100)), bias=Array((7, 100))), ValueError, "does not broadcast"),
    (dict(out=Array((8, 100)), mask=Array((8, 100))), TypeError, "bool"),
    (dict(out=Array((8, 100)), lengths=Array((8,), "f32")), TypeError, "int32 or int64"),
    (dict(out=Array((8, 100)), lengths=Array((4,), "i32")), ValueError, "does not broadcast"),
    (dict(out=Array((8, 100)), temperature=0.0), ValueError, "positive"),
    (dict(out=Array((8, 100)), lengths=[3] * 8), TypeError, "lengths: not a torch tensor"),
    (dict(out=(8, 100)), TypeError, "out: not a torch tensor"),
    (dict(out=Array((8, 100)), dim=2), IndexError, "out of range"),
    (dict(out=Array((8, 100)), dim=0), ValueError, "torch tensors only"),
    (dict(out=Array((8, 100)), masked_rows="keep"), ValueError, "masked_rows"),
    (dict(out=Array((8, 100)), shapes="some"), ValueError, "shapes="),
    (dict(out=Array((8, 100), strides=(1, 8))), ValueError, "innermost stride"),
])
def test_bad_arguments_raise_before_compiling(options, error, message):
    with pytest.raises(error, match=message):
        sc.softmax(Array((8, 100)), **options)
    assert sc.softmax_cache_info() == []


def test_unsupported_input_type():
    with pytest.raises(TypeError, match="not supported"):
        sc.softmax(Array((8, 100), "f64"), out=Array((8, 100)))
    with pytest.raises(TypeError, match="not a torch tensor"):
        sc.softmax([1.0, 2.0])


def test_lengths_need_rows():
    with pytest.raises(ValueError, match="rank >= 2"):
        sc.softmax(Array((100,)), lengths=Array((1,), "i32"), out=Array((100,)))


def test_empty_input_launches_nothing():
    out = Array((0, 100))
    assert sc.softmax(Array((0, 100)), out=out) is out


def test_torch_op_needs_torch():
    try:
        import torch  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError):
            sc.register_torch_op()
    else:
        pytest.skip("torch is installed: scripts/gpu/python_check.py checks the op")
