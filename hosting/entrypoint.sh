#!/bin/sh
# The container's entry (docs/hosting.md): the public server starts only with the host
# names it serves. STREAMLIT_SERVER_ALLOWED_HOSTS becomes server.allowedHosts (names
# separated by spaces); empty, Streamlit would accept any Host header on its WebSocket,
# which DNS rebinding turns against visitors, so the container refuses to start.
set -eu
hosts="${STREAMLIT_SERVER_ALLOWED_HOSTS:-}"
if [ -z "$(printf '%s' "$hosts" | tr -d ' \t')" ]; then
    echo "metric-explorer: not starting: set STREAMLIT_SERVER_ALLOWED_HOSTS to the public" \
        "host name(s) the proxy serves, separated by spaces (e.g. demo.example.org)." >&2
    exit 64
fi
case "$hosts" in
    *[\[\]\"\',]*)
        echo "metric-explorer: not starting: STREAMLIT_SERVER_ALLOWED_HOSTS holds host names" \
            "separated by spaces, not a list: got $hosts" >&2
        exit 64
        ;;
esac
exec python -m streamlit run app.py "$@"
