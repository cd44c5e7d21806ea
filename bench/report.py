"""Markdown report of one benchmark run (``bench/results.md``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bench.app_timing import PageResult
from bench.cases import LIBS
from bench.loading import LoadResult
from bench.runner import AGREE, DIFFERS, ERROR, MISMATCH, DatasetResult
from bench.targets import MISS, PASS, TargetRow
from bench.timing import Timing


@dataclass
class RunInfo:
    """What the report states about the run itself."""

    command: str
    quick: bool
    started: str
    wall_seconds: float
    cpu_count: int
    load_samples: list[tuple[str, tuple[float, float, float]]]
    versions: dict[str, str]
    missing: dict[str, str]
    loop_rows: int | None
    notes: list[str] = field(default_factory=list)


def fmt_time(seconds: float | None) -> str:
    """A duration with a sensible unit.

    Examples
    --------
    >>> fmt_time(0.000123), fmt_time(0.0123), fmt_time(12.3)
    ('0.123 ms', '12.3 ms', '12.30 s')
    """
    if seconds is None:
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e3:.3f} ms"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def _ratio(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:.0f}x" if x >= 100 else f"{x:.1f}x" if x >= 1 else f"{x:.2f}x"


def _extra(t: Timing | None) -> str:
    return f" (extrapolated from {t.rows:,} rows)" if t is not None and t.extrapolated else ""


class _Notes:
    """Numbered convention notes shared by every table."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def ref(self, text: str) -> str:
        if not text:
            return ""
        if text not in self.items:
            self.items.append(text)
        return f"[{self.items.index(text) + 1}]"


_SHORT = {"scikit-learn": "sk", "torchmetrics": "tm", "ranx": "rx"}


def _values_cell(case, notes: _Notes) -> str:
    parts = []
    for r in case.refs:
        mark = {AGREE: "=", DIFFERS: "≠", MISMATCH: "MISMATCH", ERROR: "error"}[r.check]
        note = notes.ref(r.note) if r.check in (DIFFERS, ERROR, MISMATCH) or r.note else ""
        parts.append(f"{_SHORT[r.lib]} {mark}{note}")
    return " · ".join(parts) if parts else "(ours only)"


def _dataset_table(d: DatasetResult, libs: list[str], notes: _Notes) -> list[str]:
    head = f"### {d.name}"
    lines = [head, ""]
    facts = [f"input matrix {d.input_bytes / 2**20:.1f} MiB (float64 scores)"]
    if d.argsort is not None:
        facts.append(f"one `np.argsort(y_score, axis=-1)`: {fmt_time(d.argsort.seconds)}")
    if d.loop_rows:
        facts.append(
            f"comparators that loop over rows in Python timed on the first {d.loop_rows:,} "
            "rows and extrapolated (marked)"
        )
    for name, t in d.setup.items():
        facts.append(f"{name}: {fmt_time(t.seconds)}{_extra(t)}, not included in evaluate")
    lines += ["; ".join(facts) + ".", ""]
    cols = ["metric (ours)", "time", "1 thread", "peak memory", "/ argsort", *libs, "values"]
    lines.append("| " + " | ".join(cols) + " |")
    lines.append("|" + "---|" * len(cols))
    for c in d.cases:
        if c.timing is None:
            lines.append(f"| `{c.metric}` | error: {c.error} |" + " |" * (len(cols) - 2))
            continue
        peak = (
            f"{c.peak_bytes / 2**20:.1f} MiB ({c.peak_bytes / d.input_bytes:.2f}x)"
            if c.peak_bytes is not None
            else "-"
        )
        ours_1t = c.one_thread if getattr(c, "one_thread", None) else c.timing
        vs_argsort = _ratio(ours_1t.seconds / d.argsort.seconds) if d.argsort else "-"
        single = fmt_time(c.one_thread.seconds) if getattr(c, "one_thread", None) else "-"
        cells = [f"`{c.metric}`", fmt_time(c.timing.seconds), single, peak, vs_argsort]
        for lib in libs:
            r = c.ref(lib)
            if r is None:
                cells.append("")
            elif r.timing is None:
                cells.append(f"error{notes.ref(r.note)}")
            else:
                cells.append(
                    f"{fmt_time(r.timing.seconds)} ({_ratio(r.speedup(c.timing))})"
                    f"{_extra(r.timing)}"
                )
        cells.append(_values_cell(c, notes))
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    return lines


def _targets_table(rows: list[TargetRow]) -> list[str]:
    lines = [
        "| target | where | required | measured | verdict | miss by | why / note |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        verdict = f"**{r.verdict}**" if r.verdict == MISS else r.verdict
        lines.append(
            f"| {r.target} | {r.where} | {r.required} | {r.measured} | {verdict} | "
            f"{r.miss_by} | {r.note} |"
        )
    return lines


def render(
    info: RunInfo,
    results: list[DatasetResult],
    targets: list[TargetRow],
    loads: list[LoadResult] | None,
    pages: list[PageResult] | None,
) -> str:
    """The whole report as markdown text."""
    notes = _Notes()
    libs = [lib for lib in LIBS if lib in info.versions]
    n_pass = sum(r.verdict == PASS for r in targets)
    n_miss = sum(r.verdict == MISS for r in targets)
    mismatches = [
        (d.name, c.metric, r)
        for d in results
        for c in d.cases
        for r in c.refs
        if r.check in (MISMATCH, ERROR)
    ]
    out = [
        "# Benchmark results",
        "",
        "Generated by `python -m bench` (bench/__main__.py); do not edit by hand. "
        "Times are wall-clock, the best of a few repeats, in one process; a speed-up "
        "(in brackets) is the comparator's time over ours (> 1x: ours is faster). "
        "Peak memory is tracemalloc's peak during one call of ours, beyond the inputs, "
        "as a multiple of the float64 score matrix (or vector). `metrics` shares its "
        "blocks of rows (or columns) between two threads (`METRICS_THREADS`); `1 thread` "
        "is our time with every block in the caller's thread, and `/ argsort` is that "
        "one-thread time over one default (single-threaded) "
        "`np.argsort(y_score, axis=-1)` of the same scores.",
        "",
        "## Run",
        "",
        f"- command: `{info.command}`" + (" (quick mode: reduced sizes)" if info.quick else ""),
        f"- started {info.started}; wall time {info.wall_seconds / 60:.1f} min",
        f"- machine: {info.cpu_count} cores; load average (1, 5, 15 min) "
        + "; ".join(f"{when}: {a:.2f}, {b:.2f}, {c:.2f}" for when, (a, b, c) in info.load_samples)
        + ". "
        + (
            "The 1-minute load rose above the core count: other processes shared the cores, "
            "so absolute times are inflated and noisy; "
            if max(a for _, (a, _b, _c) in info.load_samples) > info.cpu_count
            else "The bench itself keeps one or two cores busy (ours, torch and ranx use two "
            "threads); "
        )
        + "ratios come from the same process minutes apart.",
        "- versions: " + ", ".join(f"{k} {v}" for k, v in info.versions.items()),
    ]
    for lib, why in info.missing.items():
        out.append(f"- **{lib} not measured**: {why}")
    if info.loop_rows:
        out.append(
            "- Python-loop comparators on the continuous "
            f"{max(d.n for d in results if d.loop_rows):,}-row matrices were timed on their "
            f"first {info.loop_rows:,} rows and extrapolated linearly (each such cell says "
            "so); the tied matrices, where the targets are, were timed in full."
        )
    out += [f"- {n}" for n in info.notes]
    out += [
        "",
        f"## Targets: {n_pass} PASS, {n_miss} MISS",
        "",
        "Each ratio is measured in this run. "
        + (
            "**Quick mode: the sizes are reduced, so these verdicts are indicative only.**"
            if info.quick
            else ""
        ),
        "",
        *_targets_table(targets),
        "",
    ]
    out += ["## Value cross-checks", ""]
    if mismatches:
        out.append(f"**{len(mismatches)} unexplained disagreements or errors:**")
        out += [
            f"- {name}, `{metric}` vs {r.lib}: {r.check} ({r.note})"
            for name, metric, r in mismatches
        ]
    else:
        out.append(
            "Every comparator value agrees with ours within tolerance (1e-9 for scikit-learn "
            "and ranx, 1e-5 for torchmetrics, which computes in float32), except where a "
            "convention differs; those differences are named in the notes below."
        )
    out += [
        "",
        "In the `values` column: `=` agrees; `≠[n]` differs for the named convention [n]; "
        "sk = scikit-learn, tm = torchmetrics, rx = ranx.",
        "",
        "## Metrics",
        "",
    ]
    for d in results:
        out += _dataset_table(d, libs, notes)
    if notes.items:
        out += ["### Notes", ""]
        out += [f"{i}. {text}" for i, text in enumerate(notes.items, 1)]
        out.append("")
    if loads is not None:
        out += [
            "## Loading uploads (explorer.io vs pandas.read_csv)",
            "",
            "The explorer reads the uploaded bytes (`read_upload`, `read_pair_upload`), "
            "validating every cell; the baseline is a bare `pandas.read_csv(path)` of the "
            "same file(s). The pair's scores have one decimal: a full-precision 100,000 x 100 "
            "CSV is about 190 MB, over the 50 MB upload limit.",
            "",
            "| file | size | explorer.io | pandas.read_csv | ratio |",
            "|---|---|---|---|---|",
        ]
        for r in loads:
            out.append(
                f"| {r.what} | {r.size_bytes / 2**20:.1f} MiB | {fmt_time(r.explorer.seconds)} "
                f"| {fmt_time(r.pandas.seconds)} | {r.ratio:.2f}x |"
            )
        out.append("")
    if pages is not None:
        out += [
            "## Pages (AppTest)",
            "",
            "First render: a fresh AppTest of app.py on the default sample, the run that "
            "first shows the page. Big data: a Dataset injected into session_state before the "
            "first run; the page's first render on it, then each control of the page's main "
            "area moved in turn, each `at.run()` timed (worst shown; all listed below).",
            "",
            "| page | first render, default sample | first render, own-kind sample | "
            "big dataset | render on it | controls moved | slowest interaction | time | problem |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for p in pages:
            if not p.exists:
                out.append(f"| {p.title} (`{p.path}`) | missing | | | | | | | page file absent |")
                continue
            problem = "; ".join(
                x for x in (p.first_error and f"first: {p.first_error}", p.error) if x
            )
            worst = p.worst
            out.append(
                f"| {p.title} | {fmt_time(p.first_render)} | "
                f"{fmt_time(p.kind_render)} ({p.kind_sample}) | {p.dataset} | "
                f"{fmt_time(p.big_render)} | {len(p.interactions)} | "
                f"{worst[0] if worst else 'no control found'} | "
                f"{fmt_time(worst[1] if worst else None)} | {problem} |"
            )
        out.append("")
        out += ["Every interaction timed, page by page, in the order the controls were moved:", ""]
        for p in pages:
            if p.interactions:
                moves = "; ".join(f"{w}: {fmt_time(t)}" for w, t in p.interactions)
                out.append(f"- **{p.title}**: {moves}")
        out.append("")
    return "\n".join(out)
