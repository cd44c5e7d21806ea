# Metric Explorer as a public demo: docs/hosting.md.
#   docker build -t metric-explorer .
#   docker run --rm -p 8501:8501 --read-only --tmpfs /tmp metric-explorer
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    STREAMLIT_SERVER_ADDRESS=0.0.0.0 \
    STREAMLIT_SERVER_PORT=8501 \
    MALLOC_ARENA_MAX=2 \
    METRIC_EXPLORER_HOSTED=1

WORKDIR /app

# The pinned runtime requirements only (no test or bench packages).
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt

# The app, and the hosted config in place of the development one.
COPY app.py ./
COPY explorer/ explorer/
COPY metrics/ metrics/
COPY views/ views/
COPY sample_data/ sample_data/
COPY hosting/healthcheck.py hosting/healthcheck.py
COPY hosting/config.toml .streamlit/config.toml

# An unprivileged user that owns nothing it could change.
RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin app
USER app

EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=6s --start-period=20s --retries=3 \
    CMD ["python", "hosting/healthcheck.py"]
CMD ["python", "-m", "streamlit", "run", "app.py"]
