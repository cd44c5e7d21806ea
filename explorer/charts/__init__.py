"""Plotly figure builders, one module per page topic.

A package rather than one ``charts.py`` so each page's figures live in a
small module named for what they draw (``curves``, ``ranking``, ``dcg``,
``retrieval``, ``multilabel``, ``regression``). Figures are built from plain
arrays and DataFrames; nothing here imports streamlit, so every figure is
testable without a server.
"""

from explorer.theme import use_template

use_template()  # the Okabe-Ito colour way for every figure (explorer.theme)
