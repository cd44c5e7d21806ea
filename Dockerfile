# Metric Explorer as a public demo: docs/hosting.md.
#   docker build -t metric-explorer .
#   docker run --rm -p 127.0.0.1:8501:8501 --read-only --tmpfs /tmp \
#       -e STREAMLIT_SERVER_ALLOWED_HOSTS="demo.example.org" metric-explorer
# behind the reverse proxy of hosting/nginx.conf (the response headers, /_stcore/metrics).
#
# The base image by digest: python:3.11-slim as a public docker build log resolved it
# (2025-06-11); it was not checked against the registry here (no Docker daemon). To move
# to the current one: docker buildx imagetools inspect python:3.11-slim (its "Digest").
FROM python:3.11-slim@sha256:74132ced0002947303bc75654c7d51d3818435fe1c0ec6e4d84f7ca4d0849878

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    STREAMLIT_SERVER_ADDRESS=0.0.0.0 \
    STREAMLIT_SERVER_PORT=8501 \
    MALLOC_ARENA_MAX=2 \
    METRIC_EXPLORER_HOSTED=1

WORKDIR /app

# The runtime packages only, every one pinned (hosting/lock.py writes the lock from
# requirements.txt); --no-deps: nothing the lock does not name is installed.
COPY hosting/requirements.lock hosting/requirements.lock
RUN pip install --no-cache-dir --no-deps -r hosting/requirements.lock

# The app, and the hosted config in place of the development one.
COPY app.py ./
COPY explorer/ explorer/
COPY metrics/ metrics/
COPY views/ views/
COPY sample_data/ sample_data/
COPY static/ static/
COPY hosting/healthcheck.py hosting/healthcheck.py
COPY hosting/entrypoint.sh hosting/entrypoint.sh
COPY hosting/config.toml .streamlit/config.toml

# An unprivileged user that owns nothing it could change.
RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin app
USER app

EXPOSE 8501
# follows STREAMLIT_SERVER_PORT and STREAMLIT_SERVER_BASE_URL_PATH
HEALTHCHECK --interval=30s --timeout=6s --start-period=20s --retries=3 \
    CMD ["python", "hosting/healthcheck.py"]
# refuses to start without STREAMLIT_SERVER_ALLOWED_HOSTS, then runs streamlit run app.py
ENTRYPOINT ["sh", "hosting/entrypoint.sh"]
