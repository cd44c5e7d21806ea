"""Regenerate every bundled sample: ``python sample_data/make_samples.py``.

Writes the CSV files, ``index.csv`` (the gallery the app reads) and the
table in ``README.md``. Everything is seeded, so a rerun rewrites the same
bytes. The worked examples and classroom sets use numpy only; the real-data
samples (``real_data()``) train small scikit-learn models on datasets that
ship inside scikit-learn, so regenerating needs ``requirements-dev.txt``
(scikit-learn). The app itself only reads the CSVs and never imports sklearn.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SAMPLES: list[dict[str, str]] = []


def _fmt(x: float) -> str:
    return repr(round(float(x), 6)) if not float(x).is_integer() else str(int(x))


def _cell(x) -> str:
    return x if isinstance(x, str) else _fmt(x)


def _register(name: str, kind: str, title: str, teaches: str) -> None:
    SAMPLES.append({"name": name, "kind": kind, "title": title, "teaches": teaches})


def table(
    name, kind, title, teaches, y_true, scores: dict, *, weight=None, ids=None, attributes=None
) -> None:
    """A one-file sample: y_true, score_<model> (or pred_<model>), ..., then the
    ``attributes`` (name to values), which the table reader keeps as attributes."""
    prefix = "score_" if kind == "binary" else "pred_"
    cols = {"y_true": y_true, **{prefix + m: v for m, v in scores.items()}}
    if weight is not None:
        cols["sample_weight"] = weight
    cols.update(attributes or {})
    with open(HERE / f"{name}.csv", "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        header = (["id"] if ids is not None else []) + list(cols)
        w.writerow(header)
        for i in range(len(y_true)):
            row = [ids[i]] if ids is not None else []
            w.writerow(row + [_cell(cols[c][i]) for c in cols])
    _register(name, kind, title, teaches)


def matrices(name, kind, title, teaches, y_true, scores: dict, labels) -> None:
    """A matrix sample: <name>.labels.csv, <name>.scores.csv (+ .scores.<model>.csv)."""

    def write(path, m):
        with open(path, "w", newline="") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(labels)
            for row in np.asarray(m):
                w.writerow([_fmt(v) for v in row])

    write(HERE / f"{name}.labels.csv", y_true)
    for i, (model, s) in enumerate(scores.items()):
        write(HERE / (f"{name}.scores.csv" if i == 0 else f"{name}.scores.{model}.csv"), s)
    _register(name, kind, title, teaches)


def seeds() -> None:
    """The worked examples of the source documents (see shared seeds README)."""
    # seed 003: the LRAP tutorial, 0.5 / 0.83 / 1 per sample, 0.777 overall.
    matrices(
        "seed003_lrap",
        "multilabel",
        "LRAP tutorial: its worked example (3 samples)",
        "the LRAP tutorial's example, sample by sample: each true label scores |L_ij| / rank_ij, "
        "a sample's LRAP is their mean",
        [[1, 0, 0], [1, 0, 1], [1, 1, 0]],
        {"model": [[0.75, 0.5, 1], [1, 0.2, 0.1], [0.9, 0.7, 0.6]]},
        ["human", "cat", "dog"],
    )
    # seed 001: dcg_score's docstring. Row 0: distinct scores (9.49; 5.63 at k=2);
    # row 1: tied scores (7.5 at k=1; 5.0 with ignore_ties).
    matrices(
        "seed001_dcg",
        "graded",
        "scikit-learn dcg_score documentation: its examples",
        "the examples of scikit-learn's dcg_score page: DCG of all items and at k=2; tied scores "
        "at k=1, averaged or with ignore_ties",
        [[10, 0, 0, 1, 5], [10, 0, 0, 1, 5]],
        {"model": [[0.1, 0.2, 0.3, 4, 70], [1, 0, 0, 0, 1]]},
        ["a", "b", "c", "d", "e"],
    )
    # seed 002: the naive_auc example, 8 samples with a tied pair at 0.9.
    table(
        "seed002_auc8",
        "binary",
        "Revision sheet: AUC three ways (8 samples)",
        "from the model-evaluation revision sheet: AUC by all pairs (ties count 1/2), by rank "
        "sum and by trapezoids all agree",
        np.array([1, 0, 0, 0, 1, 0, 1, 0]),
        {"model": np.array([0.9, 0.8, 0.3, 0.1, 0.4, 0.9, 0.66, 0.7])},
    )
    # seed 002: the ROC drawn point by point, 6 impressions, 2 clicks.
    table(
        "seed002_roc6",
        "binary",
        "Revision sheet: ROC point by point (6 impressions)",
        "from the model-evaluation revision sheet: the ROC curve built one threshold at a time, "
        "point by point",
        np.array([1, 0, 1, 0, 0, 0]),
        {"model": np.array([0.9, 0.7, 0.8, 0.6, 0.5, 0.4])},
        ids=["1", "2", "3", "4", "5", "6"],
    )
    # seed 002: AP@5 / MAP@5. Query 1: relevant at ranks 1, 3, 5; query 2 at 2, 4.
    matrices(
        "seed002_map",
        "graded",
        "Revision sheet: AP@5 and MAP@5 (two queries)",
        "from the model-evaluation revision sheet: AP@5 of two queries with the min(M, K) "
        "denominator, and their mean, MAP@5",
        [[1, 0, 1, 0, 1], [0, 1, 0, 1, 0]],
        {"model": [[5, 4, 3, 2, 1], [5, 4, 3, 2, 1]]},
        ["doc1", "doc2", "doc3", "doc4", "doc5"],
    )


def user_guide() -> None:
    """scikit-learn's user guide, 3.3.3 (shared seeds 000): the small example that its
    coverage_error, label_ranking_average_precision_score and label_ranking_loss
    sections share, with the second scores of its ranking-loss example as a second
    model; and the multilabel notes' AveP list (shared seeds 004)."""
    matrices(
        "sklearn_ranking",
        "multilabel",
        "scikit-learn user guide: coverage error, LRAP and ranking loss examples",
        "the user guide's own example of coverage_error, label_ranking_average_precision_score "
        "and label_ranking_loss; model 'second' holds the ranking-loss example's second scores",
        [[1, 0, 0], [0, 0, 1]],
        {"model": [[0.75, 0.5, 1], [1, 0.2, 0.1]], "second": [[1.0, 0.1, 0.2], [0.1, 0.2, 0.9]]},
        ["label 0", "label 1", "label 2"],
    )
    # One query of 10 results, relevant at positions 1, 2 and 5.
    matrices(
        "notes_avep",
        "graded",
        "Multilabel notes: AveP of a 10-result list",
        "the multilabel notes' AveP example: relevant results at positions 1, 2 and 5 of 10; "
        "the notes divide by the list length where their formula divides by the relevant count",
        [[1, 1, 0, 0, 1, 0, 0, 0, 0, 0]],
        {"model": [[10, 9, 8, 7, 6, 5, 4, 3, 2, 1]]},
        [f"result {i}" for i in range(1, 11)],
    )


def classroom() -> None:
    """Small synthetic binary sets that each show one thing."""
    rng = np.random.default_rng(7)
    n = 200
    y = (rng.random(n) < 0.5).astype(int)
    good = np.clip(0.5 + (y - 0.5) * 0.5 + rng.normal(0, 0.2, n), 0, 1)
    weak = np.clip(0.5 + (y - 0.5) * 0.2 + rng.normal(0, 0.25, n), 0, 1)
    table(
        "balanced",
        "binary",
        "Classroom: balanced classes, two models",
        "a good and a weak model on 50/50 classes: ROC and PR curves side by side",
        y,
        {"good": good.round(3), "weak": weak.round(3)},
    )
    y = (rng.random(n) < 0.08).astype(int)
    s = np.clip(0.3 + y * 0.35 + rng.normal(0, 0.18, n), 0, 1)
    table(
        "imbalanced",
        "binary",
        "Classroom: 8% positives",
        "ROC AUC looks fine while precision and average precision stay low",
        y,
        {"model": s.round(3)},
    )
    y = np.array([0] * 10 + [1] * 10)
    table(
        "perfect",
        "binary",
        "Classroom: a perfect ranking",
        "every positive above every negative: AUC 1, AP 1, a threshold with no errors",
        y,
        {"model": np.linspace(0.05, 0.95, 20).round(3)},
    )
    y = (rng.random(100) < 0.5).astype(int)
    table(
        "random",
        "binary",
        "Classroom: random scores",
        "scores unrelated to the labels: the ROC hugs the diagonal, AUC near 0.5",
        y,
        {"model": rng.random(100).round(3)},
    )
    y = (rng.random(60) < 0.4).astype(int)
    s = np.clip(np.round((0.35 + 0.3 * y + rng.normal(0, 0.2, 60)) * 4) / 4, 0, 1)
    table(
        "heavy_ties",
        "binary",
        "Classroom: heavy ties",
        "scores take 5 values: tied scores make one diagonal ROC step and count 1/2 in AUC",
        y,
        {"model": s},
    )


def real_data() -> None:
    """Small scikit-learn models on datasets bundled with scikit-learn (no download).

    Every model is trained on a seeded train split and scored on the held-out
    test split; scores are rounded to 4 decimals to keep the files small.
    """
    _breast_cancer_five(*_breast_cancer())
    _digits()
    _diabetes()


def _breast_cancer():
    """The breast cancer sample; returns its two models and split for the leaderboard."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    # Breast cancer (569 tumours, 30 features). sklearn's target is 0 = malignant,
    # 1 = benign; we flip it so the positive class (1) is malignant.
    X, target = load_breast_cancer(return_X_y=True)
    y = 1 - target
    idx = np.arange(len(y))
    Xtr, Xte, ytr, yte, itr_bc, ite = train_test_split(
        X, y, idx, test_size=0.4, stratify=y, random_state=0
    )
    logreg = make_pipeline(StandardScaler(), LogisticRegression(C=0.05, max_iter=1000))
    tree = DecisionTreeClassifier(max_depth=3, random_state=0)
    table(
        "breast_cancer",
        "binary",
        "Real data: breast cancer, logistic regression vs a shallow tree",
        "1 = malignant (sklearn's target 0); the depth-3 tree has only 4 distinct scores: "
        "long diagonal ROC steps and a lower AUC than logreg; attributes radius and texture "
        "to slice by",
        yte,
        {
            "logreg": logreg.fit(Xtr, ytr).predict_proba(Xte)[:, 1].round(4),
            "tree": tree.fit(Xtr, ytr).predict_proba(Xte)[:, 1].round(4),
        },
        ids=[str(i) for i in ite],
        # derived attributes to slice by (the Slices page): the tumour's mean radius,
        # and its mean texture against the training median
        attributes={
            "radius": X[ite, 0].round(2),
            "texture": np.where(X[ite, 1] > np.median(X[itr_bc, 1]), "coarse", "smooth"),
        },
    )
    return logreg, tree, Xtr, Xte, ytr, yte, ite


def _breast_cancer_five(logreg, tree, Xtr, Xte, ytr, yte, ite) -> None:
    """The same test tumours scored by five models: the leaderboard sample."""
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    knn = make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=15))
    five = {
        "logreg": logreg,
        "tree": tree,
        "naive_bayes": GaussianNB(),
        "knn": knn,
        "forest": RandomForestClassifier(n_estimators=50, max_depth=4, random_state=0),
    }
    table(
        "breast_cancer_five",
        "binary",
        "Real data: breast cancer, five models on one leaderboard",
        "the breast cancer test tumours scored by logistic regression, a depth-3 tree, naive "
        "Bayes, 15 nearest neighbours and a small forest: ten pairs to compare, with a "
        "correction across them",
        yte,
        {m: clf.fit(Xtr, ytr).predict_proba(Xte)[:, 1].round(4) for m, clf in five.items()},
        ids=[str(i) for i in ite],
    )


def _digits() -> None:
    """Handwritten digits as label ranking, and the digits' properties as multilabel."""
    from sklearn.datasets import load_digits
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.multiclass import OneVsRestClassifier

    # Digits (8x8 images of 0-9) as label ranking: one true label per row.
    X, digit = load_digits(return_X_y=True)
    Xtr, Xte, dtr, dte = train_test_split(
        X / 16.0, digit, test_size=300, stratify=digit, random_state=0
    )
    clf = LogisticRegression(C=0.03, max_iter=5000).fit(Xtr, dtr)
    proba = clf.predict_proba(Xte)  # columns are the digits 0..9
    digits = [str(d) for d in range(10)]
    matrices(
        "digits",
        "multilabel",
        "Real data: handwritten digits as label ranking",
        "one true label per row, so LRAP equals MRR: each row scores 1 / rank of the true "
        "digit among the 10 probabilities",
        np.eye(10, dtype=int)[dte],
        {"model": proba.round(4)},
        digits,
    )

    # Properties of the same test digits: a real multilabel problem.
    props = {
        "even": {0, 2, 4, 6, 8},
        "prime": {2, 3, 5, 7},
        "at_least_5": {5, 6, 7, 8, 9},
        "has_loop": {0, 6, 8, 9},
        "multiple_of_3": {0, 3, 6, 9},
    }

    def prop_matrix(d):
        return np.array([[int(v in ds) for ds in props.values()] for v in d])

    ovr = OneVsRestClassifier(LogisticRegression(C=0.03, max_iter=5000))
    ovr.fit(Xtr, prop_matrix(dtr))
    members = prop_matrix(range(10))  # (10 digits, 5 properties)
    matrices(
        "digit_properties",
        "multilabel",
        "Real data: digit properties (even, prime, >= 5, has a loop, multiple of 3)",
        "0 to 4 true labels per row (a 1 has none): one-vs-rest classifiers vs sums of the "
        "digit model's probabilities, by LRAP, coverage, ranking loss",
        prop_matrix(dte),
        {"model": ovr.predict_proba(Xte).round(4), "from_digit": (proba @ members).round(4)},
        list(props),
    )


def _diabetes() -> None:
    """Diabetes progression as regression, and its patients ranked as graded queries."""
    from sklearn.datasets import load_diabetes
    from sklearn.linear_model import LinearRegression
    from sklearn.model_selection import train_test_split
    from sklearn.tree import DecisionTreeRegressor

    # Diabetes (442 patients, 10 baseline features, target = disease progression
    # one year later, 25..346, all positive).
    X, prog = load_diabetes(return_X_y=True)
    raw = load_diabetes(scaled=False).data  # the same rows, age in years, sex 1 or 2
    idx = np.arange(len(prog))
    Xtr, Xte, ytr, yte, _, ite = train_test_split(X, prog, idx, test_size=200, random_state=0)
    linear = LinearRegression().fit(Xtr, ytr).predict(Xte)
    rtree = DecisionTreeRegressor(max_depth=3, random_state=0).fit(Xtr, ytr).predict(Xte)

    # As ranking: the 200 test patients shuffled into 20 queries of 10 candidates;
    # relevance = quartile (0..3) of progression over all 442 patients.
    cuts = np.quantile(prog, [0.25, 0.5, 0.75])
    grade = np.searchsorted(cuts, yte, side="right")
    order = np.random.default_rng(11).permutation(len(yte)).reshape(20, 10)
    matrices(
        "diabetes_ranking",
        "graded",
        "Real data: diabetes patients ranked by predicted progression",
        "20 queries of 10 held-out patients, relevance = progression quartile (0-3), "
        "score = predicted progression: nDCG; the tree's scores tie",
        grade[order],
        {"model": linear[order].round(4), "tree": rtree[order].round(4)},
        [f"cand_{j + 1}" for j in range(10)],
    )
    table(
        "diabetes",
        "regression",
        "Real data: diabetes progression, linear regression vs a shallow tree",
        "MAE, RMSE, R2 on 200 held-out patients; all targets are positive, so RMSLE is "
        "defined; the tree predicts 8 distinct values; attributes age and sex to slice by",
        yte,
        {"linear": linear.round(4), "tree": rtree.round(4)},
        ids=[str(i) for i in ite],
        # the patients' age and sex (1 or 2, as the data codes it) to slice by
        attributes={"age": raw[ite, 0], "sex": raw[ite, 1]},
    )


def _rows_summing_to_one(proba: np.ndarray) -> np.ndarray:
    """Probabilities rounded to 4 decimals whose rows still sum to 1 (the largest takes
    the rounding), so that log loss and one-vs-one AUC read them as probabilities."""
    p = proba.round(4)
    top = p.argmax(axis=1)
    rows = np.arange(len(p))
    p[rows, top] = 0.0
    p[rows, top] = (1.0 - p.sum(axis=1)).round(4)
    return p


def multiclass_table(name, title, teaches, y_true, proba, classes, *, ids=None) -> None:
    """A multiclass sample: y_true (class names), proba_<class> per class, optional id."""
    with open(HERE / f"{name}.csv", "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(
            (["id"] if ids is not None else []) + ["y_true"] + [f"proba_{c}" for c in classes]
        )
        for i, row in enumerate(proba):
            head = [ids[i]] if ids is not None else []
            w.writerow(head + [classes[y_true[i]]] + [_fmt(v) for v in row])
    _register(name, "multiclass", title, teaches)


def multiclass() -> None:
    """Two real multiclass problems: digits (10 classes) and iris (3, named classes)."""
    from sklearn.datasets import load_digits, load_iris
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_predict, train_test_split

    X, digit = load_digits(return_X_y=True)
    Xtr, Xte, dtr, dte = train_test_split(
        X / 16.0, digit, test_size=300, stratify=digit, random_state=0
    )
    clf = LogisticRegression(C=0.03, max_iter=5000).fit(Xtr, dtr)
    multiclass_table(
        "digits10",
        "Real data: handwritten digits, 10 classes",
        "a 10 x 10 confusion matrix (three 8s read as 1s); top-2 accuracy above "
        "accuracy; one-vs-rest ROC and PR curves per digit",
        dte,
        _rows_summing_to_one(clf.predict_proba(Xte)),
        [str(d) for d in range(10)],
    )

    X, flower = load_iris(return_X_y=True)
    names = ["setosa", "versicolor", "virginica"]
    # sepal length and width only: setosa stands apart, the other two overlap
    proba = cross_val_predict(
        LogisticRegression(max_iter=5000), X[:, :2], flower, cv=5, method="predict_proba"
    )
    multiclass_table(
        "iris",
        "Real data: iris flowers, 3 classes",
        "from sepal sizes alone setosa is 49 of 50 right, versicolor and virginica are "
        "confused: macro F1, balanced accuracy, MCC and kappa on three named classes",
        flower,
        _rows_summing_to_one(proba),
        names,
        ids=[f"flower{i:03d}" for i in range(len(flower))],
    )


def write_index() -> None:
    with open(HERE / "index.csv", "w", newline="") as fh:
        w = csv.DictWriter(fh, ["name", "kind", "title", "teaches"], lineterminator="\n")
        w.writeheader()
        w.writerows(SAMPLES)
    rows = "\n".join(
        f"| `{s['name']}` | {s['kind']} | {s['title']} | {s['teaches']} |" for s in SAMPLES
    )
    (HERE / "README.md").write_text(
        "# Bundled samples\n\n"
        "Regenerate all of them with `python sample_data/make_samples.py` (seeded; the\n"
        "`Real data` samples need scikit-learn from `requirements-dev.txt`, the app only\n"
        "reads the CSVs).\n"
        "A one-file sample is `<name>.csv`; a matrix sample is `<name>.labels.csv` plus\n"
        "`<name>.scores.csv`.\n\n"
        "| name | kind | title | what it teaches |\n| --- | --- | --- | --- |\n" + rows + "\n"
    )


def main() -> None:
    seeds()
    user_guide()
    classroom()
    real_data()
    multiclass()
    write_index()


if __name__ == "__main__":
    main()
