"""explorer.bigdata: the host's big Parquet data, exact headlines and a stated sample."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.parquet as pq
import pytest

import metrics as M
from explorer import bigdata
from explorer.io import DataError

N = 20_000


@pytest.fixture(scope="module")
def binary_file(tmp_path_factory):
    rng = np.random.default_rng(41)
    y = rng.integers(0, 2, N).astype(np.int8)
    p = np.round(np.clip(0.3 * y + 0.7 * rng.random(N), 0, 1), 3)  # ties
    w = rng.random(N) * 2
    path = tmp_path_factory.mktemp("big") / "clicks.parquet"
    pq.write_table(pa.table({"y": y, "p": p, "w": w}), path, row_group_size=3_000)
    return path, y, p, w


def source(path, **options) -> bigdata.Source:
    text = ",".join([str(path), *(f"{k}={v}" for k, v in options.items())])
    found, problems = bigdata.parse_config(text)
    assert problems == []
    return found[0]


def test_binary_exact_headline_and_sample(binary_file):
    path, y, p, _ = binary_file
    ds = bigdata.load(source(path, name="clicks", y_true="y", score="p", sample=1500, seed=7))
    assert (ds.n_samples, ds.total_rows, ds.kind, ds.model_names) == (1500, N, "binary", ("p",))
    assert ds.description.startswith("A uniform random sample of 1,500 of the 20,000 rows")
    rows = np.array(ds.sample_ids, dtype=int)  # the rows' numbers in the file, ascending
    assert len(set(rows)) == 1500 and (np.diff(rows) > 0).all()
    np.testing.assert_array_equal(ds.y_true, y[rows])
    np.testing.assert_array_equal(ds.score(), p[rows])
    auc, ap, ll = bigdata.exact_headline(ds)
    assert (auc.label, ap.label, ll.label) == ("ROC AUC", "Average precision", "Log loss")
    assert auc.value == M.roc_auc_score(y, p)  # all rows, bit for bit
    assert ap.value == M.average_precision_score(y, p)
    np.testing.assert_allclose(ll.value, M.log_loss(y, p), rtol=1e-12)
    assert auc.value != M.roc_auc_score(ds.y_true, ds.score())  # not the sample's
    curves = bigdata.exact_curves(ds)
    for got, want in zip(curves["roc"], M.roc_curve(y, p), strict=True):
        np.testing.assert_array_equal(got, want)
    for got, want in zip(curves["pr"], M.precision_recall_curve(y, p), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-12)
    # the same seed draws the same rows; another seed others
    again = bigdata.load(source(path, y_true="y", score="p", sample=1500, seed=7))
    assert again.sample_ids == ds.sample_ids
    other = bigdata.load(source(path, y_true="y", score="p", sample=1500, seed=8))
    assert other.sample_ids != ds.sample_ids


def test_float32_scores_stream_as_samples_one_batch_read_ahead(tmp_path, monkeypatch):
    # a model's float32 probabilities: the batches reach the binary stream as samples
    # (dense blocks count them before any sort), read one batch ahead without pyarrow's
    # pre-buffering or thread pool, and every exact number is the in-memory function's
    import metrics.states.batches as batches
    from metrics.states.binary_stream import BinaryRows

    rng = np.random.default_rng(43)
    y = rng.integers(0, 2, N).astype(np.int8)
    p = (rng.random(N, dtype=np.float32) + np.float32(0.4) * y) / np.float32(1.4)
    p[:500] = np.float32(0.5)  # ties
    path = tmp_path / "f32.parquet"
    pq.write_table(pa.table({"y": y, "p": p}), path, row_group_size=3_000)
    chunks, reads, real_open, real_chunk = [], [], bigdata._open, M.stream_chunk

    def stream_chunk(*args):
        chunks.append(real_chunk(*args))
        return chunks[-1]

    class Data:  # the dataset, its batches' read options recorded
        def __init__(self, data):
            self.data = data

        def __getattr__(self, name):
            return getattr(self.data, name)

        def to_batches(self, **options):
            reads.append(options)
            return self.data.to_batches(**options)

    monkeypatch.setattr(M, "stream_chunk", stream_chunk)
    monkeypatch.setattr(bigdata, "_open", lambda s: (Data(real_open(s)[0]), real_open(s)[1]))
    monkeypatch.setattr(batches, "BATCH_ROWS", 4_000)  # a binary batch's rows
    ds = bigdata.load(source(path, y_true="y", score="p", sample=100))
    assert all(isinstance(c, BinaryRows) for c in chunks) and len(chunks) > 1
    assert sum(c.n_samples for c in chunks) == N
    read = [(r["batch_readahead"], r["fragment_readahead"], r["batch_size"]) for r in reads]
    assert read == [(1, 1, 4_000)] and reads[0]["use_threads"] is False
    assert reads[0]["fragment_scan_options"].pre_buffer is False
    auc, ap, ll = bigdata.exact_headline(ds)
    p64 = p.astype(np.float64)  # the state reads the scores as float64, the same values
    assert auc.value == M.roc_auc_score(y, p64)
    assert ap.value == M.average_precision_score(y, p64)
    np.testing.assert_allclose(ll.value, M.log_loss(y, p64), rtol=1e-12)


def test_weighted_and_a_sample_larger_than_the_file(binary_file):
    path, y, p, w = binary_file
    ds = bigdata.load(source(path, y_true="y", score="p", weight="w", sample=50_000))
    assert ds.n_samples == N  # every row, in file order
    np.testing.assert_array_equal(ds.sample_weight, w)
    auc, ap, ll = bigdata.exact_headline(ds)
    np.testing.assert_allclose(auc.value, M.roc_auc_score(y, p, sample_weight=w), rtol=1e-12)
    np.testing.assert_allclose(
        ap.value, M.average_precision_score(y, p, sample_weight=w), rtol=1e-12
    )
    np.testing.assert_allclose(ll.value, M.log_loss(y, p, sample_weight=w), rtol=1e-12)


def test_a_folder_of_graded_lists(tmp_path):
    rng = np.random.default_rng(42)
    n, m = 4000, 5
    rel = rng.integers(0, 4, (n, m))
    s = np.round(rng.random((n, m)), 2)
    for i in range(2):
        part = slice(2000 * i, 2000 * (i + 1))
        pq.write_table(
            pa.table({"rel": pa.array(list(rel[part])), "s": pa.array(list(s[part]))}),
            tmp_path / f"part{i}.parquet",
            row_group_size=700,
        )
    ds = bigdata.load(source(tmp_path, name="runs", kind="graded", y_true="rel", score="s",
                             sample=300))  # fmt: skip
    assert ds.y_true.shape == (300, m) and ds.total_rows == n
    dcg, ndcg, mrr = bigdata.exact_headline(ds)
    np.testing.assert_allclose(dcg.value, M.dcg_score(rel, s), rtol=1e-12)
    np.testing.assert_allclose(ndcg.value, M.ndcg_score(rel, s), rtol=1e-12)
    np.testing.assert_allclose(mrr.value, M.mean_reciprocal_rank(rel, s), rtol=1e-12)


def test_wide_rows_are_read_in_batches_of_values_not_rows(tmp_path, monkeypatch):
    """Graded rows of 2 x 5 values (list columns) come in batches of BATCH_VALUES / 10 rows,
    as ``python -m metrics evaluate`` reads them; binary keeps its rows; the exact
    numbers are those of the whole columns."""
    import metrics.states.batches as batches

    monkeypatch.setattr(batches, "BATCH_VALUES", 400)  # 40 rows of 10 values
    rng = np.random.default_rng(44)
    n, m = 1000, 5
    rel, s = rng.integers(0, 4, (n, m)), np.round(rng.random((n, m)), 2)
    path = tmp_path / "wide.parquet"
    pq.write_table(pa.table({"rel": pa.array(list(rel)), "s": pa.array(list(s))}), path)
    data = pads.dataset(path, format="parquet")
    sizes = [b.num_rows for b in bigdata._batches(data, ["rel", "s"], "ranking")]
    assert sizes == [40] * 25
    assert [b.num_rows for b in bigdata._batches(data, ["rel", "s"], "binary")] == [n]
    ds = bigdata.load(source(path, kind="graded", y_true="rel", score="s", sample=50))
    dcg, ndcg, mrr = bigdata.exact_headline(ds)
    np.testing.assert_allclose(ndcg.value, M.ndcg_score(rel, s), rtol=1e-12)
    np.testing.assert_allclose(mrr.value, M.mean_reciprocal_rank(rel, s), rtol=1e-12)


def test_regression_and_multilabel_scalar_columns(tmp_path):
    rng = np.random.default_rng(43)
    n = 5000
    yr = rng.random(n) * 5
    yhat = yr + rng.normal(0, 0.3, n)
    yl = (rng.random((n, 3)) < 0.4).astype(np.int8)
    sl = np.round(rng.random((n, 3)), 2)
    cols = {"yr": yr, "yhat": yhat, **{f"l{j}": yl[:, j] for j in range(3)}}
    cols |= {f"s{j}": sl[:, j] for j in range(3)}
    path = tmp_path / "mixed.parquet"
    pq.write_table(pa.table(cols), path, row_group_size=1000)
    reg = bigdata.load(source(path, kind="regression", y_true="yr", score="yhat", sample=100))
    mae, rmse, r2 = bigdata.exact_headline(reg)
    np.testing.assert_allclose(mae.value, M.mean_absolute_error(yr, yhat), rtol=1e-12)
    np.testing.assert_allclose(rmse.value, M.root_mean_squared_error(yr, yhat), rtol=1e-12)
    np.testing.assert_allclose(r2.value, M.r2_score(yr, yhat), rtol=1e-12)
    ml = bigdata.load(source(path, kind="multilabel", y_true="l0+l1+l2", score="s0+s1+s2",
                             sample=100))  # fmt: skip
    assert ml.label_names == ("l0", "l1", "l2")
    cov, lrap, loss = bigdata.exact_headline(ml)
    np.testing.assert_allclose(cov.value, M.coverage_error(yl, sl), rtol=1e-12)
    np.testing.assert_allclose(lrap.value, M.label_ranking_average_precision_score(yl, sl),
                               rtol=1e-12)  # fmt: skip
    np.testing.assert_allclose(loss.value, M.label_ranking_loss(yl, sl), rtol=1e-12)


def test_undefined_numbers_say_why(tmp_path):
    path = tmp_path / "one_class.parquet"
    pq.write_table(pa.table({"y_true": np.ones(50, int), "y_score": np.linspace(0, 2, 50)}), path)
    auc, ap, ll = bigdata.exact_headline(bigdata.load(source(path)))
    assert auc.value is None and "single class" in auc.why
    assert ap.value == 1.0
    assert ll.value is None and "outside [0, 1]" in ll.why


def test_ordinary_datasets_have_no_exact_headline():
    from explorer.samples import load_sample

    assert bigdata.exact_headline(load_sample("balanced")) is None
    assert bigdata.exact_curves(load_sample("balanced")) is None


def test_refusals(binary_file, tmp_path):
    path, *_ = binary_file
    with pytest.raises(DataError, match="has no column 'nope'"):
        bigdata.load(source(path, y_true="nope", score="p"))
    with pytest.raises(DataError, match="cannot be read"):
        bigdata.load(source(tmp_path / "missing.parquet"))
    with pytest.raises(DataError, match="cannot be used"):  # scores are not 0/1 labels
        bigdata.load(source(path, y_true="p", score="y"))
    found, problems = bigdata.parse_config(
        f"{path},sample=0; {path},colour=red; name=x; {path},name=balanced; {path},name=a;"
        f" {path},name=a",
        taken=("balanced",),
    )
    assert [s.name for s in found] == ["a"]
    assert [p.split(": ", 1)[1] for p in problems] == [
        "sample must be between 1 and 1,000,000.",
        "unknown option 'colour'.",
        "no path.",
        "the name 'balanced' is already taken.",
        "the name 'a' is already taken.",
    ]


def test_the_cache_key_covers_the_file_behind_the_exact_numbers(tmp_path):
    path = tmp_path / "d.parquet"
    y, p = np.array([0, 1, 0, 1]), np.array([0.1, 0.9, 0.4, 0.3])
    pq.write_table(pa.table({"y_true": y, "y_score": p}), path)
    src = source(path)
    first = bigdata.load(src, bigdata.signature(src))
    pq.write_table(pa.table({"y_true": y[::-1], "y_score": p}), path)  # same rows count
    second = bigdata.load(src, bigdata.signature(src))
    assert bigdata.signature(src) != first.data_signature
    assert first.cache_key != second.cache_key


def test_neither_metrics_nor_the_app_imports_dask_at_start():
    # (pyarrow comes with pandas 3, which metrics imports; dask is the optional extra)
    import subprocess
    import sys

    code = (
        "import sys, metrics, metrics.cli, metrics.distributed, metrics.states.batches, "
        "explorer.bigdata, explorer.ui.session, explorer.ui.cache; "
        "bad = [m for m in ('dask', 'distributed') if m in sys.modules]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
