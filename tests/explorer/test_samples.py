"""The gallery of bundled samples (explorer/samples.py, sample_data/index.csv)."""

import pytest

from explorer.datasets import KINDS
from explorer.samples import SAMPLE_DIR, load_sample, sample_index, sample_names


def test_every_sample_loads_with_matching_shapes():
    for name in sample_names():
        ds = load_sample(name)
        assert ds.description
        for s in ds.scores.values():
            assert s.shape == ds.y_true.shape


def test_seed_samples_hold_the_documents_numbers():
    ds = load_sample("seed002_auc8")
    assert ds.y_true.tolist() == [1, 0, 0, 0, 1, 0, 1, 0]
    assert ds.score().tolist() == [0.9, 0.8, 0.3, 0.1, 0.4, 0.9, 0.66, 0.7]
    ds = load_sample("seed001_dcg")
    assert ds.y_true[0].tolist() == [10, 0, 0, 1, 5]


def test_the_index_names_each_sample_once_with_its_kind_and_files():
    names = sample_names()
    assert len(set(names)) == len(names)
    for row in sample_index():
        assert row["kind"] in KINDS and row["title"] and row["teaches"]
        one_file = (SAMPLE_DIR / f"{row['name']}.csv").is_file()
        pair = (SAMPLE_DIR / f"{row['name']}.labels.csv").is_file()
        assert one_file != pair, row["name"]
        assert load_sample(row["name"]).kind == row["kind"]


def test_a_sample_is_loaded_once_and_an_unknown_name_is_refused():
    assert load_sample("seed002_auc8") is load_sample("seed002_auc8")
    with pytest.raises(KeyError, match="no bundled sample named 'nope'"):
        load_sample("nope")
