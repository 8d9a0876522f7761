"""The package without a GPU: compile, inspect, plan, errors, cache (docs/python.md).
Run: SOFTMAX_C_LIBRARY=build/lib/libsoftmax-c.so python3 -m pytest python/tests
(test/Python/pytest.test does, in the README's test command)."""
import os
import subprocess
import sys

import pytest

import softmax_compiler as sc

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def example(name):
    with open(os.path.join(ROOT, "examples", name)) as f:
        return f.read()


DYNAMIC_BF16 = """func.func @d(%x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %p = softmax.softmax %x : tensor<?x?xbf16>
  return %p : tensor<?x?xbf16>
}
"""


def test_compile_static_program():
    exe = sc.compile(example("softmax_f32.mlir"))
    assert exe.functions == ["softmax_f32"]
    # The plan's fast kernel and its general one (aligned rows of whole vectors take the first).
    assert exe.kernels == [("softmax_f32_0_row_registers", (256, 1, 1)),
                           ("softmax_f32_0_row_registers_general", (256, 1, 1))]
    assert ".visible .entry softmax_f32_0_row_registers(" in exe.ptx
    assert ".visible .entry softmax_f32_0_row_registers_general(" in exe.ptx


def test_signature_lists_inputs_then_outputs():
    specs = sc.compile(example("padded_log_softmax_dynamic.mlir")).signature("padded_log_softmax")
    assert [s.is_output for s in specs] == [False, False, False, True]
    assert specs[0].is_tensor and specs[0].shape == (None, None) and specs[0].dtype == "f16"
    assert specs[1].dtype == "i32" and specs[2].shape == (None,)


def test_plan_dispatches_on_the_width():
    exe = sc.compile(DYNAMIC_BF16)
    narrow = exe.plan("d", (1000, 32), (1000, 32))
    # Wider than the staged clusters take (923512 16-bit columns): the chunked plan.
    wide = exe.plan("d", (10, 1000000), (10, 1000000))
    assert len(narrow) == 1 and "multi_row" in narrow[0]["kernel"]
    assert narrow[0]["cluster"] == (0, 0, 0)
    # 70000 f32 columns: a cluster of 8 blocks a row (sm_90), 10 rows: 80 blocks.
    f32 = sc.compile(DYNAMIC_BF16.replace("bf16", "f32"))
    clustered = f32.plan("d", (10, 70000), (10, 70000))
    assert len(clustered) == 1 and "row_cluster" in clustered[0]["kernel"]
    assert clustered[0]["cluster"] == (8, 1, 1) and clustered[0]["grid"] == (80, 1, 1)
    assert len(wide) == 1 and "chunked_online" in wide[0]["kernel"]
    assert wide[0]["block"] == (512, 1, 1)
    # 200000 bf16 columns (a plain softmax): staged over a cluster of 4 blocks of 512 threads,
    # each with a quarter of the row's 25001 words in shared memory; 40000 columns on one block
    # a row, launched without a cluster.
    staged = exe.plan("d", (10, 200000), (10, 200000))
    assert len(staged) == 1 and "row_staged" in staged[0]["kernel"]
    assert staged[0]["cluster"] == (4, 1, 1) and staged[0]["grid"] == (40, 1, 1)
    assert staged[0]["block"] == (512, 1, 1) and staged[0]["shared_bytes"] == 6251 * 16 + 272
    single = exe.plan("d", (10, 40000), (10, 40000))
    assert len(single) == 1 and "row_staged" in single[0]["kernel"]
    assert single[0]["cluster"] == (0, 0, 0) and single[0]["grid"] == (10, 1, 1)


def test_kernels_compile_when_a_call_first_needs_them():
    """compile() stops before the kernels; prepare() (and a call's first launch) compiles those
    the call launches and no others, then loads them (which needs a GPU)."""
    exe = sc.compile(DYNAMIC_BF16.replace("@d", "@lazy"), cache_dir="off")
    names = [name for name, _ in exe.kernels]
    assert len(names) > 8 and not any(exe.kernel_compiled(i) for i in range(len(names)))
    launched = exe.plan("lazy", (64, 3000), (64, 3000))[0]["kernel"]
    try:
        exe.prepare("lazy", (64, 3000), (64, 3000))
    except sc.SoftmaxError as error:
        assert "CUDA" in str(error)  # no GPU on this machine: compiled, not loaded
    assert [n for i, n in enumerate(names) if exe.kernel_compiled(i)] == [launched]
    assert exe.ptx.count("// gpu.binary @") == len(names)  # the PTX compiles every kernel
    assert all(exe.kernel_compiled(i) for i in range(len(names)))


def test_plan_rejects_wrong_argument_count():
    exe = sc.compile(DYNAMIC_BF16)
    with pytest.raises(sc.SoftmaxError, match="takes 2 arguments"):
        exe.plan("d", (4, 4))


def test_run_refuses_shapes():
    # A shape is a null pointer: fine for plan(), never for a launch.
    with pytest.raises(TypeError, match="plan\\(\\) only"):
        sc.compile(DYNAMIC_BF16).run("d", (4, 4), (4, 4))


def test_unknown_function():
    with pytest.raises(sc.SoftmaxError, match="no function @nope"):
        sc.compile(DYNAMIC_BF16).signature("nope")


def test_compile_error_carries_the_diagnostic():
    with pytest.raises(sc.SoftmaxError, match="expected non-function type"):
        sc.compile("func.func @bad(")


def test_bad_option_is_an_error():
    with pytest.raises(sc.SoftmaxError, match="unknown chip 'sm_42'"):
        sc.compile(DYNAMIC_BF16, chip="sm_42")


def test_second_compile_is_a_cache_hit():
    first = sc.compile(example("attention_scores_bf16.mlir"))
    size = sc.cache_size()
    second = sc.compile(example("attention_scores_bf16.mlir"))
    assert second.same_as(first)
    assert sc.cache_size() == size
    other = sc.compile(example("attention_scores_bf16.mlir"), opt_level=2)
    assert not other.same_as(first)


def test_disk_cache_serves_a_new_process(tmp_path):
    """A second process reads the entries the first one wrote (the program's, and one for each
    kernel it compiled for the PTX): same PTX, and no entry is rewritten (a miss would rename a
    new file over it, with a new inode)."""
    script = ("import sys, softmax_compiler as sc\n"
              "exe = sc.compile(open(sys.argv[1]).read(), cache_dir=sys.argv[2])\n"
              "sys.stdout.write(exe.ptx)\n")
    source = os.path.join(ROOT, "examples", "softmax_f32.mlir")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))

    def run():
        return subprocess.run([sys.executable, "-c", script, source, str(tmp_path)], env=env,
                              check=True, capture_output=True, text=True).stdout

    first = run()
    entries = sorted(tmp_path.iterdir())
    assert [p.suffix for p in entries].count(".smxc") == 1
    assert [p.suffix for p in entries].count(".smxk") == 2  # the fast and the general kernel
    assert ".entry softmax_f32_0_row_registers(" in first
    inodes = [p.stat().st_ino for p in entries]
    assert run() == first
    assert sorted(tmp_path.iterdir()) == entries
    assert [p.stat().st_ino for p in entries] == inodes


def test_disk_cache_off_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("SOFTMAX_CACHE_DIR", str(tmp_path))
    sc.cache_clear()
    sc.compile(DYNAMIC_BF16.replace("@d", "@off"), cache_dir="off")
    assert list(tmp_path.iterdir()) == []


def test_linalg_is_raised_on_request():
    # torch-mlir's form: casts and a division by a narrowed f64 constant around linalg.softmax.
    # One plan each: its fast kernel and its general one.
    exe = sc.compile(example("linalg_softmax_torch_mlir.mlir"), raise_linalg=True)
    assert [name for name, _ in exe.kernels][1:] == [exe.kernels[0][0] + "_general"]
    exe = sc.compile(example("decomposed_softmax_iree.mlir"), raise_linalg=True)
    assert [name for name, _ in exe.kernels][1:] == [exe.kernels[0][0] + "_general"]


def test_tensor_like_values_give_their_shape():
    class Fake:  # __cuda_array_interface__ as CuPy gives it
        __cuda_array_interface__ = {"shape": (8, 100), "typestr": "<f4", "data": (0, False),
                                    "strides": None, "version": 3}
    exe = sc.compile("""func.func @f(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %p = softmax.softmax %x : tensor<?x?xf32>
  return %p : tensor<?x?xf32>
}
""")
    launches = exe.plan("f", Fake(), Fake())
    assert launches[0]["kernel"].startswith("f_0_")
