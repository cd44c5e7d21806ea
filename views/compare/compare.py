"""Compare two models: is B better than A, how sure, and on which samples?

Each headline metric of the dataset's kind for A and B, the difference with
its confidence interval and a test in words; the samples that changed most
both ways (each opening its drill-down where a page has one); A against B
per sample.
"""

import streamlit as st

from explorer import registry
from explorer.charts import compare as charts
from explorer.formatting import fmt
from explorer.pages.compare import CONFIDENCE, N_RESAMPLES, difference_line, verdict
from explorer.ui import cache, classroom, navigation, session, url, widgets
from views import prose

#: Where a sample's drill-down lives, by kind: (page, URL parameter, by id or by row).
DRILL_DOWN = {
    "multilabel": ("label_ranking", "i", "row"),
    "graded": ("dcg", "sample", "id"),
}
#: A bundled sample with two models, by kind.
TWO_MODELS = {
    "binary": "breast_cancer",
    "multilabel": "digit_properties",
    "graded": "diabetes_ranking",
    "regression": "diabetes",
}

st.title("Compare two models")
widgets.scenarios("compare")
ds = session.active()
st.caption(
    f"Active dataset **{ds.name}** · {ds.n_samples} samples · model(s): {', '.join(ds.model_names)}"
)

if len(ds.model_names) < 2:
    suggestion = TWO_MODELS.get(ds.kind, "breast_cancer")
    st.info(
        f"This page compares two models of one dataset; **{ds.name}** has one model. "
        "Upload a table with two score columns (`score_a`, `score_b`) or two score files, "
        "or open a sample with two models.",
        icon="ℹ️",
    )
    st.button(
        f"Open {suggestion.replace('_', ' ')} (two models)",
        key="cmp_open_sample",
        on_click=session.set_active,
        args=(suggestion,),
        type="primary",
    )
    navigation.stop_page()

names = ds.model_names
url.bind_param("cmp_a", "a", names[0], str, url.member(names))
url.bind_param("cmp_b", "b", names[1], str, url.member(names))
c1, c2 = st.columns(2)
model_a = c1.selectbox("Model A (the reference)", names, key="cmp_a")
model_b = c2.selectbox("Model B (the challenger)", names, key="cmp_b")
url.write_param("a", model_a)
url.write_param("b", model_b)
if model_a == model_b:
    st.info("Pick two different models: A and B are the same model.", icon="ℹ️")
    navigation.stop_page()

result = cache.compare.models(ds, model_a, model_b)
if not result.rows:
    st.info(
        "No headline metric of this dataset can be compared: it has one class only.",
        icon="ℹ️",
    )
    navigation.stop_page()

# ------------------------------------------------------------------ headline
st.subheader(f"Is {model_b} better than {model_a}?")
for row in result.rows:
    cols = st.columns([1, 1, 1, 3])
    classroom.headline(cols[0], f"{row.label} of A", fmt(row.a))
    classroom.headline(cols[1], f"{row.label} of B", fmt(row.b))
    word = "B better" if row.better_by > 0 else ("B worse" if row.better_by < 0 else "equal")
    classroom.headline(
        cols[2],
        f"{row.label}: B - A",
        fmt(row.diff),
        delta=word,
        delta_color="normal" if row.better_by > 0 else "inverse",
        delta_arrow="off",
    )
    if not classroom.derivations_hidden(cols[3]):  # the verdict gives the difference
        cols[3].markdown(difference_line(row))
        cols[3].markdown(verdict(row, model_a, model_b))
classroom.reveal_button()
st.caption(
    f"Intervals: {CONFIDENCE:.0%}, from {N_RESAMPLES:,} paired bootstrap resamples of the "
    "samples (the same rows for both models; seeded, so the page repeats its numbers), or "
    "DeLong's standard error for ROC AUC. " + prose.section("compare", "tests")
)

# ------------------------------------------------------------------ samples
st.subheader(f"Where {model_b} wins and loses: {result.per_sample} per sample")
st.caption(result.per_sample_help)
better, worse, same = result.counts()
st.markdown(
    f"B did better on **{better}** samples, worse on **{worse}**, the same on **{same}** "
    f"(of {ds.n_samples})."
)
losses, wins = result.changed(ds.sample_ids)
drill = DRILL_DOWN.get(ds.kind)
for title, frame in ((f"{model_b} lost most", losses), (f"{model_b} won most", wins)):
    st.markdown(f"**{title}**")
    if frame.empty:
        st.caption("— none: no sample went this way.")
        continue
    st.dataframe(
        frame,
        hide_index=True,
        width="stretch",
        column_config={
            "A": st.column_config.NumberColumn(model_a, format="%.4f"),
            "B": st.column_config.NumberColumn(model_b, format="%.4f"),
            "B better by": st.column_config.NumberColumn(format="%.4f"),
        },
    )
    if drill:
        page, param, by = drill
        first = frame.iloc[0]
        value = int(first["row"]) if by == "row" else str(first["sample"])
        st.page_link(
            registry.script(page),
            label=f"Open sample {first['sample']} on its page (model {model_a})",
            query_params={"ds": ds.name, param: str(value), "model": model_a},
        )

fig = charts.scatter(
    result.a_values, result.b_values, ds.sample_ids, result.per_sample, model_a, model_b
)
st.plotly_chart(fig, key="cmp_scatter")
st.caption(
    "Each dot is a sample; on the dotted line A and B agree. "
    + ("Above it B did better." if result.higher_is_better else "Below it B did better.")
)
