"""The container's HEALTHCHECK: exit 0 when the app answers ``ok`` on /_stcore/health.

Reads the port from ``STREAMLIT_SERVER_PORT`` (8501 by default) and asks on the
loopback address, as Docker runs it inside the container.

Examples
--------
>>> url()
'http://127.0.0.1:8501/_stcore/health'
"""

from __future__ import annotations

import os
import sys
import urllib.request


def url() -> str:
    """The health endpoint of the app in this container."""
    port = os.environ.get("STREAMLIT_SERVER_PORT", "8501")
    return f"http://127.0.0.1:{port}/_stcore/health"


def main() -> int:
    try:
        with urllib.request.urlopen(url(), timeout=5) as response:
            return 0 if response.read().strip() == b"ok" else 1
    except OSError as exc:
        print(f"unhealthy: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
