"""The Streamlit boundary: the only part of ``explorer`` that imports ``streamlit``.

``session`` (this session's datasets), ``url`` (settings in the address), ``bound``
(widgets bound to the address), ``navigation`` (which page runs), ``sidebar``,
``share`` (the link), ``classroom`` (predict-then-reveal, intervals), ``widgets``
(small shared drawing helpers), ``cache`` (every cached computation, one module per
page) and ``session_cache`` (a session's own store). Everything else in ``explorer``
is plain Python over numpy, pandas and plotly, testable without a running app.
"""
