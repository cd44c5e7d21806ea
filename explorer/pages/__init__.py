"""Page models: pure functions from a Dataset and a page's settings to what the page shows."""
