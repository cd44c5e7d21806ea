"""The hosted mode: hosting/config.toml, the Dockerfile, and the container's entry command.

No container runtime runs here, so the image is checked as text (base image,
pinned requirements only, non-root user, HEALTHCHECK, the files it copies) and
its entry command is run as the image would run it: in a folder laid out as the
Dockerfile's COPY lines lay out /app, with the image's environment, on
127.0.0.1. The container's own HEALTHCHECK script must then find it healthy.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest
from streamlit import config as st_config

from explorer.io import limits
from hosting.lock import lock_text

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = (ROOT / "Dockerfile").read_text()
HOSTED = tomllib.loads((ROOT / "hosting" / "config.toml").read_text())
DEV = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())


def instructions(name: str) -> list[str]:
    """The arguments of every ``name`` instruction, continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    return [ln.split(None, 1)[1] for ln in lines if ln.split(None, 1)[0] == name]


def copies() -> list[tuple[str, str]]:
    """(source, destination) of each COPY, relative to the build context and /app."""
    return [tuple(arg.split()) for arg in instructions("COPY")]


def image_env() -> dict[str, str]:
    env = {}
    for arg in instructions("ENV"):
        env.update(dict(re.findall(r"(\w+)=(\S+)", arg)))
    return env


# ---------------------------------------------------------------- the config
def test_the_hosted_config_has_the_hardened_settings():
    server, client = HOSTED["server"], HOSTED["client"]
    assert client["showErrorDetails"] == "none"
    assert server["enableXsrfProtection"] is True and server["enableCORS"] is True
    assert server["corsAllowedOrigins"] == []
    assert server["maxMessageSize"] < 200 and server["maxWidgetStateSize"] < 25
    assert server["enableAgentApi"] is False
    # static serving serves the image's static/: the Chinese font and what it draws
    assert server["enableStaticServing"] is True
    served = {p.name for p in (ROOT / "static").iterdir()}
    assert served == {"noto-sans-sc.woff2", "noto-sans-sc.txt"}
    assert HOSTED["browser"]["gatherUsageStats"] is False
    assert HOSTED["global"]["developmentMode"] is False


def test_both_configs_state_the_upload_limit_the_readers_enforce():
    """maxUploadSize MB is what the browser enforces: x 1,000,000 bytes (Linux, macOS)."""
    for cfg in (HOSTED, DEV):
        assert cfg["server"]["maxUploadSize"] == limits.UPLOAD_LIMIT_MB
    assert limits.MAX_UPLOAD_BYTES == HOSTED["server"]["maxUploadSize"] * 1000 * 1000


def test_neither_config_collects_garbage_after_every_rerun():
    """Streamlit's post-run ``gc.collect(2)`` costs 0.1 s per move at 100,000 x 100."""
    for cfg in (HOSTED, DEV):
        assert cfg["runner"]["postScriptGC"] is False


def test_every_key_of_the_configs_is_a_streamlit_option():
    known = set(st_config._config_options_template)
    for cfg in (HOSTED, DEV):
        keys = {f"{section}.{key}" for section, values in cfg.items() for key in values}
        assert keys <= known, keys - known


# ---------------------------------------------------------------- the Dockerfile
def test_the_image_is_slim_python_by_digest_non_root_with_a_healthcheck():
    assert re.fullmatch(r"python:3\.1[12]-slim@sha256:[0-9a-f]{64}", instructions("FROM")[0])
    user = instructions("USER")
    assert user and user[-1] not in ("root", "0")
    assert DOCKERFILE.index("USER ") < DOCKERFILE.index("ENTRYPOINT ")
    [health] = instructions("HEALTHCHECK")
    assert 'CMD ["python", "hosting/healthcheck.py"]' in health
    assert ("hosting/healthcheck.py", "hosting/healthcheck.py") in copies()
    assert json.loads(instructions("ENTRYPOINT")[0]) == ["sh", "hosting/entrypoint.sh"]
    assert not instructions("CMD")


def test_the_load_bench_runs_the_server_in_the_image_environment():
    from bench.load import HOSTED_ENV

    assert HOSTED_ENV == {"MALLOC_ARENA_MAX": "2", "METRIC_EXPLORER_HOSTED": "1"}
    assert HOSTED_ENV.items() <= image_env().items()


def test_the_image_installs_the_lock_only_and_the_lock_is_current():
    installs = [run for run in instructions("RUN") if "pip" in run]
    assert installs == ["pip install --no-cache-dir --no-deps -r hosting/requirements.lock"]
    lock = (ROOT / "hosting" / "requirements.lock").read_text()
    assert lock == lock_text()  # hosting/lock.py, run after a change of requirements.txt
    pins = [ln for ln in lock.splitlines() if ln and not ln.startswith("#")]
    assert all(re.fullmatch(r"[a-z0-9-]+==[0-9][\w.]*", ln) for ln in pins), pins
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            assert re.fullmatch(r"[A-Za-z0-9_.-]+==[0-9][\w.]*", line.strip()), line
            assert line.strip().lower() in pins
    # the transitive packages are there too: Streamlit's server and its protobuf
    assert {"starlette", "uvicorn", "protobuf"} <= {p.split("==")[0] for p in pins}


def test_the_files_the_image_copies_exist_and_the_config_is_the_hosted_one():
    for source, _ in copies():
        assert (ROOT / source).exists(), source
    assert ("hosting/config.toml", ".streamlit/config.toml") in copies()
    assert not any(src.startswith((".streamlit", "tests", ".venv")) for src, _ in copies())
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    assert ignored[1] == "*" and all(f"!{src}" in ignored for src, _ in copies() if "/" not in src)


@pytest.mark.parametrize(
    "hosts", ["", "  ", '["demo.example.org"]', "demo.example.org,other.example.org"]
)
def test_the_entrypoint_refuses_to_start_without_host_names(hosts):
    env = {**os.environ, "STREAMLIT_SERVER_ALLOWED_HOSTS": hosts, "PATH": "/nonexistent"}
    done = subprocess.run(
        ["/bin/sh", "hosting/entrypoint.sh"], cwd=ROOT, env=env, capture_output=True, timeout=10
    )
    assert done.returncode == 64
    assert b"not starting: " in done.stderr and b"STREAMLIT_SERVER_ALLOWED_HOSTS" in done.stderr


def test_the_healthcheck_follows_the_base_url_path():
    from hosting.healthcheck import url

    env = {"STREAMLIT_SERVER_PORT": "8600", "STREAMLIT_SERVER_BASE_URL_PATH": "metrics"}
    assert url(env) == "http://127.0.0.1:8600/metrics/_stcore/health"
    assert url({}) == "http://127.0.0.1:8501/_stcore/health"


# ---------------------------------------------------------------- the reverse proxy
NGINX = (ROOT / "hosting" / "nginx.conf").read_text()


def test_the_proxy_sets_the_headers_streamlit_cannot_and_refuses_the_metrics():
    for header in (
        'add_header X-Frame-Options "DENY" always;',
        "add_header Content-Security-Policy \"frame-ancestors 'none'\" always;",
        'add_header X-Content-Type-Options "nosniff" always;',
    ):
        assert header in NGINX
    assert re.search(r"location ~ \(\^\|/\)_stcore/metrics \{\s*return 404;", NGINX)
    assert "proxy_set_header Upgrade $http_upgrade;" in NGINX
    assert "client_max_body_size 60m;" in NGINX


# ---------------------------------------------------------------- the entry command
BASE = "demo"  # the app under a path, as behind a proxy at https://example.org/demo/


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _lay_out_app(app: Path) -> None:
    """The image's /app: every COPY of the Dockerfile but the packages' lock."""
    for source, dest in copies():
        if source.endswith("requirements.lock"):
            continue
        target = app / dest
        target.parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / source).is_dir():
            shutil.copytree(ROOT / source, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(ROOT / source, target)


@pytest.fixture(scope="module")
def hosted_app(tmp_path_factory):
    """The image's /app laid out in a folder, its ENTRYPOINT running there on 127.0.0.1
    under the path /demo, with host names set."""
    app = tmp_path_factory.mktemp("app")
    _lay_out_app(app)
    home = tmp_path_factory.mktemp("home")
    port = free_port()
    env = {**os.environ, **image_env(), "HOME": str(home)}
    env.update(
        STREAMLIT_SERVER_ADDRESS="127.0.0.1",
        STREAMLIT_SERVER_PORT=str(port),
        STREAMLIT_SERVER_BASE_URL_PATH=BASE,
        STREAMLIT_SERVER_ALLOWED_HOSTS="127.0.0.1 localhost",
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",  # its python
    )
    cmd = json.loads(instructions("ENTRYPOINT")[0])
    log = open(home.parent / f"hosted-{port}.log", "w+b")  # closed after the tests
    proc = subprocess.Popen(cmd, cwd=app, env=env, stdout=log, stderr=log)
    health = [sys.executable, "hosting/healthcheck.py"]
    deadline = time.monotonic() + 60
    while subprocess.run(health, cwd=app, env=env, capture_output=True).returncode != 0:
        if time.monotonic() > deadline or proc.poll() is not None:
            proc.kill()
            log.seek(0)
            pytest.fail("the hosted app did not start:\n" + log.read().decode()[-2000:])
        time.sleep(0.3)
    files = sorted(p for p in [*app.rglob("*"), *home.rglob("*")])
    yield f"http://127.0.0.1:{port}/{BASE}", files, app, home
    proc.terminate()
    proc.wait(timeout=15)
    log.close()


def test_the_entry_command_serves_a_healthy_app_that_refuses_cross_site_uploads(hosted_app):
    url, files, app, home = hosted_app
    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=5) as response:
        assert response.read() == b"ok"
    evil = urllib.request.Request(f"{url}/_stcore/health", headers={"Origin": "http://evil.test"})
    with urllib.request.urlopen(evil, timeout=5) as response:
        assert response.headers.get("Access-Control-Allow-Origin") is None
    upload = urllib.request.Request(f"{url}/_stcore/upload_file/s/f", data=b"x", method="PUT")
    with pytest.raises(urllib.error.HTTPError) as refused:  # no XSRF token
        urllib.request.urlopen(upload, timeout=5)
    assert refused.value.code == 403
    # the server wrote nothing next to the app, nor in its home folder
    assert sorted(p for p in [*app.rglob("*"), *home.rglob("*")]) == files


def _proxy_conf(app_port: int, port: int, tmp: Path) -> Path:
    """hosting/nginx.conf on plain HTTP at 127.0.0.1:port (no certificate here), in front
    of the app at app_port; everything else as written."""
    server = NGINX[NGINX.index("server {\n    listen 443") :]
    server = re.sub(r"\n\s*ssl_certificate\S* [^\n]*", "", server)
    server = server.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{port};")
    server = server.replace("127.0.0.1:8501", f"127.0.0.1:{app_port}")
    head = NGINX[NGINX.index("map $http_upgrade") : NGINX.index("server {")]
    conf = tmp / "nginx.conf"
    conf.write_text(
        f"pid {tmp}/nginx.pid;\nerror_log {tmp}/error.log;\ndaemon off;\n"
        "events {}\n"
        f"http {{\naccess_log off;\nclient_body_temp_path {tmp};\nproxy_temp_path {tmp};\n"
        f"{head}{server}}}\n"
    )
    return conf


@pytest.mark.skipif(not shutil.which("nginx"), reason="nginx is not installed here")
def test_through_the_proxy_every_answer_has_the_headers_and_the_metrics_are_refused(
    hosted_app, tmp_path
):
    url, *_ = hosted_app
    app_port = int(url.split(":")[2].split("/")[0])
    port = free_port()
    conf = _proxy_conf(app_port, port, tmp_path)
    proxy = subprocess.Popen(["nginx", "-c", str(conf), "-e", str(tmp_path / "error.log")])
    try:
        base = f"http://127.0.0.1:{port}/{BASE}"
        deadline = time.monotonic() + 20
        while True:
            try:
                response = urllib.request.urlopen(f"{base}/_stcore/health", timeout=5)
                break
            except OSError:
                assert time.monotonic() < deadline and proxy.poll() is None, "nginx did not start"
                time.sleep(0.2)
        for answer in (response, urllib.request.urlopen(f"{base}/", timeout=5)):
            assert answer.headers["X-Frame-Options"] == "DENY"
            assert answer.headers["Content-Security-Policy"] == "frame-ancestors 'none'"
            assert answer.headers["X-Content-Type-Options"] == "nosniff"
        # the app serves its metrics, the proxy does not pass them on
        with urllib.request.urlopen(f"{url}/_stcore/metrics", timeout=5) as direct:
            assert direct.status == 200
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{base}/_stcore/metrics", timeout=5)
        assert refused.value.code == 404
        assert refused.value.headers["X-Frame-Options"] == "DENY"
    finally:
        proxy.terminate()
        proxy.wait(timeout=10)
