"""Run every case on one dataset: time ours and each comparator, check the values."""

from __future__ import annotations

import re
import sys
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

import metrics._ranks
from bench.cases import Case, Ref, cases_for, compare, ranx_setup, to_plain
from bench.data import BenchData
from bench.timing import Budget, Timing, extrapolate, peak_memory, time_call

#: Checks: "=" agree; "differs" a named convention difference; "MISMATCH" unexplained.
AGREE, DIFFERS, MISMATCH, ERROR = "=", "differs", "MISMATCH", "error"


@dataclass
class RefResult:
    """A comparator's timing and value check against ours."""

    lib: str
    api: str
    timing: Timing | None
    check: str  # AGREE, DIFFERS, MISMATCH or ERROR
    gap: float = 0.0
    note: str = ""

    def speedup(self, ours: Timing | None) -> float | None:
        """Their time over ours (> 1: ours is faster)."""
        if self.timing is None or ours is None or ours.seconds <= 0:
            return None
        return self.timing.seconds / ours.seconds


@dataclass
class CaseResult:
    """Our timing, peak memory and the comparators of one case on one dataset."""

    metric: str
    timing: Timing | None
    peak_bytes: int | None
    refs: list[RefResult] = field(default_factory=list)
    error: str = ""
    #: our time with metrics' row blocks in the caller's thread alone (METRICS_THREADS=1)
    one_thread: Timing | None = None
    #: bytes of the arrays our call returns (part of ``peak_bytes``)
    result_bytes: int = 0

    def ref(self, lib: str) -> RefResult | None:
        """The comparator result of ``lib``, if it ran."""
        return next((r for r in self.refs if r.lib == lib), None)


@dataclass
class DatasetResult:
    """Everything measured on one dataset (the arrays themselves are not kept)."""

    name: str
    kind: str
    ties: bool
    n: int
    n_labels: int
    input_bytes: int
    argsort: Timing | None
    loop_rows: int | None
    cases: list[CaseResult] = field(default_factory=list)
    setup: dict[str, Timing] = field(default_factory=dict)

    def case(self, metric: str) -> CaseResult | None:
        """The result of the case named ``metric``."""
        return next((c for c in self.cases if c.metric == metric), None)


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _short_error(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:160] if text else ''}"


@contextmanager
def one_thread():
    """Run ``metrics`` on one thread (its row blocks in the caller's thread) inside."""
    saved = metrics._ranks.WORKERS
    metrics._ranks.WORKERS = 1
    try:
        yield
    finally:
        metrics._ranks.WORKERS = saved


def _head(d: BenchData) -> BenchData:
    """The row subset of ``d`` used for extrapolated comparators (cached)."""
    if "head" not in d.cache:
        d.cache["head"] = d.head(d.loop_rows)
    return d.cache["head"]


def _ensure_ranx(target: BenchData, result: DatasetResult, budget: Budget, full_n: int) -> None:
    """Build ranx Qrels/Run for ``target`` once, recording the construction time."""
    if "ranx" in target.cache:
        return
    value, t = time_call(lambda: ranx_setup(target), Budget(0.0, 1))
    target.cache["ranx"] = value
    if target.n != full_n:
        t = extrapolate(t, target.n, full_n)
    result.setup["ranx Qrels + Run construction"] = t
    _log(f"    ranx Qrels + Run construction: {t.seconds:.3f} s")


def warm_up(libs: tuple[str, ...]) -> None:
    """Run every case and comparator once on tiny inputs, untimed.

    Imports, lazy initialisation (torch) and JIT compilation (ranx's numba
    functions, compiled or loaded from numba's cache) then happen here, not
    in the first timed call.
    """
    from bench.data import make_binary, make_graded, make_multilabel, make_regression

    tiny = [make_regression(300)]
    for ties in (False, True):
        tiny += [
            make_binary(300, ties=ties),
            make_multilabel(60, 12, ties=ties),
            make_graded(60, 12, ties=ties),
        ]
    for d in tiny:
        for case in cases_for(d):
            try:
                case.ours(d)
            except Exception:  # errors are reported by the timed run
                continue
            for ref in case.refs:
                if ref.lib not in libs:
                    continue
                try:
                    if ref.lib == "ranx" and "ranx" not in d.cache:
                        d.cache["ranx"] = ranx_setup(d)
                    ref.call(d)
                except Exception:
                    continue


def _run_ref(
    case: Case,
    ref: Ref,
    d: BenchData,
    ours_value,
    result: DatasetResult,
    budget: Budget,
) -> RefResult:
    target = _head(d) if (ref.row_loop and d.loop_rows) else d
    try:
        if ref.lib == "ranx":
            _ensure_ranx(target, result, budget, d.n)
        theirs, t = time_call(lambda: ref.call(target), budget)
        if target is not d:
            t = extrapolate(t, target.n, d.n)
            ours_value = case.ours(target)
    except Exception as exc:  # a comparator failing is reported, not fatal
        return RefResult(ref.lib, ref.api, None, ERROR, note=_short_error(exc))
    theirs = to_plain(theirs)
    a = ref.ours_value(ours_value) if ref.ours_value else ours_value
    b = ref.value(theirs) if ref.value else theirs
    try:
        ok, gap = compare(a, b, ref.tol)
    except (TypeError, ValueError) as exc:
        return RefResult(ref.lib, ref.api, t, ERROR, note=_short_error(exc))
    if ok:
        return RefResult(ref.lib, ref.api, t, AGREE, gap, ref.note if ref.value else "")
    expected = ref.agree == "never" or (ref.agree == "untied" and d.ties)
    if expected:
        return RefResult(ref.lib, ref.api, t, DIFFERS, gap, ref.note)
    return RefResult(ref.lib, ref.api, t, MISMATCH, gap, f"ours {_brief(a)}, theirs {_brief(b)}")


def _nbytes(value) -> int:
    """Bytes of the numpy arrays in a result (an array, or a tuple of them)."""
    if isinstance(value, np.ndarray):
        return value.nbytes
    if isinstance(value, tuple):
        return sum(map(_nbytes, value))
    return 0


def _brief(v) -> str:
    if isinstance(v, tuple):
        return "(" + ", ".join(_brief(x) for x in v) + ")"
    a = np.asarray(v, dtype=float)
    if a.ndim == 0:
        return f"{float(a):.10g}"
    return f"array{a.shape}"


def run_dataset(
    d: BenchData, libs: tuple[str, ...], budget: Budget, only: str | None = None
) -> DatasetResult:
    """Time and check every applicable case on ``d``.

    Parameters
    ----------
    d : BenchData
    libs : tuple of str
        Comparison libraries to run (those installed).
    budget : Budget
        Repeat budget of each timed call.
    only : str, optional
        A regular expression: run only the cases whose metric name it matches.

    Returns
    -------
    DatasetResult
    """
    _log(f"== {d.name}" + (f" (loop comparators on {d.loop_rows:,} rows)" if d.loop_rows else ""))
    argsort = None
    if d.kind != "regression":
        _, argsort = time_call(lambda: np.argsort(d.y_score, axis=-1), budget)
        _log(f"   np.argsort(axis=-1): {argsort.seconds * 1e3:.2f} ms")
    result = DatasetResult(
        d.name, d.kind, d.ties, d.n, d.n_labels, d.input_bytes, argsort, d.loop_rows
    )
    for case in cases_for(d):
        if only and not re.search(only, case.metric):
            continue
        try:
            value, t = time_call(lambda case=case: case.ours(d), budget)
            peak = peak_memory(lambda case=case: case.ours(d))
            t1 = None
            if metrics._ranks.WORKERS > 1:
                with one_thread():
                    _, t1 = time_call(lambda case=case: case.ours(d), budget)
        except Exception as exc:
            _log(f"   {case.metric}: ERROR {_short_error(exc)}")
            if "--traceback" in sys.argv:
                traceback.print_exc()
            result.cases.append(CaseResult(case.metric, None, None, error=_short_error(exc)))
            continue
        returned = _nbytes(value)
        value = to_plain(value)
        cr = CaseResult(case.metric, t, peak, one_thread=t1, result_bytes=returned)
        for ref in case.refs:
            if ref.lib in libs:
                cr.refs.append(_run_ref(case, ref, d, value, result, budget))
        result.cases.append(cr)
        refs = "  ".join(
            f"{r.lib} {r.timing.seconds * 1e3:.1f} ms {r.check}"
            if r.timing
            else f"{r.lib} {r.check}: {r.note}"
            for r in cr.refs
        )
        single = f" (1 thread {t1.seconds * 1e3:.2f} ms)" if t1 else ""
        peak_mib = peak / 2**20
        _log(f"   {case.metric}: {t.seconds * 1e3:.2f} ms{single}, peak {peak_mib:.1f} MiB  {refs}")
    return result
