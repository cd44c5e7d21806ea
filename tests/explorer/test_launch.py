"""metric-explorer without a server: the manifest, what the command reads, which page opens.

The server itself is started in tests/views/test_launch_app.py (from the source tree,
through explorer.launch.launch) and tests/test_package.py (from an installed wheel).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from explorer import bigdata, io, launch, opened
from explorer.io import DataError
from tests.conftest import ROOT

QRELS = b"q1 0 d1 1\nq1 0 d2 0\nq1 0 d9 2\nq2 0 x 1\n"
RUN = b"q1 Q0 d1 1 3.5 bm25\nq1 Q0 d2 2 2.0 bm25\nq2 Q0 x 1 0.5 bm25\n"
CSV = b"y_true,score_a,score_b\n0,0.1,0.3\n1,0.8,0.2\n1,0.4,0.6\n0,0.35,0.1\n"


@pytest.fixture
def files(tmp_path) -> dict[str, Path]:
    paths = {"csv": "scores.csv", "qrels": "qrels.txt", "run": "bm25.run"}
    out = {k: tmp_path / v for k, v in paths.items()}
    out["csv"].write_bytes(CSV)
    out["qrels"].write_bytes(QRELS)
    out["run"].write_bytes(RUN)
    return out


def test_streamlit_options_are_the_repositorys_config():
    """An installed app has no .streamlit/config.toml beside it: the launcher passes the
    same options on the command line."""
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    flat = {f"{s}.{k}": str(v).lower() for s, opts in config.items() for k, v in opts.items()}
    assert set(launch.NOT_INSTALLED) <= set(flat)  # the served font: not in a wheel
    assert launch.STREAMLIT_OPTIONS == {
        k: v for k, v in flat.items() if k not in launch.NOT_INSTALLED
    }
    cmd = launch.server_command(8765)
    assert cmd[1:4] == ["-m", "streamlit", "run"] and Path(cmd[4]) == ROOT / "app.py"
    assert cmd[cmd.index("--server.port") + 1] == "8765"
    assert cmd[cmd.index("--server.address") + 1] == "127.0.0.1"


def test_the_command_reads_a_csv_and_trec_files_as_an_upload_would(files):
    args = launch.parse_args(
        [str(files["csv"]), "--qrels", str(files["qrels"]), "--run", str(files["run"])]
    )
    chosen = launch.plan(args)
    assert [(e.name, e.format) for e in chosen.entries] == [
        ("scores.csv", "table"),
        ("bm25.run", "trec"),
    ]
    assert chosen.page == "curves" and chosen.first == "scores.csv" and chosen.big == ""
    table, trec = (opened.read(e) for e in chosen.entries)
    want = io.read_upload("scores.csv", CSV)
    assert table.name == "scores.csv" and table.source == "host"
    np.testing.assert_array_equal(table.y_true, want.y_true)
    assert table.model_names == ("a", "b") == want.model_names
    np.testing.assert_array_equal(table.scores["b"], [0.3, 0.2, 0.6, 0.1])
    want = io.read_trec_upload("qrels.txt", QRELS, "bm25.run", RUN)
    np.testing.assert_array_equal(trec.y_true, want.y_true)
    assert trec.description == want.description and trec.kind == "graded"
    # TREC alone opens Top-K retrieval; --page chooses
    only_trec = ["--qrels", str(files["qrels"]), "--run", str(files["run"])]
    assert launch.plan(launch.parse_args(only_trec)).page == "retrieval"
    assert launch.plan(launch.parse_args([*only_trec, "--page", "dcg"])).page == "dcg"


def test_one_qrels_serves_every_run_and_names_stay_unique(files, tmp_path):
    other = tmp_path / "sub"
    other.mkdir()
    (other / "bm25.run").write_bytes(RUN)
    q, r = str(files["qrels"]), str(files["run"])
    chosen = launch.plan(
        launch.parse_args(["--qrels", q, "--run", r, "--run", str(other / "bm25.run")])
    )
    assert [e.name for e in chosen.entries] == ["bm25.run", "bm25.run (2)"]
    assert chosen.entries[1].files == (q, str(other / "bm25.run"))
    with pytest.raises(DataError, match="one --qrels for each --run"):
        launch.plan(launch.parse_args(["--qrels", q, "--qrels", q, "--run", r]))


def test_a_refused_file_prints_the_readers_sentence_and_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"y_true,y_score\n0,0.1\n1,n/a\n")
    with pytest.raises(DataError) as refused:
        io.read_upload("bad.csv", bad.read_bytes())
    assert launch.main([str(bad), "--no-browser"]) == 2
    out = capsys.readouterr()
    assert out.err == f"metric-explorer: {refused.value}\n" and out.out == ""
    assert "bad.csv, line 3" in out.err  # the reader names the file and the line


def test_evaluate_inputs_open_the_parquet_file_as_big_data(tmp_path, capsys):
    path = tmp_path / "clicks.parquet"
    pq.write_table(pa.table({"y": [0, 1, 1], "p": [0.2, 0.7, 0.4], "w": [1.0, 2.0, 1.0]}), path)
    argv = [str(path), "--task", "binary", "--y-true", "y", "--score", "p", "--weight", "w"]
    chosen = launch.plan(launch.parse_args(argv))
    (source,), problems = bigdata.parse_config(chosen.big)
    assert problems == [] and chosen.entries == [] and chosen.page == "curves"
    assert source == bigdata.Source("clicks", str(path), "binary", ("y",), ("p",), "w")
    ranking = [str(path), "--task", "ranking", "--y-true", "y", "--score", "p", "--page", "dcg"]
    assert bigdata.parse_config(launch.plan(launch.parse_args(ranking)).big)[0][0].kind == "graded"
    assert launch.main([str(path), "--task", "binary", "--y-true", "nope", "--score", "p"]) == 2
    assert "has no column 'nope'" in capsys.readouterr().err


def test_manifest_entries_are_checked_and_replaced_by_name(tmp_path):
    for text, says in [
        ("{", "not JSON"),
        ('{"name": "a"}', "not a list"),
        ('[{"name": "a", "format": "zip", "files": ["x"]}]', "format 'zip' is not one of"),
        ('[{"format": "table", "files": ["x"]}]', "entry 1: no name"),
    ]:
        with pytest.raises(DataError, match=says):
            opened.parse_manifest(text)
    manifest = tmp_path / "open.json"
    assert opened.read_manifest(manifest) == []
    opened.add_entry(manifest, opened.Entry("a", "table", ("/x.csv",)))
    opened.add_entry(manifest, opened.Entry("b", "pair", ("/y.npy", "/s.npy"), "graded"))
    opened.add_entry(manifest, opened.Entry("a", "table", ("/z.csv",)))
    assert opened.read_manifest(manifest) == [
        opened.Entry("b", "pair", ("/y.npy", "/s.npy"), "graded"),
        opened.Entry("a", "table", ("/z.csv",)),
    ]


@pytest.mark.parametrize(
    ("y_true", "y_score", "kind", "fmt"),
    [
        (
            [0, 1, 1, 0],
            {"lr": [0.1, 0.8, 0.6, 0.3], "tree": [0.5, 0.5, 1.0, 0.0]},
            "binary",
            "table",
        ),
        ([3.5, 1.0, 2.25], [3.0, 1.5, 2.0], "regression", "table"),
        (
            ["cat", "dog", "bird"],
            [[0.2, 0.7, 0.1], [0.1, 0.3, 0.6], [0.5, 0.2, 0.3]],
            "multiclass",
            "table",
        ),
        ([[1, 0, 2], [0, 3, 0]], [[0.9, 0.1, 0.5], [0.2, 0.8, 0.1]], "graded", "pair"),
    ],
)
def test_arrays_from_a_notebook_read_back_as_they_were(tmp_path, y_true, y_score, kind, fmt):
    got_fmt, files = launch._write_arrays(tmp_path, y_true, y_score, None, None)
    ds = opened.read(opened.Entry("nb", got_fmt, tuple(map(str, files))))
    assert (got_fmt, ds.kind) == (fmt, kind)
    models = y_score if isinstance(y_score, dict) else {"model": y_score}
    if kind == "multiclass":  # one-hot over the sorted classes; proba_<class> in that order
        assert ds.label_names == ("bird", "cat", "dog")
        np.testing.assert_array_equal(ds.y_true.argmax(axis=1), [1, 2, 0])
        np.testing.assert_array_equal(ds.score(), np.asarray(y_score))
        return
    np.testing.assert_array_equal(ds.y_true, np.asarray(y_true, dtype=float))
    assert ds.model_names == tuple(models)
    for model, scores in models.items():
        np.testing.assert_array_equal(ds.scores[model], np.asarray(scores, dtype=float))


def test_page_addresses_name_the_dataset():
    assert launch.page_url("http://h:1", "home", "a&b c") == "http://h:1/?ds=a%26b+c"
    kinds = {"binary": "curves", "regression": "regression", "multiclass": "multiclass",
             "multilabel": "multilabel", "graded": "dcg"}  # fmt: skip
    assert {k: launch.page_for(k, "table") for k in kinds} == kinds


def test_evaluate_settings_open_in_the_pages_address(tmp_path):
    path = tmp_path / "runs.parquet"
    pq.write_table(pa.table({"y": [0, 1, 1], "p": [0.2, 0.7, 0.4]}), path)
    base = [str(path), "--y-true", "y", "--score", "p"]
    binary = launch.plan(launch.parse_args([*base, "--task", "binary", "--threshold=0.3"]))
    assert binary.params == {"t": "0.3"}
    assert launch.page_url("http://h:1", binary.page, binary.first, binary.params) == (
        "http://h:1/curves?ds=runs&t=0.3"
    )
    # a default left untyped stays out of the address (the page keeps its own opening)
    assert launch.plan(launch.parse_args([*base, "--task", "binary"])).params == {}
    ranking = [*base, "--task", "ranking", "--k", "5", "--log-base", "10", "--ignore-ties"]
    assert launch.plan(launch.parse_args(ranking)).params == {
        "k": "5",
        "log_base": "10",
        "ignore_ties": "1",
    }
    retrieval = [*ranking, "--denominator", "relevant", "--page", "retrieval"]
    assert launch.plan(launch.parse_args(retrieval)).params == {
        "k": "5",
        "ap_denominator": "relevant",
    }


def test_several_score_files_open_as_one_dataset_of_a_model_each(tmp_path):
    labels, a, b = tmp_path / "y.csv", tmp_path / "bm25.csv", tmp_path / "dense.csv"
    labels.write_bytes(b"x,z\n1,0\n0,1\n")
    a.write_bytes(b"x,z\n.9,.2\n.3,.4\n")
    b.write_bytes(b"x,z\n.1,.7\n.6,.5\n")
    argv = ["--labels", str(labels), "--scores", str(a), "--scores", str(b)]
    apart = launch.plan(launch.parse_args(argv))
    assert [e.name for e in apart.entries] == ["bm25", "dense"]  # a dataset each, as before
    chosen = launch.plan(launch.parse_args([*argv, "--models"]))
    (entry,) = chosen.entries
    assert entry.name == "y.csv + 2 score files" and entry.format == "pair"
    manifest = tmp_path / "m.json"
    opened.add_entry(manifest, entry)  # the manifest keeps an entry of three files
    (kept,) = opened.read_manifest(manifest)
    ds = opened.read(kept)
    assert ds.model_names == ("bm25", "dense") and ds.source == "host"
    np.testing.assert_array_equal(ds.scores["dense"], [[0.1, 0.7], [0.6, 0.5]])


def test_several_runs_of_one_qrels_open_as_one_dataset_with_models(files, tmp_path):
    tags = {line.split()[5] for line in RUN.decode().splitlines()}
    (tag,) = tags
    second = tmp_path / "tuned.run"
    second.write_bytes(RUN.replace(tag.encode(), b"tuned"))
    q, r = str(files["qrels"]), str(files["run"])
    chosen = launch.plan(
        launch.parse_args(["--qrels", q, "--run", r, "--run", str(second), "--models"])
    )
    (entry,) = chosen.entries
    assert entry.name == "qrels.txt + 2 runs" and chosen.page == "retrieval"
    ds = opened.read(entry)
    assert ds.model_names == (tag, "tuned")
    alone = io.read_trec_upload("qrels.txt", QRELS, "bm25.run", RUN)
    np.testing.assert_array_equal(
        np.sort(ds.score("tuned"), axis=1), np.sort(alone.score(), axis=1)
    )


def test_learning_to_rank_files_open_dcg_with_lightgbms_conventions():
    lgb = ROOT / "tests" / "data" / "lightgbm"
    files = [str(lgb / n) for n in ("rank.test", "rank.test.pred", "rank.test.query")]
    chosen = launch.plan(launch.parse_args(["--ltr", *files]))
    (entry,) = chosen.entries
    assert (entry.format, chosen.page, chosen.params) == ("ltr", "dcg", launch.LTR_PARAMS)
    ds = opened.read(entry)
    want = io.read_ranking_upload(
        "rank.test", Path(files[0]).read_bytes(), ("rank.test.pred", Path(files[1]).read_bytes()),
        ("rank.test.query", Path(files[2]).read_bytes()),
    )  # fmt: skip
    assert ds.fingerprint == want.fingerprint or (
        np.array_equal(ds.y_true, want.y_true) and np.array_equal(ds.score(), want.score())
    )
    assert ds.retrieved is not None and ds.item_ids is not None and ds.n_samples == 50
    with pytest.raises(DataError, match="2 or 3 files"):
        launch.plan(launch.parse_args(["--ltr", files[0]]))
    with pytest.raises(DataError, match="format 'ltr' takes 2 or 3 files"):
        opened.parse_manifest('[{"name": "a", "format": "ltr", "files": ["d"]}]')
