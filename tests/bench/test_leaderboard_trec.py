"""bench.leaderboard_trec on a tiny run set: its files read as one model a run, and its
section names the best run by the page's board."""

import numpy as np

from bench import leaderboard_trec as bench
from explorer.io.trec import read_trec_runs
from metrics import ndcg_score


def test_the_runs_read_as_models_and_the_section_names_the_best_run():
    qrels, runs = bench.files(3, 20, 30)
    ds = read_trec_runs("qrels.txt", qrels, runs)
    judged = {line.split()[0] for line in qrels.decode().splitlines()}
    assert ds.model_names == ("run0", "run1", "run2") and ds.n_samples == len(judged) > 15
    ndcg = {m: ndcg_score(ds.y_true, ds.score(m), retrieved=ds.retrieved) for m in ds.model_names}
    best = max(ndcg, key=ndcg.get)
    lines = bench.run(3, 20, 30)
    assert lines[0] == bench.START and lines[-1] == bench.END
    first = next(line for line in lines if line.startswith("| first numbers"))
    assert f"best {best} {ndcg[best]:.4f}" in first
    assert np.isfinite(list(ndcg.values())).all()
