"""bench/visitors.py and bench/soak.py without a server: their data, the idle
detection, the reports."""

import numpy as np

from bench.load import percentile
from bench.soak import SoakReport, Tally, holds_large, hostile_links
from bench.visitors import (
    BOOT_ROWS,
    Leave,
    StepRow,
    VisitorsReport,
    cpu_between,
    idle_after,
    multilabel_pair,
    p95_ratio_interval,
    server_part,
    two_model_csv,
)
from explorer.budget import HOSTED
from explorer.io import read_pair_upload, read_upload
from explorer.pages.compare import bootstrap_seconds


def test_the_heavy_uploads_are_at_the_limits_and_read():
    assert bootstrap_seconds("binary", BOOT_ROWS) <= HOSTED.per_run  # bootstraps run
    assert bootstrap_seconds("binary", BOOT_ROWS + 1000) > HOSTED.per_run  # at the limit
    ds = read_upload("boot.csv", two_model_csv(500, 1))
    assert (ds.kind, ds.n_samples, len(ds.model_names)) == ("binary", 500, 2)
    labels, scores = multilabel_pair(50, 7, seed=4)
    pair = read_pair_upload("labels.npy", labels, "scores.npy", scores)
    assert (pair.kind, pair.n_samples, pair.n_labels) == ("multilabel", 50, 7)
    # 200,000 x 100 float16 scores: 40,000,128 bytes, under the 50 MB upload limit
    assert 2 * 200_000 * 100 + 128 < 50_000_000


def test_hostile_links_hold_the_corpus_and_fuzz_cases():
    links = hostile_links(seed=29, count=20)
    whats = [w for w, _ in links]
    assert whats[0] == "hostile dataset" and whats.count("?ds= payload") == 9
    assert sum(w.startswith("fuzz ") for w in whats) == 20
    assert all(q.startswith(("?data=", "?ds=")) for _, q in links)


def test_idle_after_finds_the_first_quiet_second():
    t = np.arange(0, 6, 0.1)
    cpu = np.minimum(t, 2.0) + 0.01 * np.maximum(t - 2.0, 0)  # busy until 2 s, then 1%
    samples = list(zip(t.tolist(), cpu.tolist(), strict=True))
    assert abs(idle_after(samples, 0.5) - 1.5) < 0.11
    assert idle_after(samples[:20], 0.5) is None  # never quiet
    assert abs(cpu_between(samples, 1.0, 3.0) - 1.01) < 0.02


def test_p95_ratio_interval_holds_the_run_and_shows_its_noise():
    """Two phases drawn from one distribution: the interval holds the run's own ratio and
    1.0, and with a few hundred switches a phase it is wide (as the runs spread)."""
    rng = np.random.default_rng(3)
    base, loaded = rng.lognormal(-1, 0.5, 400).tolist(), rng.lognormal(-1, 0.5, 250).tolist()
    lo, hi = p95_ratio_interval(base, loaded)
    point = percentile(loaded, 95) / percentile(base, 95)
    assert lo < point < hi and lo < 1.0 < hi
    assert hi - lo > 0.2
    assert p95_ratio_interval(base, loaded) == (lo, hi)  # seeded: the same report twice


def test_visitors_report_states_the_ratio_and_the_idle_time():
    report = VisitorsReport(
        baseline=[1.0] * 9 + [2.0],
        loaded=[1.0] * 9 + [3.0],
        steps=[StepRow("Compare at 76,000 rows", 9.5, 12.25, [1.0, 4.0])],
        leaves=[Leave("Compare's bootstraps", True, 1.25, 0.4), Leave("DeLong", False, None, 9)],
        slowest=["3.0 s to Data (during: Compare at 76,000 rows)"],
        errors=[],
        loads=(3.0, 4.0),
        seconds=60,
    )
    text = report.render()
    assert "| switch p95 | 2.00 s | 3.00 s (1.50x; target <= 1.5x) |" in text
    assert "| the ratio's 95% interval (the switches resampled) | | 0.50x to 3.00x |" in text
    assert "| Compare's bootstraps | yes | 1.2 s | 0.4 |" in text
    assert "| DeLong | no (!) | not within 20 s | 9.0 |" in text
    assert "slowest switches with the heavy visitor: 3.0 s to Data (during: Compare" in text
    assert "| Compare at 76,000 rows | 9.5 | 12.2 | 2 | 4.00 s |" in text


def test_visitors_report_the_servers_part_from_the_run_log():
    """The light visitors are the sessions that ran in the baseline; their runs' wall
    times in the server, alone and beside the heavy visitor, from the run log."""
    log = [
        dict(end=10.2, wall=0.1, session="a"),  # light, alone
        dict(end=11.0, wall=0.3, session="b"),  # light, alone
        dict(end=20.5, wall=0.2, session="a"),  # light, beside the heavy one
        dict(end=21.0, wall=9.0, session="h"),  # the heavy visitor: not a light run
        dict(end=25.0, wall=0.4, session="b"),
        dict(end=40.0, wall=0.1, session="a"),  # after the heavy phase
    ]
    alone, beside = server_part(log, (10.0, 20.0, 30.0))
    assert (alone, beside) == ([0.1, 0.3], [0.2, 0.4])
    report = VisitorsReport([1.0], [1.0], [], [], [], [], (1.0, 1.0), 60, (alone, beside))
    text = report.render()
    assert "| the server's part: their runs (run log) | 2 | 2 |" in text
    assert "| run p50 / p95 in the server | 0.100 / 0.300 s | 0.200 / 0.400 s (1.33x) |" in text


def _soak_text(tally: Tally, mb=lambda t: 100) -> str:
    """The report of a 10-minute soak of one visitor, ``mb(t)`` MB of memory at ``t`` s."""
    rss = [(float(t), mb(t) << 20) for t in range(0, 601, 5)]
    return SoakReport(1, 10, 2_000_000, [tally], rss, 90 << 20, 100.0, 300.0, (1.0, 2.0)).render()


def test_soak_report_over_time_and_memory_against_5_minutes():
    tally = Tally(switches=[(100.0 + t, 1.0 + (t >= 400)) for t in range(0, 600, 10)])
    tally.actions = {"switch": 60, "hostile": 3}
    text = _soak_text(tally, lambda t: 100 + (t >= 300) * 10)
    assert "| 0-5 min | 30 | 1.00 s | 1.00 s | 100 MB | 100 MB |" in text
    assert "| 5-10 min | 30 | 2.00 s | 2.00 s | 110 MB | 110 MB |" in text
    assert "| memory level (median of the samples), 5.0-7.5 min / 7.5-10.0 min | " in text
    assert "110 MB / 110 MB (+0%; target within 20%)" in text
    assert "| memory trend from 5.0 min (least squares) | +0 MB per 10 min |" in text
    assert "hostile 3, switch 60" in text


def test_soak_memory_level_is_the_median_of_a_window_and_the_trend_its_slope():
    """One sample of 30 visitors' memory falls wherever their uploads are: the level of a
    window is its median, so a spike at the last sample moves the snapshot, not the level;
    a steady growth shows in the trend and in the levels."""
    spike = _soak_text(Tally(), lambda t: 100 + 900 * (t >= 590))
    assert "| memory level (median of the samples), 5.0-7.5 min / 7.5-10.0 min | " in spike
    assert "100 MB / 100 MB (+0%; target within 20%)" in spike
    assert "100 MB / 1000 MB (+900%) |" in spike  # the snapshot
    assert "| 5-10 min | 0 | nan s | nan s | 100 MB | 1000 MB |" in spike  # median, peak
    rss = [(float(t), (100 + t // 6) << 20) for t in range(0, 3601, 5)]  # +100 MB per 10 min
    grows = SoakReport(1, 60, 2_000_000, [Tally()], rss, 90 << 20, 0.0, 300.0, (1.0, 2.0))
    text = grows.render()
    assert "| memory trend from 5.0 min (least squares) | +100 MB per 10 min |" in text
    # levels: minutes 5-10 around 174.5 MB, minutes 55-60 around 675 MB
    assert "5.0-10.0 min / 55.0-60.0 min | 174 MB / 675 MB (+287%; target within 20%) |" in text


def test_soak_large_uploads_are_held_by_the_same_visitors_and_named_in_the_report():
    """Three of thirty visitors upload the large file every time (a fixed number held at
    any moment, so the memory's levels compare like with like); the report names them."""
    assert [i for i in range(30) if holds_large(i)] == [0, 10, 20]
    report = SoakReport(30, 10, 2_000_000, [Tally()], [(0.0, 1 << 20)], 0, 0.0, 300.0, (1, 2))
    assert "large uploads 2,000,000 rows, two models, held by visitors 00, 10, 20)" in (
        report.render()
    )


def test_soak_report_counts_exceptions_apart_from_the_apps_refusals():
    tally = Tally(switches=[(100.0, 1.0)], errors=["visitor 00 on Home: Traceback"])
    tally.refusals = ["visitor 00 on Home: link damaged", "visitor 00 on Regression: RMSLE"]
    text = _soak_text(tally)
    assert "| exception boxes | 1 |" in text
    assert "| error notices (the app refusing a link or data) | 2 |" in text
    assert "Exceptions (first 5):\n\n- visitor 00 on Home: Traceback" in text
    assert "Error notices (first 5):\n\n- visitor 00 on Home: link damaged\n- " in text
