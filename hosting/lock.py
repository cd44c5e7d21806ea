"""Write hosting/requirements.lock: requirements.txt and every package it pulls in,
each pinned to the version installed in this environment (with a requirements file
as its argument, that file's lock: requirements-dev.lock, the test environment's).

Run it with the project's environment, after changing requirements.txt and
installing it there:

    .venv/bin/python hosting/lock.py > hosting/requirements.lock
    .venv/bin/python hosting/lock.py requirements-dev.txt > requirements-dev.lock

The image installs the lock with ``pip install --no-deps``, so nothing that is not
in it (and at its version) reaches the image. Markers are evaluated for the image's
platform (Linux, CPython 3.11), so a Windows-only or older-Python dependency is left
out; a package a requirement names but that is not installed here stops the lock
with its name (install requirements.txt first).
"""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
#: The image's platform (python:3.11-slim), for the requirements' markers.
IMAGE = {
    "python_version": "3.11",
    "python_full_version": "3.11.0",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "sys_platform": "linux",
    "platform_system": "Linux",
    "os_name": "posix",
}


def _applies(req: Requirement, extras: set[str]) -> bool:
    if req.marker is None:
        return True
    return any(req.marker.evaluate({**IMAGE, "extra": e}) for e in (extras or {""}))


def pinned(requirements: list[str]) -> dict[str, str]:
    """Every package ``requirements`` pull in (by name): its installed version."""
    found: dict[str, str] = {}
    todo = [(Requirement(line), set()) for line in requirements]
    while todo:
        req, extras = todo.pop()
        name = canonicalize_name(req.name)
        if not _applies(req, extras):
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            raise SystemExit(f"{req.name} is required but not installed here") from None
        wanted = set(req.extras)
        if name in found and not wanted:
            continue
        found[name] = dist.version
        todo += [(Requirement(r), wanted) for r in dist.requires or ()]
    return found


def requirement_lines(requirements_file: Path) -> list[str]:
    """The requirements of a file, those of the files it includes (``-r other.txt``)
    first; comments and blank lines left out."""
    lines = []
    for line in requirements_file.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("-r "):
            lines += requirement_lines(requirements_file.parent / line[3:].strip())
        elif line:
            lines.append(line)
    return lines


#: What each lock says it is, by the requirements file it pins.
HEADS = {
    "requirements.txt": "The image's runtime packages: requirements.txt and everything it "
    "pulls in, pinned.\n# Made by: .venv/bin/python hosting/lock.py > hosting/requirements.lock",
    "requirements-dev.txt": "The test environment: requirements-dev.txt and everything it "
    "pulls in, pinned.\n# Made by: .venv/bin/python hosting/lock.py requirements-dev.txt "
    "> requirements-dev.lock",
}


def lock_text(requirements_file: Path = ROOT / "requirements.txt") -> str:
    head = f"# {HEADS[requirements_file.name]}\n"
    pins = pinned(requirement_lines(requirements_file))
    return head + "".join(f"{n}=={v}\n" for n, v in sorted(pins.items()))


if __name__ == "__main__":
    sys.stdout.write(lock_text(ROOT / sys.argv[1]) if len(sys.argv) > 1 else lock_text())
