"""dev.py's optional third command: the Spark test with pyspark put beside, not in, .venv."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_dev():
    spec = importlib.util.spec_from_file_location("dev", ROOT / "dev.py")
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    return dev


def test_spark_runs_the_spark_test_alone_with_pyspark_on_its_path(monkeypatch):
    dev = load_dev()
    done, calls = [], []
    for name in ("ensure_venv", "ensure_java", "ensure_pyspark"):
        monkeypatch.setattr(dev, name, lambda *a, name=name: done.append(name))
    monkeypatch.setattr(dev.subprocess, "call", lambda args, env: calls.append((args, env)) or 0)
    monkeypatch.setenv("PYTHONPATH", "/elsewhere")
    assert dev.main(["spark", "-q"]) == 0
    assert done == ["ensure_venv", "ensure_java", "ensure_pyspark"]
    ((args, env),) = calls
    assert args[1:] == ["-m", "pytest", "-p", "no:xdist", "tests/metrics/test_spark.py", "-q"]
    assert env["PYTHONPATH"] == os.pathsep.join([str(ROOT / ".spark"), "/elsewhere"])


def test_pyspark_is_installed_once_per_version(monkeypatch, tmp_path):
    dev = load_dev()
    monkeypatch.setattr(dev, "SPARK_DIR", tmp_path)
    runs = []
    monkeypatch.setattr(dev, "_run", lambda cmd, **kw: runs.append(cmd))
    dev.ensure_pyspark()
    dev.ensure_pyspark()
    assert len(runs) == 1 and runs[0][-3:] == ["--target", str(tmp_path), "pyspark==4.3.0"]
    (tmp_path / ".stamp").write_text("pyspark==4.2.0")  # another version: installed again
    dev.ensure_pyspark()
    assert len(runs) == 2


def test_the_optional_ci_step_calls_it():
    text = (ROOT / ".ci" / "spark").read_text()
    assert text.rstrip().endswith("exec python3 dev.py spark")
    assert os.access(ROOT / ".ci" / "spark", os.X_OK)


def test_java_comes_from_debian_when_missing(monkeypatch):
    dev = load_dev()
    monkeypatch.setattr(dev.shutil, "which", lambda name: None if name == "java" else "/x")
    monkeypatch.setattr(dev.os, "geteuid", lambda: 0)
    runs = []
    monkeypatch.setattr(dev, "_run", lambda cmd, env: runs.append((cmd, env["DEBIAN_FRONTEND"])))
    dev.ensure_java()
    assert runs == [
        (["apt-get", "update", "-q"], "noninteractive"),
        (["apt-get", "install", "-y", "-q", "openjdk-17-jre-headless"], "noninteractive"),
    ]


def test_the_test_environment_is_pinned_whole_by_its_lock():
    # a package the pins pull in, released after the last landing, once changed a fresh
    # clone's environment (and failed the image lock's test): every package installed
    # here is in requirements-dev.lock, at its version there
    from hosting.lock import lock_text

    lock = (ROOT / "requirements-dev.lock").read_text()
    assert lock == lock_text(ROOT / "requirements-dev.txt")  # hosting/lock.py requirements-dev.txt
    pins = dict(ln.split("==") for ln in lock.splitlines() if ln and not ln.startswith("#"))
    assert {"scipy", "joblib", "uvicorn", "pluggy"} <= pins.keys()  # pulled in, not named
    image = (ROOT / "hosting" / "requirements.lock").read_text().splitlines()
    for name, version in (ln.split("==") for ln in image if ln and not ln.startswith("#")):
        assert pins[name] == version, name  # the tests run the image's runtime packages


def test_each_environment_is_installed_under_its_locks(monkeypatch, tmp_path):
    dev = load_dev()
    monkeypatch.setattr(dev, "VENV", tmp_path)
    monkeypatch.setattr(dev, "PYTHON", tmp_path / "python")
    (tmp_path / "python").touch()
    runs = []
    monkeypatch.setattr(dev, "_run", lambda cmd, **kw: runs.append(cmd))
    dev.ensure_venv("requirements.txt")
    dev.ensure_venv("requirements-dev.txt")
    dev.ensure_venv("requirements-dev.txt")  # up to date: not installed again
    image, tests = str(dev.LOCK), str(dev.DEV_LOCK)
    assert len(runs) == 2
    assert runs[0][-4:] == ["-r", str(ROOT / "requirements.txt"), "-c", image]
    assert runs[1][-6:] == ["-r", str(ROOT / "requirements-dev.txt"), "-c", image, "-c", tests]
