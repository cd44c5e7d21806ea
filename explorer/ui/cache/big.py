"""The cached computations of the host's big data (METRIC_EXPLORER_BIG_DATA)."""

from __future__ import annotations

from explorer import bigdata as _bigdata
from explorer.ui.cache._core import shared, value

#: One pass over the host's Parquet data: the exact merged state and the sample, shared
#: by every session; keyed by the entry and the files' sizes and times (a replaced file
#: is read again), at most BOUNDS["big"] entries.
dataset = shared(_bigdata.load, size="big")
#: The parsed METRIC_EXPLORER_BIG_DATA (entries, refusals); refusals are logged on a miss.
config = value(_bigdata.parse_config)
#: The exact headline numbers of a sampled big dataset (None for any other dataset).
exact_headline = value(_bigdata.exact_headline)
#: Its ROC and PR curves over all rows (binary; None otherwise).
exact_curves = shared(_bigdata.exact_curves, size="big")
