"""The leaderboard exports, on a real comparison: order, bold, letters, escaping."""

import csv
import io

import numpy as np

from explorer import leaderboard_export as export
from metrics import compare_models, mean_absolute_error


def _result():
    rng = np.random.default_rng(3)
    y = rng.normal(size=300)
    models = {
        "=sum(A1)": y + rng.normal(scale=1.0, size=300),
        "run_1 & 50%": y + rng.normal(scale=0.3, size=300),
        "b|c": y + rng.normal(scale=0.6, size=300),
    }
    return compare_models(mean_absolute_error, y, models, test="t", n_resamples=200,
                          random_state=1)  # fmt: skip


def test_exports_agree_on_order_values_and_letters():
    r = _result()
    mae = r.estimate
    order = np.argsort(mae)  # an error: the smallest first
    assert [row["model"] for row in export.ranked_rows(r)] == [r.names[k] for k in order]
    # the p-values are tiny here: each model beats every worse one
    assert [row["beats"] for row in export.ranked_rows(r)] == ["ac", "a", ""]

    rows = list(csv.reader(io.StringIO(export.to_csv(r))))
    assert rows[0] == ["letter", "model", "value", "low", "high", "beats"]
    assert [x[1] for x in rows[1:]] == ["run_1 & 50%", "b|c", "'=sum(A1)"]
    assert [float(x[2]) for x in rows[1:]] == mae[order].tolist()
    assert [float(x[3]) for x in rows[1:]] == r.low[order].tolist()

    md = export.to_markdown(r, metric="MAE").splitlines()
    assert md[0] == "| # | model | MAE | 95% interval |"
    assert md[2].startswith(f"| b | run\\_1 &amp; 50% | **{mae[1]:.4f}**<sup>ac</sup> |")
    assert md[3].startswith(f"| c | b\\|c | {mae[2]:.4f}<sup>a</sup> |")

    tex = export.to_latex(r, metric="MAE").splitlines()
    assert tex[1] == r"\toprule" and tex[-2] == r"\bottomrule"
    assert tex[4].startswith(
        rf"b & run\_1 \& 50\% & \textbf{{{mae[1]:.4f}}}$^{{\mathrm{{ac}}}}$ & ["
    )
    assert tex[6].startswith(rf"a & =sum(A1) & {mae[0]:.4f} & [")
