"""``metric-explorer``: open the explorer on your own files, from a terminal or a notebook.

From a terminal::

    metric-explorer scores.csv                           # one table: binary, regression, ...
    metric-explorer --qrels qrels.txt --run bm25.run     # TREC: the Top-K retrieval page
    metric-explorer --labels y.npy --scores model.npy --page dcg
    metric-explorer --labels y.csv --scores a.csv --scores b.csv --models  # two models
    metric-explorer big.parquet --task binary --y-true y --score p   # as metrics evaluate

Each file is read here first by the Data page's upload readers (:mod:`explorer.io`,
through :func:`explorer.opened.read`): a refused file prints the reader's sentence
and the command exits with status 2, as ``python -m metrics evaluate`` does. Then a
Streamlit server starts on a free local port (``127.0.0.1`` only), reading the same
files through a manifest named in ``METRIC_EXPLORER_OPEN`` (:mod:`explorer.opened`),
and the browser opens the page that fits the first dataset (``--page`` chooses).
A Parquet file given with ``--task`` and the columns of ``python -m metrics evaluate``
(``--y-true``, ``--score``, ``--weight``; parsed by :func:`metrics.cli.parse_args`, so
they mean the same) is opened as the host's big data (:mod:`explorer.bigdata`): exact
headline numbers over every row, the per-sample pages on a uniform sample.

From a notebook, :func:`launch` starts a server (or reuses the one it started) on
arrays and returns the page's address, shown inline by Jupyter.

Streamlit is not imported here: the server is a child process (``streamlit run`` on
the ``app.py`` installed beside this package).

Examples
--------
>>> args = parse_args(["s.csv", "--page", "dcg", "--no-browser"])
>>> args.files, args.page, args.no_browser
(['s.csv'], 'dcg', True)
"""

from __future__ import annotations

import argparse
import atexit
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import webbrowser
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from explorer import bigdata, opened, registry
from explorer.io import DataError
from explorer.io.limits import MAX_MODELS
from explorer.samples import sample_names

__all__ = ["Launched", "Server", "launch", "main", "page_for", "parse_args", "plan"]

#: ``app.py``: beside the packages, in the repository and in an installed wheel alike.
APP = Path(__file__).resolve().parents[1] / "app.py"
#: The options of the repository's ``.streamlit/config.toml``, given on the command line:
#: an installed app has no such file beside it (a test checks that the two agree).
STREAMLIT_OPTIONS = {
    "browser.gatherUsageStats": "false",
    "server.fileWatcherType": "none",
    "server.maxUploadSize": "50",
    "server.headless": "true",
    "client.showErrorDetails": "type",
    "client.toolbarMode": "minimal",
    "runner.magicEnabled": "false",
    "runner.postScriptGC": "false",
    "theme.base": "light",
}
#: The repository's options an installed app goes without: the Chinese font the
#: repository serves from static/, which a wheel does not hold (the machine's own fonts
#: draw Chinese there, docs/i18n.md).
NOT_INSTALLED = ("server.enableStaticServing", "theme.font", "theme.headingFont", "theme.fontFaces")
#: How long a new server may take to answer its health check.
START_SECONDS = 120
#: ``python -m metrics evaluate``'s task -> the Dataset kind of :mod:`explorer.bigdata`.
KIND_OF_TASK = {task: kind for kind, task in bigdata.TASK.items()}
#: The page each kind opens on (graded data from TREC opens Top-K retrieval).
PAGE_OF_KIND = {
    "binary": "curves",
    "regression": "regression",
    "multiclass": "multiclass",
    "multilabel": "multilabel",
    "graded": "dcg",
}


def _common() -> argparse.ArgumentParser:
    """The options of every form of the command."""
    p = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    p.add_argument(
        "--page",
        choices=[page.slug for page in registry.PAGES],
        help="the page to open (default: the one that fits the data)",
    )
    p.add_argument("--port", type=int, default=0, help="the server's port (default: a free one)")
    p.add_argument("--no-browser", action="store_true", help="print the address only")
    return p


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line of ``metric-explorer``.

    With ``--task``, every option but ``--page``, ``--port`` and ``--no-browser`` is
    parsed by :func:`metrics.cli.parse_args` (``args.evaluate``), so it means what it
    means to ``python -m metrics evaluate``.

    Examples
    --------
    >>> args = parse_args(["big.parquet", "--task", "binary", "--y-true", "y", "--score", "p"])
    >>> args.files, args.evaluate.task, args.evaluate.y_true, args.evaluate.score
    (['big.parquet'], 'binary', ['y'], ['p'])
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    if any(a == "--task" or a.startswith("--task=") for a in argv):
        from metrics.cli import parse_args as evaluate_args

        args, rest = _common().parse_known_args(argv)
        args.evaluate = evaluate_args(["evaluate", *rest])
        # the options typed, so a default (threshold 0.5) never overrides a page's own
        args.evaluate.given = {
            a[2:].split("=")[0].replace("-", "_") for a in rest if a.startswith("--")
        }
        args.files, args.labels, args.scores, args.qrels, args.run = (
            [args.evaluate.path],
            [],
            [],
            [],
            [],
        )
        return args
    p = argparse.ArgumentParser(
        prog="metric-explorer",
        parents=[_common()],
        allow_abbrev=False,
        description="Open Metric Explorer on your own files (a local server, in your browser).",
        epilog="metric-explorer DATA.parquet --task TASK --y-true COL --score COL [--weight COL] "
        "opens a Parquet file of any size with the options of `python -m metrics evaluate`: "
        "exact headline numbers over every row, the other pages on a uniform sample.",
    )
    p.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="a table: CSV, TSV, Parquet, a long table or a multiclass table (one dataset each)",
    )
    for flag, meta, text in (
        ("--labels", "L", "a labels matrix, with --scores (.csv, .tsv, .parquet, .npy)"),
        ("--scores", "S", "a scores matrix, one per --labels (or several for one --labels)"),
        ("--qrels", "Q", "TREC qrels, with --run"),
        ("--run", "R", "a TREC run, one per --qrels (or several for one --qrels)"),
    ):
        p.add_argument(flag, action="append", default=[], metavar=meta, help=text)
    p.add_argument(
        "--ltr",
        action="append",
        nargs="+",
        default=[],
        metavar="F",
        help="learning-to-rank files: DATA SCORES [QUERY] (SVMlight / LETOR or a qid table, "
        "a score file, a LightGBM .query file); opens DCG & NDCG with LightGBM's conventions",
    )
    p.add_argument(
        "--models",
        action="store_true",
        help=f"one --labels and several --scores (one --qrels and several --run of the same "
        f"documents) open as one dataset, a model per file (up to {MAX_MODELS}) instead of a "
        "dataset each",
    )
    args = p.parse_args(argv)
    args.evaluate = None
    return args


@dataclass
class Plan:
    """What to open: the manifest's entries (each opening on its page), or the host's
    big data; ``page`` and ``first`` are the page and dataset the browser opens."""

    entries: list[opened.Entry]
    big: str = ""
    page: str = registry.HOME
    first: str = ""
    pages: tuple[str, ...] = ()
    params: dict[str, str] = field(default_factory=dict)


#: The options of ``python -m metrics evaluate`` that a page reads from its address:
#: option -> ((page, URL parameter), ...).
SETTINGS = {
    "threshold": (("curves", "t"), ("multilabel", "t")),
    "k": (("dcg", "k"), ("retrieval", "k")),
    "denominator": (("retrieval", "ap_denominator"),),
    "log_base": (("dcg", "log_base"),),
    "ignore_ties": (("dcg", "ignore_ties"),),
}


def _in_url(value) -> str:
    """A setting as the page's address spells it (``2.0`` -> ``2``, ``True`` -> ``1``)."""
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def settings_params(ev: argparse.Namespace, page: str) -> dict[str, str]:
    """The URL parameters of ``page`` that the typed evaluate options set.

    Examples
    --------
    >>> ev = argparse.Namespace(threshold=0.3, k=5, log_base=2.0, ignore_ties=True,
    ...                         denominator="relevant", given={"threshold", "k", "log_base"})
    >>> settings_params(ev, "curves"), settings_params(ev, "dcg")
    ({'t': '0.3'}, {'k': '5', 'log_base': '2', 'ignore_ties': '1'})
    >>> settings_params(ev, "retrieval")
    {'k': '5'}
    """
    typed = set(getattr(ev, "given", ())) | ({"ignore_ties"} if ev.ignore_ties else set())
    return {
        param: _in_url(getattr(ev, option))
        for option, places in SETTINGS.items()
        if option in typed
        for slug, param in places
        if slug == page
    }


#: The DCG & NDCG page's link to LightGBM's and XGBoost's conventions (its preset).
LTR_PARAMS = {"preset": "lightgbm", "gain": "exponential", "ignore_ties": "1"}


def page_for(kind: str, fmt: str) -> str:
    """The page a dataset of that kind (read from that format) opens on.

    Examples
    --------
    >>> page_for("graded", "trec"), page_for("graded", "pair"), page_for("binary", "table")
    ('retrieval', 'dcg', 'curves')
    """
    return "retrieval" if fmt == "trec" else PAGE_OF_KIND[kind]


def _pairs(first: list[str], second: list[str], what: str) -> list[tuple[str, str]]:
    if len(first) == 1:
        first = first * len(second)
    if len(first) != len(second) or (first and not second):
        raise DataError(f"give one {what[0]} for each {what[1]}, or one for all of them.")
    return list(zip(first, second, strict=True))


def _unique(name: str, taken) -> str:
    """``name``, or ``name (2)``, ``name (3)``... when it is taken (a bundled sample's
    name is: the picker would hide the file behind the sample).

    Examples
    --------
    >>> _unique("balanced", ()), _unique("x", ("x", "x (2)"))
    ('balanced (2)', 'x (3)')
    """
    taken = {*taken, *sample_names()}
    unique, n = name, 1
    while unique in taken:
        n += 1
        unique = f"{name} ({n})"
    return unique


def _named(entries: list[tuple[str, str, tuple[str, ...]]]) -> list[opened.Entry]:
    """Entries named after their (last) file, made unique with a number."""
    found: list[opened.Entry] = []
    for name, fmt, files in entries:
        unique = _unique(name, [e.name for e in found])
        found.append(opened.Entry(unique, fmt, tuple(str(Path(f).resolve()) for f in files)))
    return found


def _big(ev: argparse.Namespace) -> tuple[str, str]:
    """The METRIC_EXPLORER_BIG_DATA entry of ``FILE --task ...`` and its name."""
    path = Path(ev.path).resolve()
    name = _unique(path.stem, ())
    if any(c in str(path) + "".join(ev.y_true + ev.score) for c in ",;+="):
        raise DataError(f"{path.name}: a path or column with , ; + or = cannot be opened here.")
    entry = (
        f"{path},name={name},kind={KIND_OF_TASK[ev.task]},y_true={'+'.join(ev.y_true)},"
        f"score={'+'.join(ev.score)}" + (f",weight={ev.weight}" if ev.weight else "")
    )
    sources, problems = bigdata.parse_config(entry)
    if problems:
        raise DataError(problems[0])
    bigdata.check_columns(sources[0])
    return entry, name


def _grouped(together: bool, first: list[str], many: list[str], fmt: str, flags) -> list:
    """The wanted entries of labels (qrels) and score files (runs): a dataset a score file,
    or with ``--models`` (one labels file, several score files) one dataset of them all."""
    if together and len(first) == 1 and len(many) > 1:
        noun = "score files" if fmt == "pair" else "runs"
        return [(f"{Path(first[0]).name} + {len(many)} {noun}", fmt, (first[0], *many))]
    named = (lambda f: Path(f).stem) if fmt == "pair" else (lambda f: Path(f).name)
    return [(named(s), fmt, (a, s)) for a, s in _pairs(first, many, flags)]


def plan(args: argparse.Namespace) -> Plan:
    """Read every file the command names (a refusal raises the reader's DataError)
    and choose the page: ``--page``, else the one that fits the first dataset."""
    if args.evaluate is not None:
        entry, name = _big(args.evaluate)
        kind = bigdata.parse_config(entry)[0][0].kind
        page = args.page or PAGE_OF_KIND[kind]
        return Plan([], entry, page, name, params=settings_params(args.evaluate, page))
    wanted = [(Path(f).name, "table", (f,)) for f in args.files]
    together = getattr(args, "models", False)
    wanted += _grouped(together, args.labels, args.scores, "pair", ("--labels", "--scores"))
    wanted += _grouped(together, args.qrels, args.run, "trec", ("--qrels", "--run"))
    for files in getattr(args, "ltr", []):
        if len(files) not in opened.LTR_FILES:
            raise DataError("--ltr takes DATA SCORES [QUERY]: 2 or 3 files.")
        wanted.append((Path(files[1]).stem, "ltr", tuple(files)))
    if not wanted:
        raise DataError("name a file to open (metric-explorer --help says how).")
    entries = _named(wanted)
    pages = tuple(args.page or page_for(opened.read(e).kind, e.format) for e in entries)
    # learning-to-rank scores are LightGBM's or XGBoost's: their ndcg@k's conventions
    first_ltr = entries[0].format == "ltr" and pages[0] == "dcg"
    return Plan(entries, "", pages[0], entries[0].name, pages, LTR_PARAMS if first_ltr else {})


def page_url(base: str, slug: str, name: str, params: dict[str, str] | None = None) -> str:
    """The address of page ``slug`` on the dataset ``name``, with its settings ``params``.

    Examples
    --------
    >>> page_url("http://127.0.0.1:8501", "retrieval", "bm25 run")
    'http://127.0.0.1:8501/retrieval?ds=bm25+run'
    >>> page_url("http://h:1", "curves", "clicks", {"t": "0.3"})
    'http://h:1/curves?ds=clicks&t=0.3'
    """
    path = "" if slug == registry.HOME else slug
    return f"{base}/{path}?{urllib.parse.urlencode({'ds': name, **(params or {})})}"


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now (the server binds it a moment later)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_command(port: int) -> list[str]:
    """``streamlit run app.py`` on ``127.0.0.1:port`` with the repository's options."""
    options = {**STREAMLIT_OPTIONS, "server.port": str(port), "server.address": "127.0.0.1"}
    flags = [arg for key, value in options.items() for arg in (f"--{key}", value)]
    return [sys.executable, "-m", "streamlit", "run", str(APP), *flags]


@dataclass
class Server:
    """A server this process started: its process, address and manifest."""

    process: subprocess.Popen
    base: str
    manifest: Path

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        """End the server (and remove its manifest's folder)."""
        if self.alive():
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.manifest.parent, ignore_errors=True)


def _healthy(base: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as r:
            return r.status == 200
    except (urllib.error.URLError, OSError):
        return False


def start(manifest: Path, *, big: str = "", port: int = 0) -> Server:
    """Start the server on ``manifest`` (and the big-data entry ``big``) and wait until
    it answers its health check; raise RuntimeError when it ends or never answers."""
    port = port or free_port()
    env = {**os.environ, opened.ENV: str(manifest), bigdata.ENV: big}
    # streamlit's banner names the server's root; the caller prints the page's address
    process = subprocess.Popen(
        server_command(port), env=env, cwd=APP.parent, stdout=subprocess.DEVNULL
    )
    server = Server(process, f"http://127.0.0.1:{port}", manifest)
    deadline = time.monotonic() + START_SECONDS
    while not _healthy(server.base):
        if not server.alive() or time.monotonic() > deadline:
            server.stop()
            raise RuntimeError(f"the explorer's server did not start on port {port}")
        time.sleep(0.2)  # a poll of the health check: the server answers within seconds
    return server


def main(argv: list[str] | None = None) -> int:
    """Run ``metric-explorer``; return 2 when a file is refused, else the server's status.

    Examples
    --------
    >>> import contextlib, io
    >>> with contextlib.redirect_stderr(io.StringIO()) as err:
    ...     status = main(["/nonexistent/scores.csv", "--no-browser"])
    >>> status, err.getvalue()
    (2, 'metric-explorer: cannot read scores.csv: No such file or directory.\\n')
    """
    args = parse_args(argv)
    try:
        chosen = plan(args)
    except DataError as exc:
        print(f"metric-explorer: {exc}", file=sys.stderr)
        return 2
    manifest = Path(tempfile.mkdtemp(prefix="metric-explorer-")) / "open.json"
    for entry in chosen.entries:
        opened.add_entry(manifest, entry)
    try:
        server = start(manifest, big=chosen.big, port=args.port)
    except RuntimeError as exc:
        print(f"metric-explorer: {exc}", file=sys.stderr)
        return 1
    # a terminated command stops its server too (SIGTERM would skip the finally below);
    # set before the address is printed: a caller may stop the command once it reads it
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        url = page_url(server.base, chosen.page, chosen.first, chosen.params)
        print(f"Metric Explorer: {url}", flush=True)
        for entry, page in zip(chosen.entries[1:], chosen.pages[1:], strict=True):
            print(f"  also: {page_url(server.base, page, entry.name)}", flush=True)
        if not args.no_browser:
            webbrowser.open(url)
        return server.process.wait()
    except KeyboardInterrupt:
        return 0
    finally:
        server.stop()


# ---------------------------------------------------------------------------
# from a notebook
# ---------------------------------------------------------------------------
#: The server :func:`launch` started in this process (reused by the next call).
_SERVER: Server | None = None


@dataclass(frozen=True)
class Launched:
    """What :func:`launch` returns: the page's address; Jupyter shows the page inline."""

    url: str
    height: int = 800

    def __str__(self) -> str:
        return self.url

    def _repr_html_(self) -> str:
        return f'<iframe src="{self.url}" width="100%" height="{self.height}"></iframe>'

    @property
    def iframe(self):
        """An ``IPython.display.IFrame`` of the page (None without IPython)."""
        try:
            from IPython.display import IFrame
        except ImportError:
            return None
        return IFrame(self.url, width="100%", height=self.height)


def _write_arrays(folder: Path, y_true, y_score, sample_weight, kind) -> tuple[str, tuple]:
    """Write the arrays as files the upload readers read: the format and the files.

    1-D labels and 1-D scores (or a dict of them, one per model) make a Parquet table;
    1-D labels and a 2-D probability matrix a multiclass table (``proba_<class>``, the
    classes sorted); 2-D labels and scores an ``.npy`` pair.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    y = np.asarray(y_true)
    models = dict(y_score) if isinstance(y_score, dict) else {"model": y_score}
    models = {str(m): np.asarray(s) for m, s in models.items()}
    first = next(iter(models.values()))
    if y.ndim == 2:
        if len(models) != 1 or sample_weight is not None:
            raise ValueError("2-D y_true takes one model's 2-D scores and no sample_weight")
        ((model, scores),) = models.items()
        np.save(folder / "labels.npy", y)
        np.save(folder / f"{model}.npy", scores)
        return "pair", (folder / "labels.npy", folder / f"{model}.npy")
    columns = {"y_true": y}
    if first.ndim == 2:
        if len(models) != 1:
            raise ValueError("a 2-D probability matrix is one model's")
        classes = np.unique(y)
        columns |= {f"proba_{c}": first[:, j] for j, c in enumerate(classes)}
    else:
        numeric = np.issubdtype(y.dtype, np.number) or y.dtype == bool
        regression = kind == "regression" or (
            kind is None and numeric and not np.isin(y, (0, 1)).all()
        )
        prefix = "pred_" if regression else "score_"
        columns |= {f"{prefix}{m}": s for m, s in models.items()}
    if sample_weight is not None:
        columns["sample_weight"] = np.asarray(sample_weight, dtype=np.float64)
    pq.write_table(pa.table(columns), folder / "data.parquet")
    return "table", (folder / "data.parquet",)


def launch(
    y_true,
    y_score,
    *,
    sample_weight=None,
    kind: str | None = None,
    name: str | None = None,
    page: str | None = None,
    port: int = 0,
    open_browser: bool = False,
) -> Launched:
    """Open the explorer on arrays: start a local server (or reuse this process's).

    Parameters
    ----------
    y_true : array-like
        Labels (0/1, two text classes, class names, targets) or a 2-D label matrix.
    y_score : array-like or dict of str to array-like
        Scores (a dict names several models), a 2-D probability matrix (one column per
        class of ``y_true``, the classes sorted) or a 2-D score matrix.
    sample_weight : array-like, optional
    kind : {"binary", "regression", "multiclass", "multilabel", "graded"}, optional
        As the Data page's readers infer it, when not given.
    name : str, optional
        The dataset's name in the picker (default ``notebook 1``, ``notebook 2``...).
    page : str, optional
        The page to open (a slug such as ``"dcg"``); default: the one that fits.
    port : int
        The new server's port (default a free one; ignored when a server is reused).
    open_browser : bool
        Open the page in the browser too.

    Returns
    -------
    Launched
        ``.url`` the page's address; Jupyter shows the page in an iframe.

    Raises
    ------
    explorer.io.DataError
        The readers refuse the data (the same sentence the Data page shows).

    Notes
    -----
    In a notebook cell (tests/views/test_launch_app.py starts one)::

        app = explorer.launch.launch([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3], name="toy")
        app.url   # 'http://127.0.0.1:40123/curves?ds=toy'; the cell's output shows the page
    """
    global _SERVER
    if name in sample_names():
        raise ValueError(f"{name!r} is the name of a bundled sample: choose another name")
    if _SERVER is None or not _SERVER.alive():
        manifest = Path(tempfile.mkdtemp(prefix="metric-explorer-")) / "open.json"
        _SERVER = None
    else:
        manifest = _SERVER.manifest
    taken = {entry.name for entry in opened.read_manifest(manifest)}
    name = name or next(
        f"notebook {i}" for i in range(1, len(taken) + 2) if f"notebook {i}" not in taken
    )
    folder = Path(tempfile.mkdtemp(prefix="data-", dir=manifest.parent))
    fmt, files = _write_arrays(folder, y_true, y_score, sample_weight, kind)
    entry = opened.Entry(name, fmt, tuple(str(f) for f in files), kind)
    ds = opened.read(entry)
    opened.add_entry(manifest, entry)
    if _SERVER is None:
        _SERVER = start(manifest, port=port)
        atexit.register(_SERVER.stop)
    url = page_url(_SERVER.base, page or page_for(ds.kind, fmt), name)
    if open_browser:
        webbrowser.open(url)
    return Launched(url)


def stop() -> None:
    """End the server :func:`launch` started, if any."""
    global _SERVER
    if _SERVER is not None:
        _SERVER.stop()
        _SERVER = None


if __name__ == "__main__":
    sys.exit(main())
