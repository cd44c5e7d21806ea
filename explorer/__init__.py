"""The app layer of Metric Explorer: datasets, readers, state and charts."""
