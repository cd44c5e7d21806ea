"""Label ranking: coverage error, LRAP and ranking loss, sample by sample (issue 5)."""

from functools import partial

import numpy as np
import streamlit as st

import metrics
from explorer import downloads
from explorer.charts import ranking as charts
from explorer.pages import label_ranking as model
from explorer.pages.label_ranking import SORT_LABELS
from explorer.ui import cache, navigation, session, url, widgets
from views import prose
from views.label_ranking import drill, headline, notes, parts

PAGE_ROWS = 200
RANK_ROWS = 50  # rows of the colored rank table (every cell is styled: the costly part)

st.title("Label ranking")
widgets.scenarios("label_ranking")
ds = session.active()
widgets.require_kind(ds, ("multilabel",), "seed003_lrap")
st.caption(prose.section("label_ranking", "intro"))

# --------------------------------------------------------------------- controls
models = list(ds.model_names)
model_name = models[0]
n = ds.n_samples
ids = list(ds.sample_ids)
names = list(ds.label_names)

top = st.container()
picture = st.container()

c_model, c_sort, c_page = st.columns(3)
if len(models) > 1:
    url.bind_param("lr_model", "model", models[0], str, url.member(models))
    model_name = c_model.selectbox("Model", models, key="lr_model")
    url.write_param("model", model_name)

url.bind_param("lr_sort_by", "sort", "lrap", str, url.member(SORT_LABELS))
sort_by = c_sort.selectbox(
    "Sort samples by (worst first)",
    list(SORT_LABELS),
    format_func=SORT_LABELS.get,
    key="lr_sort_by",
    help="Worst = moves that metric's mean the most in the wrong direction.",
)
url.write_param("sort", sort_by)

n_pages = -(-n // PAGE_ROWS)
page_no = 1
if n_pages > 1:
    url.bind_param("lr_rank_page", "page", 1, int, url.int_in(1, n_pages, clamp=False))
    page_no = int(
        c_page.number_input(
            f"Page of {PAGE_ROWS} samples (1 = worst)",
            min_value=1,
            max_value=n_pages,
            step=1,
            key="lr_rank_page",
        )
    )
    url.write_param("page", page_no)

try:
    base = cache.label_ranking.summary(ds, model_name)
except metrics.MetricInputError as exc:
    widgets.cannot_score(
        ds,
        exc,
        "Label ranking puts the labels of each sample in order",
        "These labels and scores cannot be scored: ",
    )
    navigation.stop_page()

# --------------------------------------------------------------------- drill-down
st.header("How it is computed: one sample")
drawn: dict = {}  # what this run draws outside the drill-down (label_ranking_drill)
i, new_row, what_if = drill.drill_down(ds, model_name, base, sort_by, drawn)
orig_scores = ds.score(model_name)
is_edited = what_if is not None
res = what_if if is_edited else base
contrib = res.contrib
shown_row = new_row if is_edited else None

# --------------------------------------------------------------------- 1 headline
one_true = model.one_true_label(contrib)
with top:
    headline.headline(
        ds, model_name, res, base, is_edited=is_edited, i=i, one_true=one_true, new_row=new_row
    )

# --------------------------------------------------------------------- the order of rows
order = model.worst_first(contrib, sort_by)
page_rows = order.iloc[(page_no - 1) * PAGE_ROWS : page_no * PAGE_ROWS]
page_samples = page_rows["sample"].tolist()
page_ids = [ids[s] for s in page_samples]
scales = model.effect_scales(contrib)  # effects of 1/n: ×10⁻ⁿ units at thousands of rows

with picture:
    st.plotly_chart(
        charts.contributions_figure(
            page_rows,
            sort_by,
            page_ids,
            selected=i,
            metric_name=SORT_LABELS[sort_by],
            scale=scales[sort_by],
        ),
        key="lr_contrib_chart",
    )
    drawn["chart"] = frozenset(page_samples)
    drawn["outside"] = drill.outside(what_if, i, new_row, drawn["chart"])
    shown = f"the worst {len(page_rows)}" if n > PAGE_ROWS else f"all {n}"
    st.caption(
        prose.section("label_ranking", "contributions-chart").format(
            shown=shown, n=n, page_no=page_no, n_pages=n_pages, metric=SORT_LABELS[sort_by]
        )
    )

# --------------------------------------------------------------------- 4 per-sample breakdown
st.header("Every sample's contribution", anchor=headline.TABLE_ANCHOR)
table = model.contributions_table(page_rows, ids, scales)
num = st.column_config.NumberColumn(format="%.4f")
st.dataframe(
    table,
    hide_index=True,
    key="lr_contrib_table",
    on_select=partial(parts.open_from_table, page_samples),
    selection_mode="single-row",
    column_config={c: num for c in table.columns if "moves" in c or c in ("LRAP", "ranking loss")},
)
st.caption(
    f"Worst first by {SORT_LABELS[sort_by]}; {len(table)} of {n} samples shown"
    + (f" (page {page_no} of {n_pages})" if n_pages > 1 else "")
    + ". Click a row to open it above. *moves mean* = the mean over all samples minus the mean "
    "without this one"
    + "".join(
        f"; **{u}** in a column name: the change in the mean in units of {u[1:]} "
        f"(-3.7 there is a change of {-3.7 / f:.3g})"
        for f, u in sorted(set(scales.values()))
        if u
    )
    + "."
)
st.download_button(
    "Download all samples (CSV)",
    lambda: downloads.csv_text(model.all_contributions(contrib, order, ids)),  # on the click
    file_name=f"label_ranking_contributions_{model_name}.csv",
    mime="text/csv",
    key="lr_contrib_csv",
    on_click="ignore",
)

# --------------------------------------------------------------------- 2b the rank table
st.header("The rank table")
rank_samples = page_samples[:RANK_ROWS]
ranks = model.rank_table(orig_scores, rank_samples, i, shown_row)
st.dataframe(
    charts.rank_table_styler(
        ranks.rank,
        ds.y_true[rank_samples],
        ranks.tie_size,
        [f"{s} ({ids[s]})" if ids[s] != str(s) else str(s) for s in rank_samples],
        names,
    ),
    key="lr_rank_table",
)
st.caption(
    prose.section("label_ranking", "rank-table").format(
        true_mark=charts.TRUE_MARK,
        tie_mark=charts.TIE_MARK,
        n_rows=len(rank_samples),
        n=n,
        metric=SORT_LABELS[sort_by],
    )
    + (
        f" (the first {len(rank_samples)} of the {len(page_samples)} on this page; the "
        "download holds every sample)."
        if len(rank_samples) < len(page_samples)
        else "."
    )
)
st.download_button(
    "Download the rank table (CSV)",
    lambda: downloads.csv_text(
        model.rank_frame(
            model.scores_of(orig_scores, np.arange(n), i, shown_row), ds.y_true, ids, names
        )
    ),
    file_name=f"label_ranks_{model_name}.csv",
    mime="text/csv",
    key="lr_ranks_csv",
    on_click="ignore",
)

notes.teaching_notes(contrib, ids, one_true)
