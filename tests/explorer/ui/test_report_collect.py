"""explorer.ui.report: what a run records, and what a panel's rerun alone replaces."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd

from explorer.ui import report


def _run(monkeypatch, fragment="", again=None):
    """A new script run (a fresh ``cursors``), drawing inside ``fragment`` ("" : none);
    ``again``: the fragments a fragment-only run reruns."""
    ctx = SimpleNamespace(cursors={}, current_fragment_id=fragment, fragment_ids_this_run=again)
    monkeypatch.setattr(report, "get_script_run_ctx", lambda: ctx)
    return ctx


def test_a_panel_rerun_alone_replaces_only_what_it_drew(monkeypatch):
    c = report.Collected("ROC & PR curves")
    ctx = _run(monkeypatch)
    c.put("headlines", "Gini", report.report.Headline("Gini", "0.92"))
    ctx.current_fragment_id = "panel"  # the same full run, now inside the panel
    c.put("headlines", "ROC AUC", report.report.Headline("ROC AUC", "0.96"))
    c.put("tables", None, report.report.Table("t", pd.DataFrame({"a": [1]})))
    c.put("tables", None, report.report.Table("u", pd.DataFrame({"a": [2]})))
    assert [t.title for t in c.report().tables] == ["t", "u"]

    _run(monkeypatch, fragment="panel", again=["panel"])  # the panel reruns alone
    c.put("headlines", "ROC AUC", report.report.Headline("ROC AUC", "0.90"))
    c.put("tables", None, report.report.Table("v", pd.DataFrame({"a": [3]})))
    r = c.report()
    assert [(h.label, h.value) for h in r.headlines] == [("Gini", "0.92"), ("ROC AUC", "0.90")]
    assert [t.title for t in r.tables] == ["v"]  # "u" is no longer drawn: gone too
    assert r.title == "Metric Explorer: ROC & PR curves"


def test_file_name_is_the_page_title_in_words():
    assert report.file_name("DCG & NDCG") == "metric-explorer-dcg-ndcg.html"
