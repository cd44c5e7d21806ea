"""numpy's sort on AMD Zen 4: its AVX-512 path is several times slower than its AVX2 one.

numpy sorts 16/32/64-bit values with x86-simd-sort, and on a CPU with
AVX-512 it takes the AVX-512 path. That path stores each partition step with
``vpcompress`` to memory, which Zen 4 (AMD family 25 with AVX-512) runs as
microcode (numpy/x86-simd-sort#6; numpy's own benchmarks in numpy#32690). On
this project's Zen 4 machine a sort of 2**20 float32 values took 32 ns a value
with AVX-512 and 6 ns with it turned off (``NPY_DISABLE_CPU_FEATURES=X86_V4``),
float64 53 and 10 ns; the out-of-core command sorts every batch of its file.

numpy reads that variable once, when it is imported, so a process that wants
the fast sort sets it before numpy starts: ``python -m metrics`` sets it in its
own environment while Python locates its ``__main__``, before this package
imports numpy (:func:`prepare_command`, called first thing by ``metrics/__init__``;
it used to run itself again with it, 0.35 s of a new start, which ``__main__``
still does when numpy came first). A variable the user set, even to nothing, is
left as it is; other CPUs are left alone.

Examples
--------
>>> from metrics._numpy_sort import slow_avx512_sort
>>> zen4 = "vendor_id\\t: AuthenticAMD\\ncpu family\\t: 25\\nflags\\t\\t: fpu avx2 avx512f\\n"
>>> slow_avx512_sort(zen4), slow_avx512_sort(zen4.replace("25", "26"))
(True, False)
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping, Sequence

__all__ = ["FEATURES", "fast_sort_environment", "prepare_command", "slow_avx512_sort"]

#: The variable numpy reads at import, and what it is set to: numpy's AVX-512 (Skylake-X
#: and later) dispatch level, under which every AVX-512 target sits.
VARIABLE = "NPY_DISABLE_CPU_FEATURES"
FEATURES = "X86_V4"


def _field(cpuinfo: str, name: str) -> str:
    found = re.search(rf"^{name}\s*:\s*(.*)$", cpuinfo, flags=re.MULTILINE)
    return found.group(1).strip() if found else ""


def slow_avx512_sort(cpuinfo: str) -> bool:
    """Whether ``/proc/cpuinfo``'s text describes a Zen 4 CPU: AMD, family 25, AVX-512.

    Zen 3 is family 25 without AVX-512; Zen 5 (family 26) runs ``vpcompress`` fast.
    """
    return (
        _field(cpuinfo, "vendor_id") == "AuthenticAMD"
        and _field(cpuinfo, "cpu family") == "25"
        and "avx512f" in _field(cpuinfo, "flags").split()
    )


def _cpuinfo() -> str:
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            return f.read(65536)  # the first processor's block is enough
    except OSError:  # not Linux
        return ""


def fast_sort_environment(environ: Mapping[str, str] | None = None, cpuinfo: str | None = None):
    """The environment to run numpy in for its fast sort, or None when there is nothing
    to change (another CPU, or the variable already set).

    Examples
    --------
    >>> from metrics._numpy_sort import fast_sort_environment
    >>> fast_sort_environment({"NPY_DISABLE_CPU_FEATURES": ""}, "") is None
    True
    """
    environ = os.environ if environ is None else environ
    if VARIABLE in environ:
        return None
    if not slow_avx512_sort(_cpuinfo() if cpuinfo is None else cpuinfo):
        return None
    return {**environ, VARIABLE: FEATURES}


def runs_as_command(orig_argv: Sequence[str], argv: Sequence[str]) -> bool:
    """Whether this process is ``python [options] -m metrics ...`` still locating its
    ``__main__``: runpy holds ``sys.argv[0]`` at ``"-m"`` until it runs it.

    Examples
    --------
    >>> from metrics._numpy_sort import runs_as_command
    >>> runs_as_command(["python3", "-u", "-m", "metrics", "evaluate"], ["-m", "evaluate"])
    True
    >>> runs_as_command(["python3", "-m", "bench.streaming"], ["-m"])
    False
    """
    if not argv or argv[0] != "-m" or "-m" not in orig_argv[1:]:
        return False
    at = list(orig_argv).index("-m", 1)
    return list(orig_argv[at + 1 : at + 2]) == ["metrics"]


def prepare_command(environ=None, modules=None, orig_argv=None, argv=None, cpuinfo=None) -> bool:
    """Under ``python -m metrics`` and before numpy is imported, turn numpy's slow
    AVX-512 sort off in this process's own environment; whether it did.

    Every argument defaults to this process's own (``os.environ``, ``sys.modules``,
    ``sys.orig_argv``, ``sys.argv``, ``/proc/cpuinfo``).

    Examples
    --------
    >>> from metrics._numpy_sort import prepare_command
    >>> zen4 = "vendor_id\\t: AuthenticAMD\\ncpu family\\t: 25\\nflags\\t\\t: avx512f\\n"
    >>> env, command = {}, (["python3", "-m", "metrics", "evaluate"], ["-m", "evaluate"])
    >>> prepare_command(env, {}, *command, zen4), env
    (True, {'NPY_DISABLE_CPU_FEATURES': 'X86_V4'})
    >>> prepare_command({}, {"numpy": None}, *command, zen4)  # too late: numpy chose
    False
    """
    environ = os.environ if environ is None else environ
    modules = sys.modules if modules is None else modules
    orig_argv = sys.orig_argv if orig_argv is None else orig_argv
    argv = sys.argv if argv is None else argv
    if "numpy" in modules or not runs_as_command(orig_argv, argv):
        return False
    if fast_sort_environment(environ, cpuinfo) is None:
        return False
    environ[VARIABLE] = FEATURES
    return True
