"""The operating-point component's data (explorer/charts/operating_point.py and
explorer.pages.curves.operating_data) and its JavaScript arithmetic
(views/curves/static/operating_point.js): the counts at every slider position are those of
metrics at that threshold, and the browser writes the numbers as the page does."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import metrics
from explorer.charts import operating_point as op
from explorer.datasets import Dataset
from explorer.formatting import count, fmt
from explorer.pages import curves, curves_threshold
from explorer.samples import load_sample

JS = Path(__file__).resolve().parents[3] / "views" / "curves" / "static" / "operating_point.js"
RNG = np.random.default_rng(17)


def _datasets() -> dict[str, Dataset]:
    n = 400
    y = (RNG.random(n) < 0.35).astype(int)
    tied = np.round(np.clip(0.3 * y + 0.7 * RNG.random(n), 0, 1), 1)  # 11 distinct scores
    logits = RNG.normal(2.0 * y - 1.0, 1.5, n)
    return {
        "seed002_roc6": load_sample("seed002_roc6"),
        "balanced": load_sample("balanced"),
        "ties": Dataset("ties", "binary", y, {"m": tied}),
        "logits": Dataset("logits", "binary", y, {"m": logits}),
        "raw 0..150": Dataset("raw", "binary", y, {"m": np.round(RNG.random(n) * 150, 0)}),
        "weighted": Dataset("w", "binary", y, {"m": tied}, sample_weight=RNG.random(n) * 3),
        "dyadic weights": Dataset(
            "w2", "binary", y, {"m": tied}, sample_weight=RNG.integers(1, 9, n) / 4
        ),
    }


DATASETS = _datasets()


@pytest.mark.parametrize("name", list(DATASETS))
def test_counts_at_every_position_are_those_of_metrics(name):
    ds = DATASETS[name]
    for model in ds.model_names:
        data = curves.operating_data(ds, model)
        axis = curves_threshold.threshold_axis(ds, model)
        held = curves.threshold_counts(ds, model), axis  # as the panel passes them
        assert curves.operating_data(ds, model, None, *held) == data
        ts = data["thresholds"]
        assert ts[0] == axis.lo and ts[-1] == axis.hi and ts == sorted(ts)
        assert 100 <= len(ts) <= 1002
        y, s, w = ds.y_true, ds.score(model), ds.sample_weight
        exact = w is None or name == "dyadic weights"  # sums of k/4 are exact in any order
        for i, t in enumerate(ts):
            want = metrics.rates_at_threshold(y, s, t, sample_weight=w)
            got = {k: data[k][i] for k in ("tp", "fp", "fn", "tn")}
            if exact:
                assert got == {k: want[k] for k in got}, (t, got)
            else:  # cumulative sums against metrics' masked sums: the last bits may differ
                for k in got:
                    assert got[k] == pytest.approx(want[k], rel=1e-12, abs=1e-12), (t, k)
            assert data["labels"][i]  # every position has its text


@pytest.mark.parametrize("name", list(DATASETS))
def test_stops_vertices_and_distribution_are_those_of_the_samples(name):
    """The arrow keys' stops (every distinct score, then above them all), the counts a
    click on a vertex shows, and the distribution's bins, against the samples counted
    one by one."""
    ds = DATASETS[name]
    model = ds.model_names[0]
    data = curves.operating_data(ds, model)
    y, s = ds.y_true, ds.score(model)
    w = np.ones_like(s) if ds.sample_weight is None else ds.sample_weight

    def cells(t):
        pos = s >= t
        return [w[pos & (y == 1)].sum(), w[pos & (y == 0)].sum(),
                w[~pos & (y == 1)].sum(), w[~pos & (y == 0)].sum()]  # fmt: skip

    stops = data["stops"]
    hi = curves_threshold.threshold_axis(ds, model).hi
    assert stops["t"] == sorted(set(s.tolist())) + ([hi] if hi > s.max() else [])
    assert stops["labels"] == [f"{t:.4g}" for t in stops["t"]]
    for k, t in enumerate(stops["t"]):
        got = [stops[c][k] for c in ("tp", "fp", "fn", "tn")]
        assert got == pytest.approx(cells(t), rel=1e-12, abs=1e-9)
    line = next(li for li in data["lines"] if li["name"] == model)
    for kind in ("roc", "pr"):
        for k, t in enumerate(line[kind]["t"]):
            got = [line[kind]["counts"][c][k] for c in ("tp", "fp", "fn", "tn")]
            want = cells(np.inf if t is None else t)
            assert got == pytest.approx(want, rel=1e-12, abs=1e-9), (kind, k, t)
    assert all("counts" not in li["roc"] for li in data["lines"] if li["name"] != model)
    assert all("auc" not in li and "ap" not in li for li in data["lines"])  # no answer
    dist = data["dist"]
    edges = np.linspace(dist["lo"], dist["hi"], len(dist["pos"]) + 1)
    for b in range(len(edges) - 1):
        last = b == len(edges) - 2  # the last bin holds its right edge
        inside = (s >= edges[b]) & ((s <= edges[b + 1]) if last else (s < edges[b + 1]))
        assert dist["pos"][b] == pytest.approx(w[inside & (y == 1)].sum())
        assert dist["neg"][b] == pytest.approx(w[inside & (y == 0)].sum())
    if dist["dots"] is not None:
        assert ds.sample_weight is None
        assert dist["dots"]["pos"] == sorted(s[y == 1].tolist())
        assert dist["dots"]["neg"] == sorted(s[y == 0].tolist())


def test_stops_give_way_to_the_grid_past_max_stops():
    counts = metrics.threshold_counts([1, 0, 1, 0], [0.9, 0.7, 0.6, 0.1])
    assert op.stops(counts, 1.0, max_stops=4)["t"] == [0.1, 0.6, 0.7, 0.9, 1.0]
    assert op.stops(counts, 1.0, max_stops=3) is None


def test_positions_step_as_the_axis_and_end_above_every_score():
    ds = DATASETS["raw 0..150"]
    axis = curves_threshold.threshold_axis(ds, "m")
    ts, labels = op.positions(axis.lo, axis.hi, axis.step)
    assert axis.step == 1.0 and ts[:3] == [0.0, 1.0, 2.0] and labels[:3] == ["0", "1", "2"]
    assert ts[-1] == axis.hi > float(ds.score("m").max())
    seed = curves.operating_data(load_sample("seed002_roc6"), "model")
    assert seed["thresholds"][30] == 0.3 and seed["labels"][30] == "0.30"  # not 0.30000000000000004


def test_curves_are_reduced_to_exact_vertices():
    n = 30_000
    y = (RNG.random(n) < 0.4).astype(int)
    s = RNG.normal(0.6 * y, 1.0, n)
    ds = Dataset("long", "binary", y, {"m": s})
    line = curves.operating_data(ds, "m")["lines"][0]
    fpr, tpr, thr = metrics.roc_curve(y, s, drop_intermediate=False)
    assert 100 < len(line["roc"]["x"]) <= op.MAX_DRAWN
    assert line["roc"]["t"][0] is None  # +inf: JSON has no infinity
    at = {t: i for i, t in enumerate(thr[1:], start=1)}
    roc = line["roc"]
    for x, yv, t in zip(roc["x"][1:], roc["y"][1:], roc["t"][1:], strict=True):
        assert (x, yv) == (round(float(fpr[at[t]]), 6), round(float(tpr[at[t]]), 6))
    assert len(line["pr"]["x"]) <= op.MAX_DRAWN
    json.dumps(curves.operating_data(ds, "m"), allow_nan=False)  # plain JSON, no NaN/inf


def test_settings_hold_the_candidates_and_the_exact_counts():
    ds = load_sample("balanced")
    best = curves.optima(ds, "weak", 2.0, 1.0, 5.0, 0.95, 0.95)
    at_t = curves.rates(ds, "weak", 0.4321, 2.0)
    got = curves.operating_settings(0.4321, 2.0, at_t, best, "pred")
    assert got["at_t"] == {k: at_t[k] for k in ("tp", "fp", "fn", "tn")}
    assert got["b2"] == 4.0 and got["norm"] == "pred"
    thresholds = {c["t"] for c in got["candidates"]}
    assert thresholds == {float(t) for t in best["threshold"] if np.isfinite(t)}
    for c in got["candidates"]:
        row = best[best["threshold"] == c["t"]].iloc[0]
        assert (c["fpr"], c["tpr"], c["precision"]) == (row["fpr"], row["tpr"], row["precision"])


# ------------------------------------------------------------------ the JavaScript port
def _node(script: str):
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node to run the component's JavaScript")
    run = subprocess.run(
        [node, "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def _values() -> list[float]:
    ties = [k / 32 for k in range(33)] + [k / 8 for k in range(9)]  # exact halves
    rnd = list(RNG.random(300)) + list(RNG.random(100) * 1e-3) + list(RNG.random(50) * 1e5)
    edge = [1.0, 0.1, 0.001, 0.0009999, 1e-3 - 1e-18, 0.99995, 0.099995, 9.9995, 2.2e-16]
    return [float(v) for v in ties + rnd + edge + [-0.53125, -1e-5, 0.0, 12.25, 1234.5678]]


def test_js_formats_numbers_as_the_page():
    values = _values()
    got = _node(
        f"import {{fmt, percent, countText, g4}} from {json.dumps(JS.as_uri())};"
        f"const v = {json.dumps(values)};"
        "console.log(JSON.stringify(v.map((x) => [fmt(x), percent(x), countText(x), g4(x)])));"
    )
    for v, (f, p, c, g) in zip(values, got, strict=True):
        assert (f, p, c, g) == (fmt(v), f"{v:.1%}", count(v, grouped=False), f"{v:.4g}"), v


def test_js_rates_are_those_of_metrics():
    cells = [[2, 1, 0, 3], [0, 0, 3, 5], [84, 10, 10, 96], [0, 7, 0, 2]]
    cells += RNG.integers(0, 50, (30, 4)).tolist() + (RNG.random((30, 4)) * 20).tolist()
    betas = [1.0, 0.5, 2.0, 0.0, 3.7]
    got = _node(
        f"import {{ratesOf, normalized, fmt, percent}} from {json.dumps(JS.as_uri())};"
        f"const cells = {json.dumps(cells)}; const betas = {json.dumps(betas)};"
        "const out = [];"
        "for (const [tp, fp, fn, tn] of cells) for (const b of betas) {"
        "  const c = {tp, fp, fn, tn}; const r = ratesOf(c, b * b);"
        "  const n = ['true', 'pred', 'all'].map((k) => normalized(c, k));"
        "  out.push([r, n.map((m) => ['tp', 'fn', 'fp', 'tn'].map((k) => percent(m[k])))]); }"
        "console.log(JSON.stringify(out));"
    )
    k = 0
    for tp, fp, fn, tn in cells:
        for beta in betas:
            want = metrics.rates_at_threshold(
                [1, 0, 1, 0], [1.0, 1.0, 0.0, 0.0], 0.5, beta=beta, sample_weight=[tp, fp, fn, tn]
            )
            rates, norms = got[k]
            k += 1
            for name, value in rates.items():
                assert value == want[name], (tp, fp, fn, tn, beta, name)
            for norm, shown in zip(("true", "pred", "all"), norms, strict=True):
                _, rates_cm, _ = curves.confusion({"tp": tp, "fp": fp, "fn": fn, "tn": tn}, norm)
                assert shown == [f"{v:.1%}" for v in rates_cm.ravel()], (tp, fp, fn, tn, norm)
