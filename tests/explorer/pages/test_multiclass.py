"""Multiclass classification: the reader, the Dataset kind, links, the page model and its
derivations, checked against scikit-learn."""

from __future__ import annotations

import base64
import io
import json
import re
import zlib

import numpy as np
import pandas as pd
import pytest
import sklearn.metrics as skm

import metrics
from explorer import editing
from explorer.datasets import Dataset, describe
from explorer.formatting import fmt
from explorer.io import DataError, read_table, read_upload
from explorer.links import decode_dataset, encode_dataset
from explorer.pages import home, multiclass, multiclass_curves, multiclass_derivation
from explorer.samples import load_sample

SAMPLES = ("iris", "digits10")


def _proba(rng, n, k):
    p = rng.dirichlet(np.ones(k) * 0.7, size=n)
    return p


def _random(seed: int, n: int = 60, k: int = 4, weighted: bool = False, ties: bool = False):
    rng = np.random.default_rng(seed)
    t = rng.integers(0, k, n)
    t[:k] = np.arange(k)  # every class present
    p = _proba(rng, n, k)
    if ties:
        p = np.round(p * 4) / 4
        p[p.sum(axis=1) == 0] = 1 / k
        p = p / p.sum(axis=1, keepdims=True)
    w = rng.choice([0.5, 1.0, 2.0, 3.0], n) if weighted else None
    names = tuple(f"c{j}" for j in range(k))
    return Dataset("r", "multiclass", np.eye(k)[t], {"m": p}, sample_weight=w, label_names=names)


# ---------------------------------------------------------------- reading uploads
CSV = b"y_true,proba_cat,proba_dog,proba_bird\ncat,0.7,0.2,0.1\nbird,0.3,0.3,0.4\ndog,0.2,0.5,0.3\n"


def test_a_table_with_proba_columns_is_multiclass():
    ds = read_upload("pets.csv", CSV)
    assert ds.kind == "multiclass"
    assert ds.label_names == ("cat", "dog", "bird")
    assert ds.y_true.tolist() == [[1, 0, 0], [0, 0, 1], [0, 1, 0]]
    assert ds.score().tolist() == [[0.7, 0.2, 0.1], [0.3, 0.3, 0.4], [0.2, 0.5, 0.3]]
    assert read_table(CSV, name="pets.csv").kind == "multiclass"


def test_digit_labels_with_score_columns_are_multiclass_not_regression_or_binary():
    """Digit labels 0-9 with a score column per class were once read as regression; the
    table is multiclass."""
    rng = np.random.default_rng(0)
    t = np.arange(20) % 10
    p = _proba(rng, 20, 10)
    for prefix, label in (("score_", "class"), ("p_", "label"), ("proba_", "y_true")):
        frame = pd.DataFrame({label: t, **{f"{prefix}{d}": p[:, d] for d in range(10)}})
        ds = read_upload("digits.csv", frame.to_csv(index=False).encode())
        assert ds.kind == "multiclass", prefix
        assert ds.label_names == tuple(str(d) for d in range(10))
        assert ds.y_true.argmax(axis=1).tolist() == t.tolist()
        np.testing.assert_array_equal(ds.score(), p)


def test_whole_numbers_written_as_floats_name_their_class():
    ds = read_upload("f.csv", b"y_true,proba_0,proba_1,proba_2\n2.0,0.1,0.1,0.8\n0,1,0,0\n")
    assert ds.y_true.argmax(axis=1).tolist() == [2, 0]


def test_binary_models_stay_binary():
    ds = read_upload("b.csv", b"y_true,score_a,score_b\n0,0.1,0.3\n1,0.8,0.2\n")
    assert ds.kind == "binary" and ds.model_names == ("a", "b")
    three = b"y_true,score_a,score_b,score_c\n0,0.1,0.3,0.2\n1,0.8,0.2,0.6\n"
    assert read_upload("b.csv", three).kind == "binary"


def test_weights_ids_and_attribute_columns():
    text = b"id,y_true,proba_a,proba_b,sample_weight,note\nx,a,0.9,0.1,2,hello\ny,b,0.4,0.6,0.5,\n"
    ds = read_upload("w.csv", text)
    assert ds.sample_ids == ("x", "y") and ds.sample_weight.tolist() == [2.0, 0.5]
    assert "read as attributes: 'note'" in ds.description
    assert ds.attribute("note").tolist() == ["hello", ""]


def test_parquet_upload_is_multiclass():
    buf = io.BytesIO()
    pd.DataFrame({"y_true": ["a", "b"], "proba_a": [0.6, 0.3], "proba_b": [0.4, 0.7]}).to_parquet(
        buf
    )
    assert read_upload("m.parquet", buf.getvalue()).kind == "multiclass"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            b"y_true,proba_cat,proba_dog\ncat,0.7,0.3\ncow,0.5,0.5\n",
            "m.csv, line 3, column \"y_true\": 'cow' is not a class of the probability columns",
        ),
        (b"y_true,proba_cat,proba_dog\ncat,0.7,n/a\n", 'm.csv, line 2, column "proba_dog"'),
        (
            b"y_true,proba_cat,proba_dog,sample_weight\ncat,0.7,0.3,-1\n",
            "column \"sample_weight\": '-1' is negative",
        ),
        (b"y_true,proba_cat,proba_dog,id\ncat,0.7,0.3,a\ndog,0.1,0.9,a\n", "repeats the id"),
    ],
)
def test_bad_cells_are_refused_naming_the_cell(text, message):
    with pytest.raises(DataError) as exc:
        read_upload("m.csv", text)
    assert message in str(exc.value)


def test_a_multiclass_dataset_must_be_one_hot():
    with pytest.raises(ValueError, match="one-hot"):
        Dataset("x", "multiclass", np.array([[1, 1], [0, 1]]), {"m": np.ones((2, 2))})
    with pytest.raises(ValueError, match="one-hot"):
        Dataset("x", "multiclass", np.array([0, 1]), {"m": np.ones(2)})


def test_the_editor_refuses_a_row_with_two_classes():
    lab = pd.DataFrame({"a": [1, 1], "b": [0, 1]})
    sco = pd.DataFrame({"a": [0.9, 0.2], "b": [0.1, 0.8]})
    with pytest.raises(DataError, match="row 1: 2 classes are marked 1"):
        editing.dataset_from_matrices(lab, sco, kind="multiclass", name="t")
    lab.iloc[1] = [0, 1]
    ds = editing.dataset_from_matrices(lab, sco, kind="multiclass", name="t")
    assert ds.kind == "multiclass"


def test_describe_counts_the_samples_per_class():
    summary = describe(load_sample("iris")).set_index("what")["value"]
    assert summary["samples per class"] == "setosa: 50, versicolor: 50, virginica: 50"
    assert summary["task kind"] == "multiclass (one class per sample)"


# ---------------------------------------------------------------- links
@pytest.mark.parametrize("name", SAMPLES)
def test_a_link_carries_a_multiclass_dataset_bit_for_bit(name):
    ds = load_sample(name)
    back = decode_dataset(encode_dataset(ds))
    assert back.kind == "multiclass" and back.label_names == ds.label_names
    assert back.sample_ids == ds.sample_ids
    assert back.y_true.tobytes() == ds.y_true.tobytes()
    assert back.score().tobytes() == ds.score().tobytes()
    assert (
        multiclass.summary(back, "model", 2)["log_loss"]
        == multiclass.summary(ds, "model", 2)["log_loss"]
    )


def test_a_link_with_two_classes_in_a_row_is_refused():
    payload = {
        "v": 2,
        "name": "x",
        "kind": "multiclass",
        "shape": [2, 2],
        "y": [1, 1, 0, 1],
        "s": {"m": [0.5, 0.5, 0.2, 0.8]},
        "w": None,
    }
    raw = zlib.compress(json.dumps(payload).encode())
    token = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    with pytest.raises(DataError, match="exactly one class"):
        decode_dataset(token)


# ---------------------------------------------------------------- the page model
def sk_numbers(ds: Dataset, k: int = 2) -> dict:
    t, s, w = ds.y_true.argmax(axis=1), ds.score(), ds.sample_weight
    p = s.argmax(axis=1)
    K = s.shape[1]
    out = {
        "accuracy": skm.accuracy_score(t, p, sample_weight=w),
        "balanced": skm.balanced_accuracy_score(t, p, sample_weight=w),
        "macro_f1": skm.f1_score(t, p, average="macro", sample_weight=w, zero_division=0),
        "mcc": skm.matthews_corrcoef(t, p, sample_weight=w),
        "kappa": skm.cohen_kappa_score(t, p, sample_weight=w),
        "top_k": skm.top_k_accuracy_score(t, s, k=k, labels=np.arange(K), sample_weight=w),
        "log_loss": skm.log_loss(t, s, labels=np.arange(K), sample_weight=w),
    }
    for avg in ("macro", "weighted", "micro"):
        out[f"auc_{avg}"] = skm.roc_auc_score(t, s, multi_class="ovr", average=avg, sample_weight=w)
        onehot = np.eye(K)[t]
        out[f"ap_{avg}"] = skm.average_precision_score(onehot, s, average=avg, sample_weight=w)
    if w is None:
        for avg in ("macro", "weighted"):
            out[f"ovo_{avg}"] = skm.roc_auc_score(t, s, multi_class="ovo", average=avg)
    return out


def our_numbers(ds: Dataset, k: int = 2) -> dict:
    res = multiclass.summary(ds, ds.model_names[0], k)
    out = {key: res[key] for key in ("accuracy", "balanced", "macro_f1", "mcc", "kappa")}
    out |= {"top_k": res["top_k"], "log_loss": res["log_loss"]}
    for avg in ("macro", "weighted", "micro"):
        out[f"auc_{avg}"] = res["auc"][avg]
        out[f"ap_{avg}"] = res["ap"][avg]
    if res["ovo"] is not None:
        for avg, v in multiclass.ovo_averages(res["ovo"]).items():
            out[f"ovo_{avg}"] = v
    return out


@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize("k", [1, 2, 3])
def test_every_number_matches_sklearn_on_the_samples(name, k):
    ds = load_sample(name)
    want, got = sk_numbers(ds, k), our_numbers(ds, k)
    assert got.keys() == want.keys()
    for key in want:
        assert got[key] == pytest.approx(want[key], abs=1e-9), key


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weighted", [False, True])
def test_every_number_matches_sklearn_on_random_data(seed, weighted):
    ds = _random(seed, weighted=weighted, ties=seed % 2 == 1)
    want, got = sk_numbers(ds, 2), our_numbers(ds, 2)
    assert got.keys() == want.keys()
    for key in want:
        assert got[key] == pytest.approx(want[key], abs=1e-9), key


def test_top_k_ties_rank_the_higher_column_first_as_sklearn():
    t = np.array([0, 1, 2, 2])
    s = np.array([[0.25, 0.25, 0.5], [0.5, 0.25, 0.25], [1 / 3] * 3, [0.4, 0.2, 0.4]])
    assert multiclass.true_rank(t, s).tolist() == [3, 3, 1, 1]
    for k in (1, 2):
        assert np.mean(multiclass.true_rank(t, s) <= k) == skm.top_k_accuracy_score(t, s, k=k)
        assert np.mean(multiclass.true_rank(t, s) <= k) == metrics.top_k_accuracy_score(t, s, k=k)


def test_per_class_table_matches_sklearn():
    ds = load_sample("digits10")
    t, p, s = multiclass.classes(ds, "model")
    table = multiclass.class_table(ds, "model")
    pr, rc, f1, sup = skm.precision_recall_fscore_support(t, p, zero_division=0)
    np.testing.assert_allclose(table["precision"], pr)
    np.testing.assert_allclose(table["recall"], rc)
    np.testing.assert_allclose(table["f1"], f1)
    np.testing.assert_array_equal(table["support"], sup)
    np.testing.assert_allclose(
        table["roc_auc"], skm.roc_auc_score(t, s, multi_class="ovr", average=None)
    )


def test_scores_that_are_not_probabilities_have_no_log_loss_but_the_rest():
    ds = _random(1)
    logits = Dataset(
        "l", "multiclass", ds.y_true, {"m": np.log(ds.score()) * 3}, label_names=ds.label_names
    )
    res = multiclass.summary(logits, "m", 2)
    assert res["log_loss"] is None and "probabilities" in res["not_proba"]
    # ranks and argmax are unchanged by a monotone map
    base = multiclass.summary(ds, "m", 2)
    for key in ("accuracy", "macro_f1", "mcc", "top_k"):
        assert res[key] == base[key]
    assert res["auc"]["macro"] == pytest.approx(base["auc"]["macro"])
    assert multiclass.sample_table(logits, "m", 2)["log_loss"].isna().all()


def test_a_class_absent_from_y_true_is_left_out_of_the_auc_averages():
    y = np.eye(3)[[0, 1, 0, 1]]
    s = np.array([[0.6, 0.3, 0.1], [0.2, 0.7, 0.1], [0.5, 0.1, 0.4], [0.3, 0.3, 0.4]])
    ds = Dataset("a", "multiclass", y, {"m": s}, label_names=("a", "b", "c"))
    res = multiclass.summary(ds, "m", 1)
    assert res["auc_missing"] == ["c"]
    aucs = [skm.roc_auc_score(y[:, j], s[:, j]) for j in (0, 1)]
    assert res["auc"]["macro"] == pytest.approx(np.mean(aucs))
    # macro F1 averages the classes in y_true or predicted, as scikit-learn
    p = s.argmax(axis=1)
    assert res["macro_f1"] == pytest.approx(
        skm.f1_score(y.argmax(axis=1), p, average="macro", zero_division=0)
    )
    lines = multiclass_derivation.derivations(
        res, multiclass.sample_table(ds, "m", 1).sort_index(), None, "macro"
    )
    assert "1 classes undefined" in lines["Macro ROC AUC (OvR)"].note


def test_confusion_table_normalizations_match_sklearn():
    ds = load_sample("iris")
    t, p, _ = multiclass.classes(ds, "model")
    cm = multiclass.summary(ds, "model", 2)["cm"]
    for norm in ("none", "true", "pred", "all"):
        table = multiclass.confusion_table(cm, ds.label_names, norm)
        want = skm.confusion_matrix(t, p, normalize=None if norm == "none" else norm)
        np.testing.assert_allclose(table.to_numpy(), want)
    assert multiclass.worst_cell(cm) == (2, 1)  # 14 virginica read as versicolor


def test_cell_samples_are_the_cell():
    ds = load_sample("iris")
    n, rows = multiclass.cell_samples(ds, "model", 2, 1)
    t, p, _ = multiclass.classes(ds, "model")
    assert n == 14 == int(((t == 2) & (p == 1)).sum())
    assert rows["sample"].tolist() == [
        ds.sample_ids[i] for i in np.flatnonzero((t == 2) & (p == 1))
    ]


def test_sample_table_is_worst_first_and_its_terms_average_to_log_loss():
    ds = load_sample("digits10")
    table = multiclass.sample_table(ds, "model", 2)
    assert (np.diff(table["p_true"].to_numpy()) >= 0).all()
    t = ds.y_true.argmax(axis=1)
    assert table["log_loss"].mean() == pytest.approx(skm.log_loss(t, ds.score()))
    assert table["top_2"].mean() == pytest.approx(skm.top_k_accuracy_score(t, ds.score(), k=2))
    steps = multiclass.sample_steps(ds, "model", int(table.index[0]))
    assert (np.diff(steps["score"].to_numpy()) <= 0).all()
    assert steps["true"].tolist().count("true") == 1


def test_curves_match_metrics_and_the_micro_curve():
    ds = load_sample("iris")
    c = multiclass_curves.ovr_curves(ds, "model")
    fpr, tpr, _ = skm.roc_curve(ds.y_true[:, 1], ds.score()[:, 1])
    np.testing.assert_allclose(c["roc"]["versicolor"][0], fpr)
    np.testing.assert_allclose(c["roc"]["versicolor"][1], tpr)
    area = metrics.auc(*c["roc"]["micro"])
    assert area == pytest.approx(skm.roc_auc_score(ds.y_true, ds.score(), average="micro"))


def test_home_headline_for_multiclass():
    ds = load_sample("iris")
    got = {n.label: n.value for n in home.headline(ds)}
    t = ds.y_true.argmax(axis=1)
    assert got["Accuracy"] == pytest.approx(skm.accuracy_score(t, ds.score().argmax(axis=1)))
    assert got["Log loss"] == pytest.approx(skm.log_loss(t, ds.score()))
    assert got["Macro ROC AUC (OvR)"] == pytest.approx(
        skm.roc_auc_score(t, ds.score(), multi_class="ovr")
    )


# ---------------------------------------------------------------- derivations
def _last(latex: str) -> str:
    return re.split(r" &?= ", latex.removesuffix(r"\end{aligned}"))[-1]


@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize("average", ["macro", "weighted", "micro"])
def test_every_derivation_ends_in_its_headline_digits(name, average):
    ds = load_sample(name)
    res = multiclass.summary(ds, "model", 2)
    lines = multiclass_derivation.derivations(
        res, multiclass.sample_table(ds, "model", 2).sort_index(), None, average
    )
    heads = {
        "Accuracy": res["accuracy"],
        "Balanced accuracy": res["balanced"],
        "Macro F1": res["macro_f1"],
        "MCC": res["mcc"],
        "Cohen's kappa": res["kappa"],
        "Log loss": res["log_loss"],
        "Top-k accuracy": res["top_k"],
        "Macro ROC AUC (OvR)": res["auc"]["macro"],
        "ROC AUC (average)": res["auc"][average],
        "AP (average)": res["ap"][average],
        "OvO AUC": multiclass.ovo_averages(res["ovo"])["macro"],
    }
    for key, value in heads.items():
        assert _last(lines[key].latex) == fmt(value), key


def test_derivation_numbers_can_be_checked_by_hand():
    ds = load_sample("iris")
    res = multiclass.summary(ds, "model", 2)
    lines = multiclass_derivation.derivations(
        res, multiclass.sample_table(ds, "model", 2).sort_index(), None, "macro"
    )
    assert lines["Accuracy"].latex.endswith(r"\frac{49 + 37 + 36}{150} = 0.8133")
    # kappa: p_e = sum t_k p_k / N^2 with 50 per class and the column sums
    cm = res["cm"]
    pe = float(cm.sum(axis=0) @ cm.sum(axis=1)) / 150**2
    assert fmt(pe) in lines["p_e"].latex
    # MCC: the numbers of the formula give the value
    c, s = np.trace(cm), cm.sum()
    pk, tk = cm.sum(axis=0), cm.sum(axis=1)
    mcc = (c * s - pk @ tk) / np.sqrt((s * s - pk @ pk) * (s * s - tk @ tk))
    assert fmt(mcc) == _last(lines["MCC"].latex) == fmt(skm.matthews_corrcoef(*_tp(ds)))
    terms = re.findall(r"\d\.\d+", lines["Balanced accuracy"].latex)[:3]
    assert terms == ["0.9800", "0.7400", "0.7200"]
    digits = multiclass_derivation.derivations(
        *_res_and_terms(load_sample("digits10")), None, "macro"
    )["Accuracy"].latex
    assert digits.endswith(r"\dots + 25 + 27}{300} = \frac{281}{300} = 0.9367")


def _res_and_terms(ds):
    return multiclass.summary(ds, "model", 2), multiclass.sample_table(ds, "model", 2).sort_index()


def _tp(ds):
    return ds.y_true.argmax(axis=1), ds.score().argmax(axis=1)


def test_weighted_derivations_write_the_weights():
    ds = _random(3, n=12, weighted=True)
    res = multiclass.summary(ds, "m", 2)
    lines = multiclass_derivation.derivations(
        res, multiclass.sample_table(ds, "m", 2).sort_index(), ds.sample_weight, "weighted"
    )
    assert r"\times" in lines["Log loss"].latex
    assert lines["Log loss"].latex.startswith(r"\begin{aligned}\text{Log loss} &= \frac{")
    assert _last(lines["Log loss"].latex) == fmt(
        skm.log_loss(ds.y_true.argmax(axis=1), ds.score(), sample_weight=ds.sample_weight)
    )
    assert res["ovo"] is None and "OvO AUC" not in lines


# ---------------------------------------------------------------- long tables
LONG = (
    b"sample,label,y_true,y_score\n"
    b"s1,cat,cat,0.7\ns1,dog,cat,0.3\ns2,cat,dog,0.4\ns2,dog,dog,0.6\ns3,dog,dog,0.1\n"
    b"s3,cat,dog,0.9\n"
)


def test_a_long_table_naming_each_sample_class_is_multiclass():
    ds = read_upload("long.csv", LONG)
    assert ds.kind == "multiclass" and ds.label_names == ("cat", "dog")
    assert ds.sample_ids == ("s1", "s2", "s3")
    assert ds.y_true.tolist() == [[1, 0], [0, 1], [0, 1]]
    assert ds.score().tolist() == [[0.7, 0.3], [0.4, 0.6], [0.9, 0.1]]
    # a 0/1 long table stays multilabel
    assert read_upload("l.csv", b"sample,label,y_true,y_score\nq1,a,1,0.9\nq1,b,0,0.2\n").kind == (
        "multilabel"
    )


def test_grades_that_name_labels_but_vary_within_a_sample_stay_graded():
    text = b"sample,label,y_true,y_score\nq,1,1,0.1\nq,2,2,0.2\nq,3,3,0.3\n"
    assert read_upload("g.csv", text).kind == "graded"


def test_long_multiclass_with_two_models_and_numeric_classes():
    text = b"sample,label,y_true,score_a,score_b\n1,0,2,0.1,0.3\n1,1,2,0.2,0.3\n1,2,2,0.7,0.4\n"
    ds = read_upload("l.csv", text)
    assert ds.kind == "multiclass" and ds.model_names == ("a", "b")
    assert ds.y_true.tolist() == [[0, 0, 1]]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            b"sample,label,y_true,y_score\ns1,cat,cat,0.7\ns1,cat,cat,0.3\n",
            "line 3: the pair (sample 's1', class 'cat') already appears on line 2",
        ),
        (
            b"sample,label,y_true,y_score\ns1,cat,cat,0.7\ns1,dog,cat,0.3\ns2,cat,dog,0.5\n",
            "the pair (sample 's2', class 'dog') is missing",
        ),
    ],
)
def test_bad_long_multiclass_tables_are_refused(text, message):
    with pytest.raises(DataError) as exc:
        read_upload("l.csv", text)
    assert message in str(exc.value)


@pytest.mark.parametrize("name", SAMPLES)
def test_pair_counts_give_each_class_auc(name):
    ds = load_sample(name)
    t, s = ds.y_true.argmax(axis=1), ds.score()
    want = skm.roc_auc_score(t, s, multi_class="ovr", average=None)
    for j in range(ds.n_labels):
        p, n, w, ties = multiclass_curves.pair_counts(ds, "model", j)
        assert (p, n) == (int((t == j).sum()), int((t != j).sum()))
        assert (w + ties / 2) / (p * n) == pytest.approx(want[j], abs=1e-12)
        line = multiclass_derivation.class_auc_line(ds.label_names[j], (p, n, w, ties), want[j])
        assert _last(line.latex) == fmt(want[j])
