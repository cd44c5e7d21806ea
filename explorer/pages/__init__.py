"""Page models: pure functions from (Dataset, settings) to results, one module per page."""
