"""The container's HEALTHCHECK: exit 0 when the app answers ``ok`` on /_stcore/health.

Reads the port from ``STREAMLIT_SERVER_PORT`` (8501 by default) and the path the app
is served under from ``STREAMLIT_SERVER_BASE_URL_PATH`` (``server.baseUrlPath``: the
health endpoint moves under it), and asks on the loopback address, as Docker runs it
inside the container.

Examples
--------
>>> url({})
'http://127.0.0.1:8501/_stcore/health'
>>> url({"STREAMLIT_SERVER_PORT": "9000", "STREAMLIT_SERVER_BASE_URL_PATH": "/metrics/"})
'http://127.0.0.1:9000/metrics/_stcore/health'
"""

from __future__ import annotations

import os
import sys
import urllib.request


def url(env=os.environ) -> str:
    """The health endpoint of the app in this container."""
    port = env.get("STREAMLIT_SERVER_PORT", "8501")
    base = env.get("STREAMLIT_SERVER_BASE_URL_PATH", "").strip("/")
    return f"http://127.0.0.1:{port}/{base + '/' if base else ''}_stcore/health"


def main() -> int:
    try:
        with urllib.request.urlopen(url(), timeout=5) as response:
            return 0 if response.read().strip() == b"ok" else 1
    except OSError as exc:
        print(f"unhealthy: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
