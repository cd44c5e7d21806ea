"""numpy's sort on Zen 4: which CPUs get AVX-512 turned off, and ``python -m metrics`` doing it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from metrics import _numpy_sort

MAIN = Path(_numpy_sort.__file__).with_name("__main__.py")


def run_main() -> None:
    """``python -m metrics``: the module's code run as __main__ (not through runpy, which
    needs the loader that imported it, and pytest's doctest collection may have)."""
    exec(compile(MAIN.read_text(), str(MAIN), "exec"), {"__name__": "__main__"})


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


def test_the_command_runs_itself_again_with_the_fast_sort(monkeypatch, tmp_path):
    # numpy is imported by now: the command execs the same command line with the variable
    seen = {}

    def execve(path, argv, env):
        seen.update(path=path, argv=argv, env=env)
        raise Exec

    monkeypatch.setattr("os.execve", execve)
    monkeypatch.setattr(
        _numpy_sort, "fast_sort_environment", lambda: {"NPY_DISABLE_CPU_FEATURES": "X86_V4"}
    )
    big = tmp_path / "big.parquet"
    with open(big, "wb") as f:
        f.truncate(1 << 27)  # sparse: 128 MB of size, nothing written
    argv = ["python3", "-m", "metrics", "evaluate", str(big), "--task", "binary"]
    monkeypatch.setattr(sys, "orig_argv", argv)
    monkeypatch.setattr(sys, "argv", ["metrics", *argv[3:]])
    with pytest.raises(Exec):
        run_main()
    assert seen == {
        "path": sys.executable,
        "argv": argv,
        "env": {"NPY_DISABLE_CPU_FEATURES": "X86_V4"},
    }


def test_only_evaluate_of_a_large_local_input_starts_again(tmp_path):
    from metrics.__main__ import WORTH_BYTES, sorts_enough

    small, folder = tmp_path / "small.parquet", tmp_path / "parts"
    small.write_bytes(b"x" * 1000)
    folder.mkdir()
    for i in range(2):
        with open(folder / f"part{i}.parquet", "wb") as f:
            f.truncate(WORTH_BYTES // 2)
    assert sorts_enough(["evaluate", str(folder), "--task", "binary"])
    assert not sorts_enough(["evaluate", str(small), "--task", "binary"])
    assert not sorts_enough(["evaluate", str(folder), "--engine", "dask"])
    assert not sorts_enough(["trec", str(folder), str(folder)])
    assert not sorts_enough(["evaluate", str(tmp_path / "missing.parquet")])


def test_with_nothing_to_change_the_command_runs(monkeypatch, capsys):
    monkeypatch.setattr(_numpy_sort, "fast_sort_environment", lambda: None)
    monkeypatch.setattr(sys, "argv", ["metrics", "--help"])
    with pytest.raises(SystemExit) as done:
        run_main()
    assert done.value.code == 0
    assert "evaluate" in capsys.readouterr().out


COMMAND = (["python3", "-X", "importtime", "-m", "metrics", "evaluate", "x"], ["-m", "evaluate"])


@pytest.mark.parametrize(
    ("environ", "modules", "command", "cpuinfo", "set_to"),
    [
        ({}, {}, COMMAND, ZEN4, "X86_V4"),  # the command, numpy not imported yet: set here
        ({}, {}, COMMAND, INTEL, None),
        ({}, {"numpy": None}, COMMAND, ZEN4, None),  # too late: __main__ starts again
        ({"NPY_DISABLE_CPU_FEATURES": ""}, {}, COMMAND, ZEN4, ""),  # the user's value
        ({}, {}, (["python3", "-m", "bench.streaming"], ["-m"]), ZEN4, None),
        ({}, {}, (["python3", "script.py"], ["script.py"]), ZEN4, None),
    ],
)
def test_the_command_turns_the_slow_sort_off_before_numpy(
    environ, modules, command, cpuinfo, set_to
):
    before = dict(environ)
    done = _numpy_sort.prepare_command(environ, modules, *command, cpuinfo)
    assert done is (set_to == "X86_V4")
    assert environ.get("NPY_DISABLE_CPU_FEATURES") == set_to
    assert set(environ) - set(before) <= {"NPY_DISABLE_CPU_FEATURES"}


def test_the_package_chooses_the_sort_before_it_imports_numpy():
    # -X importtime lists each module once imported: the choice must come before numpy
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "metrics", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    names = [line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()]
    assert names.index("metrics._numpy_sort") < names.index("numpy")
    assert "evaluate" in done.stdout
