"""Multiclass classification: one class per sample, a probability per class."""

import math

import streamlit as st

import metrics
from explorer.charts import multiclass as charts
from explorer.formatting import fmt
from explorer.pages import multiclass as mc
from explorer.ui import cache, classroom, navigation, session, url, widgets
from views import prose
from views.multiclass import parts

st.title("Multiclass classification")
ds = session.active()
widgets.require_kind(ds, ("multiclass",), "iris")
widgets.scenarios("multiclass")

st.markdown(prose.section("multiclass", "intro"))
names = list(ds.label_names)
K = ds.n_labels

# ---------------------------------------------------------------- controls
models = list(ds.model_names)
url.bind_param("mc_model", "model", models[0], str, url.member(models))
url.bind_param("mc_k", "k", min(2, K), int, url.int_in(1, K))
url.bind_param("mc_norm", "norm", "none", str, url.member(mc.NORMALIZE))
url.bind_param("mc_avg", "avg", "macro", str, url.member(mc.AVERAGES))
c_model, c_k, c_norm = st.columns([1, 1, 2])
model = c_model.selectbox(
    "Model", models, key="mc_model", help="The dataset's probability matrices, one per model."
)
k = c_k.number_input(
    "k (top-k accuracy)",
    min_value=1,
    max_value=K,
    step=1,
    key="mc_k",
    help="A sample counts as right when its true class is among its k most probable.",
)
norm = c_norm.radio(
    "Confusion matrix shows",
    list(mc.NORMALIZE),
    format_func=lambda n: mc.NORMALIZE[n][1],
    key="mc_norm",
    horizontal=True,
    help="Counts; or each cell divided by its row's total (the diagonal is recall), by "
    "its column's total (precision) or by all samples.",
)
url.write_param("model", model)
url.write_param("k", int(k))
url.write_param("norm", norm)

try:
    res = cache.multiclass.summary(ds, model, int(k))
except metrics.MetricInputError as exc:  # data metrics refuses: say what, keep the page
    st.error(str(exc))
    navigation.stop_page()

# ---------------------------------------------------------------- 1 headline


def shown(x) -> str:
    """A headline value, or "n/a" when valid data leave it undefined (0/0)."""
    return "n/a" if x is None or math.isnan(x) else fmt(x)


#: the headline: (label, value, what it is), in two rows of four
HEADLINE = (
    ("Accuracy", res["accuracy"], "The share of samples predicted right."),
    (
        "Balanced accuracy",
        res["balanced"],
        "The mean of the per-class recalls: every class counts the same.",
    ),
    ("Macro F1", res["macro_f1"], "The mean of the per-class F1 scores."),
    ("MCC", res["mcc"], "Matthews correlation: 1 perfect, 0 chance, -1 inverted."),
    ("Cohen's kappa", res["kappa"], "Agreement beyond chance: (p_o - p_e) / (1 - p_e)."),
    ("Log loss", res["log_loss"], "The mean of -log p(true class). Lower is better."),
    (
        f"Top-{int(k)} accuracy",
        res["top_k"],
        f"The share of samples whose true class is among their {int(k)} most probable.",
    ),
    ("Macro ROC AUC (OvR)", res["auc"]["macro"], "The mean of the K one-vs-rest ROC AUCs."),
)
ci = cache.multiclass.intervals(ds, model, int(k)) if classroom.intervals_on() else {}
for col, (label, value, what) in zip([*st.columns(4), *st.columns(4)], HEADLINE, strict=True):
    interval = None if shown(value) == "n/a" else ci.get(label)
    classroom.headline(col, label, shown(value), interval=interval, help=what)
classroom.reveal_button()
st.caption(
    f"Model **{model}**, {ds.n_samples:,} samples, {K} classes; predicted class = the "
    "highest probability"
    + ("; weighted by sample_weight." if ds.sample_weight is not None else ".")
)
if res["not_proba"]:
    st.info(prose.section("multiclass", "not_proba").format(why=res["not_proba"]), icon="ℹ️")
if math.isnan(res["kappa"]):
    st.info(prose.section("multiclass", "kappa_undefined"), icon="ℹ️")
if res["auc_missing"]:
    st.info(
        prose.section("multiclass", "auc_missing").format(classes=", ".join(res["auc_missing"])),
        icon="ℹ️",
    )

# ---------------------------------------------------------------- 2 the pictures
st.subheader("Confusion matrix")
worst = mc.worst_cell(res["cm"])
url.bind_param("mc_cell_true", "ct", names[worst[0]], str, url.member(names))
url.bind_param("mc_cell_pred", "cp", names[worst[1]], str, url.member(names))
c_cm, c_cell = st.columns([3, 2])
with c_cell:
    st.caption(prose.section("multiclass", "confusion"))
    a = st.selectbox("True class", names, key="mc_cell_true")
    b = st.selectbox("Predicted class", names, key="mc_cell_pred")
url.write_param("ct", a)
url.write_param("cp", b)
with c_cm:
    table = mc.confusion_table(res["cm"], names, norm)
    st.plotly_chart(
        charts.confusion_figure(table, counts=norm == "none", selected=(a, b)),
        key="mc_cm_chart",
        on_select=lambda: parts.on_cell_click(names),
        selection_mode="points",
    )
with c_cell:
    parts.cell(ds, model, res, names.index(a), names.index(b))

st.subheader("One-vs-rest ROC and PR curves")
st.markdown(prose.section("multiclass", "curves"))
by_f1 = res["classes"].sort_values("f1", kind="stable")["class"].tolist()
url.bind_param("mc_class", "class", by_f1[0], str, url.member(names))
c_class, c_avg = st.columns([1, 2])
chosen = c_class.selectbox(
    "Class (vs the rest)", names, key="mc_class", help="Default: the class of lowest F1."
)
average = c_avg.radio(
    "Average",
    list(mc.AVERAGES),
    key="mc_avg",
    horizontal=True,
    help="How the K one-vs-rest AUCs (and APs) become one number.",
)
url.write_param("class", chosen)
url.write_param("avg", average)
parts.curves(ds, model, res, chosen, average)

# ---------------------------------------------------------------- 3 how it is computed
parts.how_it_is_computed(ds, model, res, int(k), average, names.index(chosen))

# ---------------------------------------------------------------- 4 per sample
parts.per_sample(ds, model, int(k))
