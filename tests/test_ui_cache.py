"""Every argument that changes a cached result is part of its cache key.

Streamlit hashes every argument of an ``st.cache_data`` / ``st.cache_resource`` function
except those whose name starts with an underscore. An argument left out of the key on
purpose (a large array, the bytes of an upload) must have another argument that stands for
it (its fingerprint or digest): :data:`UNHASHED` lists each one with that stand-in, and the
first test holds every cached function of the lab to it. The other tests change one
argument of each of :mod:`ui.cache`'s wrappers at a time and check that the result follows:
an argument renamed with a leading underscore would serve the first result again."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from ui import cache
from ui.model import fingerprint

ROOT = Path(__file__).resolve().parents[1]

#: (module, function, unhashed argument) -> the hashed argument(s) standing for it, and why.
UNHASHED: dict[tuple[str, str, str], tuple[tuple[str, ...], str]] = {
    **{
        ("ui/analysis.py", function, "_X"): (("data_fingerprint",), "the hash of X and y")
        for function in (
            "mpm_on_labels",
            "random_labelings_bound",
            "theorem1_table",
            "msp_of_labelings",
            "nonsense_splits",
            "margin_table",
        )
    },
    ("ui/cache.py", "read_upload", "_content"): (("content_digest",), "the hash of the bytes"),
    ("ui/cache.py", "_fingerprint", "_dataset"): (
        ("choice", "upload_digest"),
        "the data set is loaded from the choice (and the upload of that digest)",
    ),
    ("ui/cache.py", "_fit", "_X"): (("data_fingerprint",), "the hash of X and y"),
    ("ui/cache.py", "_fit", "_y"): (("data_fingerprint",), "the hash of X and y"),
    ("ui/cache.py", "_fit", "_in_child"): ((), "where the fit runs, not what it returns"),
    ("ui/cache.py", "_projection", "_X"): (("data_fingerprint",), "the hash of X and y"),
    ("ui/cluster.py", "_msp_curve", "_X"): (("data_fingerprint",), "the hash of X and y"),
    ("ui/cluster.py", "_mspc_steps", "_X"): (("data_fingerprint",), "the hash of X and y"),
    ("ui/cluster.py", "_one_vs_rest", "_X"): (("data_fingerprint",), "the hash of X and y"),
    ("ui/cluster.py", "_shared", "_build"): (
        ("kind", "signature"),
        "the builder is a closure over the values the signature holds",
    ),
    ("ui/compare.py", "_grid", "_X"): (("current_fp",), "the hash of the current data set"),
    ("ui/compare.py", "_grid", "_y"): (("current_fp",), "the hash of the current data set"),
    ("ui/scaling.py", "animation", "_X"): (("data_fingerprint",), "the hash of X and y"),
    ("ui/scaling.py", "animation", "_y"): (("data_fingerprint",), "the hash of X and y"),
    ("ui/scaling.py", "_scatter_figure", "_X"): (("data_fingerprint",), "the hash of X and y"),
    ("ui/scaling.py", "_scatter_figure", "_y"): (("data_fingerprint",), "the hash of X and y"),
    ("ui/uploads.py", "preview", "_content"): (("content_digest",), "the hash of the bytes"),
}


def _cached_functions():
    """``(module, function name, argument names)`` of every function of the app decorated
    with ``st.cache_data`` or ``st.cache_resource``."""
    files = [*ROOT.glob("ui/**/*.py"), *ROOT.glob("pages/*.py"), ROOT / "app.py"]
    for path in sorted(files):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if any("cache_data" in ast.unparse(d) or "cache_resource" in ast.unparse(d)
                   for d in node.decorator_list):  # fmt: skip
                a = node.args
                names = [x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
                names += [x.arg for x in (a.vararg, a.kwarg) if x is not None]
                yield path.relative_to(ROOT).as_posix(), node.name, names


def test_every_unhashed_argument_of_a_cached_function_has_a_hashed_stand_in():
    found = list(_cached_functions())
    assert len(found) >= 20  # the scan sees the lab's cached functions
    seen = set()
    for module, function, names in found:
        for name in names:
            if not name.startswith("_"):
                continue
            where = (module, function, name)
            assert where in UNHASHED, (
                f"{module}::{function} leaves {name!r} out of its cache key: give it a name "
                "without the underscore, or list it in UNHASHED with the argument that "
                "stands for it"
            )
            stand_ins, _reason = UNHASHED[where]
            assert all(s in names and not s.startswith("_") for s in stand_ins), where
            assert stand_ins or "not what it returns" in _reason, where
            seen.add(where)
    assert seen == set(UNHASHED)  # no entry for an argument that no longer exists


# ---- behaviour: each argument of ui.cache's wrappers reaches the result ------------------


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(0, 1, (30, 3)), rng.normal(0, 1, (30, 3)) + [4, 0, 0]])
    y = np.repeat([0, 1], 30)
    return X, y, fingerprint(X, y)


def test_a_fit_follows_each_of_its_arguments(data):
    X, y, fp = data
    base = {"key": "kmeans", "params": {"n_init": 2}, "msp_lam": 0.01, "msp_regularizer": "diag"}

    def run(**change):
        args = {**base, **change}
        return cache.fit(
            args["key"],
            args["params"],
            args.get("fp", fp),
            args.get("X", X),
            args.get("y", y),
            args.get("must_link"),
            args.get("cannot_link"),
            args["msp_lam"],
            args["msp_regularizer"],
        )

    first = run()
    assert not first.error and first.msp_lam == 0.01
    assert run(key="mspc-mpm").key == "mspc-mpm"
    assert run(params={"n_init": 3}).params["n_init"] == 3
    assert run(msp_lam=0.5).msp_lam == 0.5
    assert run(msp_regularizer="identity").msp_regularizer == "identity"
    fewer = X[:40]
    other = run(X=fewer, y=y[:40], fp=fingerprint(fewer, y[:40]))
    assert other.labels.shape == (40,)
    constrained = run(key="diffrac", params={}, must_link=[(0, 59)])
    free = run(key="diffrac", params={})
    assert constrained.labels[0] == constrained.labels[59]
    assert free.labels[0] != free.labels[59]
    apart = run(key="diffrac", params={}, cannot_link=[(0, 1)])
    assert apart.labels[0] != apart.labels[1]


def test_a_projection_follows_each_of_its_arguments(data):
    X, _y, fp = data
    w = np.array([1.0, 0.0, 0.0])

    def run(view="discriminant", w=w, b=2.0, names=("a", "b", "c"), max_points=1000):
        return cache.projection(view, fp, X, w, b, names, max_points)

    first = run()
    assert run(view="pca").view == "pca" != first.view
    assert not np.allclose(run(w=np.array([0.0, 1.0, 0.0])).coords[:, 0], first.coords[:, 0])
    assert run(b=-1.0).line != first.line
    named = run(view="features:0,1", names=("width", "height", "depth"))
    assert named.x_title.startswith("width")
    assert run(view="features:0,1", names=("u", "v", "w")).x_title.startswith("u")
    assert run(max_points=20).coords.shape[0] == 20 < first.coords.shape[0]


def test_loading_data_follows_each_of_its_arguments():
    raw = cache.load_bundled("breast", normalize=False)
    scaled = cache.load_bundled("breast", normalize=True)
    assert np.abs(scaled.X).max() <= 1 + 1e-9 < np.abs(raw.X).max()
    assert cache.load_bundled("ionosphere", True).X.shape != scaled.X.shape
    small = cache.generate("two_gaussians", (("n_samples", 40),), False)
    large = cache.generate("two_gaussians", (("n_samples", 80),), False)
    assert (small.X.shape[0], large.X.shape[0]) == (40, 80)
    assert cache.generate("moons", (("n_samples", 40),), False).name != small.name
    assert np.abs(cache.generate("two_gaussians", (("n_samples", 40),), True).X).max() <= 1


def _read_variants():
    """Run in an app session (``read_upload``'s cache is per session): each variant's shape,
    whether it has labels and its largest absolute value, written as text."""
    import numpy as np
    import streamlit as st

    from ui import cache

    text = b"a,b,c\n1,10,0\n2,20,0\n3,,1\n4,40,1\n5,50,1\n"

    def read(content=text, label="c", missing="drop", normalize=False):
        digest = cache.upload_digest({"name": "f.csv", "content": content})
        return cache.read_upload(digest, "f.csv", label, missing, normalize, _content=content)

    variants = {
        "first": read(),
        "unlabelled": read(label="__none__"),
        "mean": read(missing="mean"),
        "normalized": read(normalize=True),
        "longer": read(content=text + b"6,60,1\n"),
    }
    for name, ds in variants.items():
        st.text(f"{name} {ds.X.shape[0]} {ds.X.shape[1]} {ds.y is not None} {np.abs(ds.X).max()}")
    st.text(f"named {variants['first'].name}")


def test_reading_an_upload_follows_each_of_its_arguments():
    from streamlit.testing.v1 import AppTest

    app = AppTest.from_function(_read_variants, default_timeout=60).run()
    assert not app.exception
    rows = {}
    assert app.text[-1].value == "named f.csv"  # the data set is called after its file
    for element in app.text[:-1]:
        name, n, d, labelled, top = element.value.split()
        rows[name] = (int(n), int(d), labelled == "True", float(top))
    assert rows["first"][:3] == (4, 2, True)
    assert rows["unlabelled"][1] == 3 and not rows["unlabelled"][2]  # c read as a feature
    assert rows["mean"][0] == 5  # the row with a missing value kept
    assert rows["normalized"][3] <= 1 < rows["first"][3]
    assert rows["longer"][0] == 5


def test_a_fit_the_lab_does_not_start_says_which_method_and_why(data, monkeypatch):
    """A fit refused (above the hard cap) or waiting for a click names the method, its
    parameters and the reason, and its cost was predicted for the data's own shape."""
    from lab.budget import REFUSED, WAITS

    X, y, fp = data
    asked = []
    predict = cache.fit_cost

    def recording(key, n, d, params):
        asked.append((key, n, d))
        return predict(key, n, d, params)

    monkeypatch.setattr(cache, "fit_cost", recording)
    monkeypatch.setattr(cache, "decide", lambda costs, clicked, *a: [REFUSED])
    refused = cache.fit("kmeans", {"n_init": 7}, fp, X, y, clicked=True)
    assert asked == [("kmeans", 60, 3)]
    assert (refused.key, refused.name, refused.params) == ("kmeans", "k-means", {"n_init": 7})
    assert refused.error and refused.error_type
    monkeypatch.setattr(cache, "decide", lambda costs, clicked, *a: [WAITS])
    waits = cache.fit("kmeans", {"n_init": 8}, fp, X, y)
    assert (waits.key, waits.name, waits.params) == ("kmeans", "k-means", {"n_init": 8})
    assert waits.error_type == cache.WAITS_FOR_CLICK and "button" in waits.error
    monkeypatch.undo()
    assert not cache.fit("kmeans", {"n_init": 8}, fp, X, y, clicked=True).error
    late = cache.fit("kmeans", {"n_init": 9}, fp, X, y, decision=WAITS)
    assert late.error_type == cache.WAITS_FOR_CLICK


def test_a_method_that_crashes_is_reported_as_a_bug_with_its_name(data, monkeypatch):
    X, y, fp = data

    def crash(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(cache, "fit_and_evaluate", crash)
    outcome = cache.fit("kmeans", {"n_init": 11}, fp, X, y, clicked=True)
    assert (outcome.key, outcome.name, outcome.params) == ("kmeans", "k-means", {"n_init": 11})
    assert "RuntimeError: boom" in outcome.error and "bug in the lab" in outcome.error
