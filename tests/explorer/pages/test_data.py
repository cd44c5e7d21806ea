"""The Data page model (explorer.pages.data): label names typed in the editor and the
tables it edits."""

from __future__ import annotations

import numpy as np
import pandas as pd

from explorer import editing
from explorer.datasets import describe
from explorer.pages import data
from explorer.samples import load_sample
from explorer.ui import cache


def test_label_names_rename_add_remove_or_fall_back():
    old = ("a", "b", "c")
    got = data.label_names(" x ,y,  z ", old)
    assert got == data.LabelNames(("x", "y", "z"), ("x", "y", "z"))
    got = data.label_names("x, y", old)
    assert (got.names, got.removed, got.added) == (("x", "y"), ("c",), ())
    got = data.label_names("x, y, z, w, v", old)
    assert (got.names, got.removed, got.added) == (("x", "y", "z", "w", "v"), (), ("w", "v"))
    got = data.label_names("q, p, q, p, r", old)
    assert got.names == old and got.twice == ("p", "q")
    got = data.label_names(" , ,", old)
    assert got.names == old and got.given == () and got.twice == ()


def test_named_matrices_keep_rename_pad_and_window():
    ds = load_sample("seed003_lrap")
    labels, scores = editing.matrices_from_dataset(ds)
    got_l, got_s = data.named_matrices(ds, ["p", "q", "r"])
    assert list(got_l.columns) == ["p", "q", "r"]
    np.testing.assert_array_equal(got_l.to_numpy(), ds.y_true)
    np.testing.assert_array_equal(got_s.to_numpy(), scores.to_numpy())
    got_l, got_s = data.named_matrices(ds, ["p", "q", "r", "s"], slice(1, 3))
    assert got_l.shape == (2, 4) and (got_l["s"] == 0).all() and (got_s["s"] == 0).all()
    np.testing.assert_array_equal(got_l[["p", "q", "r"]].to_numpy(), ds.y_true[1:3])
    got_l, got_s = data.named_matrices(ds, ["only"])
    pd.testing.assert_series_equal(got_s["only"], scores.iloc[:, 0].rename("only"))


def test_cached_summary_is_describe():
    ds = load_sample("digit_properties")
    pd.testing.assert_frame_equal(cache.data.summary(ds), describe(ds))
    summary = cache.data.summary(ds).set_index("what")["value"]
    assert summary["rows with no true label"] == str(int((ds.y_true.sum(axis=1) == 0).sum()))
