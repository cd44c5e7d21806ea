"""Layout helpers of the Multilabel classification page (views/multilabel.py).

Each draws one part of the page from the results of :mod:`explorer.pages.multilabel`;
no computation here.
"""

import streamlit as st

from explorer import downloads
from explorer.formatting import fmt
from explorer.pages import multilabel as ml
from explorer.ui import classroom, url, widgets
from views import prose

ZD_SHOWN = {"warn": "0", "0": "0", "1": "1", "nan": "NaN (left out)"}


def _four_places() -> dict:
    """The column_config of the score columns: four decimals."""
    return {
        c: st.column_config.NumberColumn(format="%.4f")
        for c in ("precision", "recall", "F1", ml.FB, "jaccard")
    }


def zero_division_notes(per_label, res: dict, zd_key: str) -> None:
    """Where zero_division applies: the empty labels and samples, or that it changes nothing."""
    no_pred, no_sup = ml.empty_labels(per_label)
    rows_no_pred, rows_no_true = res["rows_no_pred"], res["rows_no_true"]
    zd_shown = ZD_SHOWN[zd_key]
    notes = []
    if no_pred:
        notes.append(
            f"label(s) **{', '.join(no_pred)}** are never predicted: their precision is "
            f"0/0 = {zd_shown}"
        )
    if no_sup:
        notes.append(
            f"label(s) **{', '.join(no_sup)}** never occur: their recall is 0/0 = {zd_shown}"
        )
    if rows_no_pred:
        notes.append(
            f"{rows_no_pred} sample(s) have an empty predicted set: sample precision 0/0 = "
            f"{zd_shown}"
        )
    if rows_no_true:
        notes.append(f"{rows_no_true} sample(s) have no true label: sample recall 0/0 = {zd_shown}")
    if notes:
        st.info(prose.section("multilabel", "zero_division_decides").format(notes="; ".join(notes)))
    else:
        st.caption(prose.section("multilabel", "zero_division_idle"))


def _show(line) -> None:
    """One derivation line (explorer.pages.multilabel_derivation.Line) and its caption."""
    st.latex(line.latex)
    if line.note:
        st.caption(f"{line.name}: {line.note}.")


def _table_and_csv(shown, csv, what: str, file_name: str, key: str) -> None:
    """A table of scores (four decimals) and the button that downloads ``csv``."""
    st.dataframe(shown, hide_index=True, width="stretch", column_config=_four_places())
    st.download_button(f"{what} as CSV", downloads.csv_text(csv), file_name=file_name, key=key)


def how_it_is_computed(ds, res: dict, beta: float, lines: dict) -> None:
    """Every formula with live numbers, each ending in a headline number (``lines``:
    explorer.pages.multilabel_derivation.derivations); they wait for the Reveal."""
    st.subheader("How it is computed")
    if classroom.derivations_hidden():  # the formulas end in the headline numbers
        return
    _formulas(ds, res, beta, lines)
    _strictness(ds, lines)


def label_tables(ds, res: dict, beta: float) -> None:
    """The per-label table, the averages side by side and the notes' two readings."""
    st.markdown(prose.section("multilabel", "per_label_table"))
    shown_labels, on_screen = ml.label_tables(res["labels"])
    st.caption(f"F-beta with beta = {beta:g}. Counts are weighted when the data has sample_weight.")
    _table_and_csv(
        on_screen,
        shown_labels,
        "Per-label table",
        f"{ds.name}.multilabel.labels.csv",
        "ml_download_labels",
    )

    st.markdown("**The averages side by side** (precision, recall, F1, F-beta, Jaccard).")
    avg = res["averages"]
    avg_table = ml.averages_table(avg)
    _table_and_csv(
        avg_table,
        avg_table,
        "Averages",
        f"{ds.name}.multilabel.averages.csv",
        "ml_download_averages",
    )

    with st.expander("The multilabel notes' naming, read two ways", expanded=True):
        st.markdown(prose.section("multilabel", "seed_004"))
        st.dataframe(
            ml.seed_readings(avg),
            hide_index=True,
            width="stretch",
            column_config={"value": st.column_config.NumberColumn(format="%.4f")},
        )
        st.caption(prose.section("multilabel", "seed_004_fbeta"))


def _formulas(ds, res: dict, beta: float, lines: dict) -> None:
    """Macro, micro, sample and weighted averages: each formula, then its numbers plugged
    in (``lines``: explorer.pages.multilabel_derivation.derivations), ending in the
    headline's digits; then when they disagree."""
    avg, L = res["averages"], ds.n_labels
    per_label = res["labels"].iloc[:L]
    st.markdown("**Class-averaged (macro):** score each label, then take the plain mean.")
    st.latex(
        r"\text{C-P} = \frac{1}{L}\sum_{j=1}^{L}\frac{TP_j}{TP_j+FP_j},\quad"
        r"\text{C-R} = \frac{1}{L}\sum_{j=1}^{L}\frac{TP_j}{TP_j+FN_j},\quad"
        r"\text{C-F1} = \frac{1}{L}\sum_{j=1}^{L}F1_j"
    )
    for name in ("Macro P", "Macro R", "Macro F1"):
        _show(lines[name])
    st.markdown("**Overall (micro):** pool TP, FP, FN over all labels, then score once.")
    for name in ("Micro P", "Micro R", "Micro F1"):
        _show(lines[name])
    st.caption(prose.section("multilabel", "pooled_counts"))
    st.markdown(prose.section("multilabel", "sample_averaged"))
    st.latex(
        r"P_{\text{samples}} = \frac{1}{N}\sum_{i=1}^{N}\frac{|Y_i\cap\hat Y_i|}{|\hat Y_i|},"
        r"\quad R_{\text{samples}} = \frac{1}{N}\sum_{i=1}^{N}\frac{|Y_i\cap\hat Y_i|}{|Y_i|}"
    )
    for name in ("Samples P", "Samples R", "Samples F1"):
        _show(lines[name])
    st.markdown("**Weighted:** the class average, each label weighted by its support n_j.")
    st.latex(r"F1_{\text{weighted}} = \frac{\sum_{j} n_j\, F1_j}{\sum_j n_j}")
    _show(lines["Weighted F1"])
    st.latex(
        r"F_\beta = \frac{(1+\beta^2)\,TP}{(1+\beta^2)\,TP + \beta^2 FN + FP}"
        r" = \frac{(1+\beta^2)\,P\,R}{\beta^2 P + R}"
        rf"\qquad (\beta = {beta:g})"
    )
    rare = ml.rarest_label(per_label)
    st.markdown(
        prose.section("multilabel", "disagree").format(
            L=L,
            label=rare["label"],
            support=rare["support"],
            f1=fmt(rare["f1"]),
            macro_f1=fmt(avg["macro"]["f1"]),
            micro_f1=fmt(avg["micro"]["f1"]),
        )
    )


def _strictness(ds, lines: dict) -> None:
    """Hamming loss, subset accuracy and Jaccard with their numbers, from the strictest."""
    L = ds.n_labels
    st.markdown("**Hamming loss, subset accuracy, Jaccard**")
    for name in ("Hamming loss", "Subset accuracy"):
        _show(lines[name])
    st.latex(
        r"\text{Jaccard}_{\text{samples}} = \frac{1}{N}\sum_i"
        r"\frac{|Y_i\cap\hat Y_i|}{|Y_i\cup\hat Y_i|}"
    )
    _show(lines["Jaccard (samples)"])
    weighted_note = (
        " With sample_weight, N is the total weight, the counts are weighted and each "
        "sample's term is multiplied by its weight."
        if ds.sample_weight is not None
        else ""
    )
    st.caption(prose.section("multilabel", "strictness").format(L=L, weighted_note=weighted_note))


def inspect(ds, model: str, pred, res: dict, rule: str, threshold, thresholds) -> None:
    """What the model got wrong: one label's wrong samples, one sample label by label."""
    st.subheader("What did it get wrong?")
    label_names = list(ds.label_names)
    url.bind_param("ml_inspect_label", "label", label_names[0], str, url.member(label_names))
    lab = st.selectbox("Inspect a label", label_names, key="ml_inspect_label")
    url.write_param("label", lab)
    row = res["labels"].iloc[label_names.index(lab)]
    n_wrong, wrong_rows = ml.label_errors(ds, model, pred, lab)
    st.markdown(
        f"**{lab}**: TP {row['tp']:g}, FP {row['fp']:g}, FN {row['fn']:g}, support "
        f"{row['support']:g}; precision {fmt(row['precision'])}, recall "
        f"{fmt(row['recall'])}, F1 {fmt(row['f1'])}. {n_wrong} wrong sample(s)"
        + (f", the first {ml.SHOWN_ROWS} shown." if n_wrong > ml.SHOWN_ROWS else ":")
    )
    st.dataframe(wrong_rows, hide_index=True, width="stretch", height=300)

    worst = res["worst"]
    worst_ids, choices, wrong_count = ml.sample_choices(ds, worst)
    url.bind_param("ml_inspect_sample", "sample", worst_ids[0], str, url.member(choices))
    # the labels carry counts that follow the rule and the thresholds: a fresh widget when
    # they change (a stale label would come back from the browser as the option)
    sid = widgets.numbered_selectbox(
        st,
        "Inspect a sample",
        choices,
        lambda s: f"{s} ({wrong_count[s]} wrong)",
        key="ml_inspect_sample",
        default=worst_ids[0],
        help="Default: the worst sample. The tab Every sample lists them worst first.",
    )
    url.write_param("sample", sid)
    i = int(worst.index[worst_ids.index(sid)])
    srow = worst.loc[i]
    steps = ml.sample_steps(ds, model, pred, i, rule, threshold, thresholds)
    st.markdown(
        f"**Sample {sid}**: missed {srow['missed'] or 'nothing'}; extra "
        f"{srow['extra'] or 'nothing'}. TP {srow['tp']}, FP {srow['fp']}, FN {srow['fn']}: "
        f"precision {fmt(srow['precision'])}, recall {fmt(srow['recall'])}, "
        f"Jaccard {fmt(srow['jaccard'])}, {srow['wrong']} of {ds.n_labels} cells wrong."
        + (
            " It has no predicted label: its precision is 0/0, set by zero_division."
            if srow["n_predicted"] == 0
            else ""
        )
        + (
            " It has no true label: its recall is 0/0, set by zero_division."
            if srow["n_true"] == 0
            else ""
        )
    )
    st.dataframe(steps, hide_index=True, width="stretch")
