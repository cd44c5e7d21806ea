"""numpy's sort on Zen 4: which CPUs get AVX-512 turned off, and ``python -m metrics`` doing it."""

from __future__ import annotations

import runpy
import sys

import pytest

from metrics import _numpy_sort

ZEN4 = (
    "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\n"
    "model name\t: AMD EPYC 9R14\nflags\t\t: fpu sse2 avx2 avx512f avx512dq avx512bw\n"
)
ZEN3 = ZEN4.replace(" avx512f avx512dq avx512bw", "")  # family 25 without AVX-512
ZEN5 = ZEN4.replace("cpu family\t: 25", "cpu family\t: 26")
INTEL = ZEN4.replace("AuthenticAMD", "GenuineIntel").replace(": 25", ": 6")


@pytest.mark.parametrize(
    ("cpuinfo", "slow"), [(ZEN4, True), (ZEN3, False), (ZEN5, False), (INTEL, False), ("", False)]
)
def test_only_zen4_gets_avx512_turned_off(cpuinfo, slow):
    assert _numpy_sort.slow_avx512_sort(cpuinfo) is slow
    env = _numpy_sort.fast_sort_environment({"PATH": "/bin"}, cpuinfo)
    if slow:
        assert env == {"PATH": "/bin", "NPY_DISABLE_CPU_FEATURES": "X86_V4"}
    else:
        assert env is None


@pytest.mark.parametrize("value", ["", "AVX512_ICL"])
def test_a_variable_the_user_set_is_left_alone(value):
    environ = {"NPY_DISABLE_CPU_FEATURES": value}
    assert _numpy_sort.fast_sort_environment(environ, ZEN4) is None


class Exec(Exception):
    pass


def test_the_command_runs_itself_again_with_the_fast_sort(monkeypatch):
    # numpy is imported by now: the command execs the same command line with the variable
    seen = {}

    def execve(path, argv, env):
        seen.update(path=path, argv=argv, env=env)
        raise Exec

    monkeypatch.setattr("os.execve", execve)
    monkeypatch.setattr(
        _numpy_sort, "fast_sort_environment", lambda: {"NPY_DISABLE_CPU_FEATURES": "X86_V4"}
    )
    monkeypatch.setattr(sys, "orig_argv", ["python3", "-m", "metrics", "evaluate", "x.parquet"])
    with pytest.raises(Exec):
        runpy.run_module("metrics", run_name="__main__")
    assert seen == {
        "path": sys.executable,
        "argv": ["python3", "-m", "metrics", "evaluate", "x.parquet"],
        "env": {"NPY_DISABLE_CPU_FEATURES": "X86_V4"},
    }


def test_with_nothing_to_change_the_command_runs(monkeypatch, capsys):
    monkeypatch.setattr(_numpy_sort, "fast_sort_environment", lambda: None)
    monkeypatch.setattr(sys, "argv", ["metrics", "--help"])
    with pytest.raises(SystemExit) as done:
        runpy.run_module("metrics", run_name="__main__")
    assert done.value.code == 0
    assert "evaluate" in capsys.readouterr().out
