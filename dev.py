"""The project's two set-up commands, with nothing but Python 3.11+ installed.

    python3 dev.py run     create .venv, install requirements.txt, start the app
    python3 dev.py test    create .venv, install requirements-dev.txt, Chromium and
                           axe-core (npm ci in tests/e2e/axe),
                           run every test (the real-browser tests included)

and an optional third, for the one test the suite skips for want of Spark:

    python3 dev.py spark   also install pyspark (into .spark/) and a Java runtime
                           (Debian's), run tests/metrics/test_spark.py

Extra arguments after ``test`` or ``spark`` go to pytest (``python3 dev.py test -k
dcg``); after ``run`` they go to ``streamlit run``. ``.ci/run`` calls ``python3 dev.py
test``; ``.ci/spark``, an optional CI step, calls ``python3 dev.py spark``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PYTHON = VENV / "bin" / "python"
#: The image's pins of every runtime package (hosting/lock.py): constraints for every environment.
LOCK = ROOT / "hosting" / "requirements.lock"
#: Every package of the test environment pinned (hosting/lock.py requirements-dev.txt).
DEV_LOCK = ROOT / "requirements-dev.lock"
CHROMIUM = Path("/usr/bin/chromium")
#: The browser the tests drive: Debian's build of Chromium's headless shell (the old
#: headless mode, without the browser's own UI; what Playwright itself runs headless),
#: about a fifth less CPU per page load than ``chromium --headless`` (bench/results.md).
HEADLESS_SHELL = Path("/usr/lib/chromium/chromium-headless-shell")


def _say(msg: str) -> None:
    print(f"[dev] {msg}", flush=True)


def _run(cmd: list[str], **kw) -> None:
    _say(" ".join(str(c) for c in cmd))
    subprocess.run(cmd, check=True, **kw)


def ensure_venv(requirements: str) -> None:
    """Create .venv and install ``requirements`` unless already up to date."""
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py may be started by an older python3
        sys.exit(f"Python 3.11+ is required; this is {sys.version.split()[0]}.")
    if not PYTHON.exists():
        _say(f"creating {VENV}")
        venv.EnvBuilder(with_pip=True).create(VENV)
    req = ROOT / requirements
    locks = [LOCK] if requirements == "requirements.txt" else [LOCK, DEV_LOCK]
    texts = [req.read_text(), *(lock.read_text() for lock in locks)]
    if requirements != "requirements.txt":
        texts.append((ROOT / "requirements.txt").read_text())
    digest = hashlib.sha256("".join(texts).encode()).hexdigest()
    stamp = VENV / f".stamp-{requirements}"
    if stamp.exists() and stamp.read_text() == digest:
        return
    # the locks as constraints: the packages the pins pull in come at the versions tested,
    # not whatever the registry holds newest today (a new release of one of them would
    # otherwise change the environment between two runs of the same commit)
    pip = [str(PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    _run([*pip, "-r", str(req), *(a for lock in locks for a in ("-c", str(lock)))])
    stamp.write_text(digest)


def _apt(*args: str, check: bool = True) -> int:
    """``apt-get ARGS``, non-interactive, as root (through sudo when not root); with
    ``check`` a failure stops dev.py, else its exit status is returned."""
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    cmd = [*sudo, "apt-get", *args]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    if check:
        _run(cmd, env=env)
        return 0
    return subprocess.run(cmd, env=env).returncode


def ensure_chromium() -> None:
    """Install Debian's chromium and chromium-headless-shell when either is missing.

    Playwright's own browser download cannot work here, so the tests point
    playwright at the system's headless shell (``chromium`` is the browser of the
    bench, which measures what a user's browser does). Without the shell the tests
    drive ``chromium``: a failed install of the shell alone does not stop the run.
    """
    if CHROMIUM.exists() and HEADLESS_SHELL.exists():
        return
    if shutil.which("apt-get") is None:
        _say("no apt-get: install Debian's chromium and chromium-headless-shell by hand")
        return
    if not CHROMIUM.exists():
        _apt("update", "-q")
        _apt("install", "-y", "-q", "chromium")
    # without the shell the tests drive chromium: a failed install does not stop the run
    shell = ("install", "-y", "-q", "chromium-headless-shell")
    if not HEADLESS_SHELL.exists() and _apt(*shell, check=False) != 0:
        _apt("update", "-q", check=False)  # no package lists yet
        _apt(*shell, check=False)
    if not HEADLESS_SHELL.exists():
        _say("chromium-headless-shell could not be installed: the tests drive chromium")


#: pyspark for the optional Spark test: in no requirements file (about 500 MB), installed
#: apart, into .spark/, and put on the test's PYTHONPATH only.
PYSPARK = "pyspark==4.3.0"
SPARK_DIR = ROOT / ".spark"
SPARK_TEST = "tests/metrics/test_spark.py"


def ensure_java() -> None:
    """Install Debian's Java runtime (Spark's) when no ``java`` is on the PATH."""
    if shutil.which("java"):
        return
    if shutil.which("apt-get") is None:
        sys.exit("no java and no apt-get: install a Java runtime (17 or later) for Spark")
    _apt("update", "-q")
    _apt("install", "-y", "-q", "openjdk-17-jre-headless")


def ensure_pyspark() -> None:
    """Install :data:`PYSPARK` into .spark/ unless that version is there."""
    stamp = SPARK_DIR / ".stamp"
    if stamp.exists() and stamp.read_text() == PYSPARK:
        return
    pip = [str(PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    _run([*pip, "--upgrade", "--target", str(SPARK_DIR), PYSPARK])
    stamp.write_text(PYSPARK)


def spark(rest: list[str]) -> int:
    """Run the Spark recipe's test with pyspark and Java installed (it skips without)."""
    ensure_venv("requirements-dev.txt")
    ensure_java()
    ensure_pyspark()
    path = os.pathsep.join(p for p in (str(SPARK_DIR), os.environ.get("PYTHONPATH")) if p)
    env = {**os.environ, "PYTHONPATH": path}
    args = [str(PYTHON), "-m", "pytest", "-p", "no:xdist", SPARK_TEST, *rest]
    _say(" ".join(args))
    return subprocess.call(args, env=env)


AXE = ROOT / "tests" / "e2e" / "axe"


def ensure_axe() -> None:
    """Install the pinned axe-core (tests/e2e/axe/package-lock.json) the browser tests
    inject, unless it is there (npm from Debian's packages when the machine has none).
    Without npm the accessibility check skips locally; with CI=true a missing axe-core
    fails the tests (tests/e2e/a11y.py)."""
    if (AXE / "node_modules" / "axe-core" / "axe.min.js").exists():
        return
    if shutil.which("npm") is None and shutil.which("apt-get"):
        _apt("install", "-y", "-q", "npm", check=False)
    npm = shutil.which("npm")
    if npm is None:
        _say("no npm: the accessibility checks (axe-core) will skip")
        return
    _run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=AXE)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"run", "test", "spark"}:
        print(__doc__)
        return 2
    cmd, rest = argv[0], argv[1:]
    os.chdir(ROOT)
    if cmd == "spark":
        return spark(rest)
    if cmd == "run":
        ensure_venv("requirements.txt")
        args = [str(PYTHON), "-m", "streamlit", "run", "app.py", *rest]
        _say(" ".join(args))
        return subprocess.call(args)
    ensure_venv("requirements-dev.txt")
    ensure_chromium()
    ensure_axe()
    # pytest-xdist: two workers per core (the e2e server fixture takes a free port per
    # worker). A browser test waits on its page and its server in turn: with two workers
    # per core both cores stay busy through the browser tests (98-99%, from /proc/stat);
    # pass -n yourself to choose, or -p no:xdist to run in one process.
    # --dist worksteal: a worker that runs out of tests takes half of another's
    # queue, so the cores stay busy to the end (tests/conftest.py starts the longest
    # tests first, so none of them is left alone at the end).
    chosen = any(a.startswith(("-n", "--numprocesses", "no:xdist")) for a in rest)
    workers = [] if chosen else ["-n", str(2 * (os.cpu_count() or 1)), "--dist", "worksteal"]
    args = [str(PYTHON), "-m", "pytest", *workers, *rest]
    _say(" ".join(args))
    # pytest caches its assertion-rewritten test modules (and Python the compiled ones)
    # in __pycache__: with PYTHONDONTWRITEBYTECODE set, every worker redid it on every
    # run (about 17 CPU s of each worker's 30 s collection)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return subprocess.call(args, env=env)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
