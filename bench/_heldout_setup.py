"""What the held-out MSP benches share (``bench/heldout_variants.py`` and
``bench/heldout_ceiling.py``): the fits' ``lam``, the score variants, the families the
ceilings run on, the default fitted with its held-out scoring changed, and the score and r
of a labeling."""

from __future__ import annotations

import contextlib
import warnings

import numpy as np

import clustering.mspc as mspc_module
from clustering import MSPC
from clustering._starts import HELDOUT_MARGIN
from clustering.msp_heldout import heldout_msp_from_std

FIT_LAM = 0.2  # the default lam the fits run at

#: Pipeline variants: the held-out MSP's lam, parts, repeats and the start choice's margin.
PIPELINE_VARIANTS = {
    "shipped (lam 0.2, 2 parts, 3 repeats, margin 0.02)": {},
    "margin 0": {"margin": 0.0},
    "scored at lam 0.01": {"lam": 0.01},
    "scored at lam 0.05": {"lam": 0.05},
    "scored at lam 0.05, margin 0": {"lam": 0.05, "margin": 0.0},
    "scored at lam 0.5": {"lam": 0.5},
    "5 parts": {"n_splits": 5},
    "10 repeats": {"n_repeats": 10},
    "5 parts, lam 0.05": {"n_splits": 5, "lam": 0.05},
}

#: Score-only variants (keyword arguments of :func:`heldout_msp_from_std`).
RESCORE_VARIANTS = {
    "shipped (lam 0.2, diag, 2 parts, 3 repeats, prior 2)": {},
    "lam 0.01": {"lam": 0.01},
    "lam 0.05": {"lam": 0.05},
    "lam 0.1": {"lam": 0.1},
    "lam 0.5": {"lam": 0.5},
    "lam 1": {"lam": 1.0},
    "identity": {"regularizer": "identity"},
    "total": {"regularizer": "total"},
    "3 parts": {"n_splits": 3},
    "5 parts": {"n_splits": 5},
    "10 parts": {"n_splits": 10},
    "10 repeats": {"n_repeats": 10},
    "prior 0": {"prior_points": 0.0},
    "prior 5": {"prior_points": 5.0},
}

CEILING_FAMILIES = ("digits", "letter", "wine/iris*", "letter*", "digits-half*")


@contextlib.contextmanager
def pipeline_variant(lam=None, n_splits=2, n_repeats=None, margin=HELDOUT_MARGIN, record=None):
    """The default's held-out scoring changed for the duration of the block; ``record``: a
    list that receives every climbed start's labels (binary fits on all samples)."""
    score, once = mspc_module.heldout_msp_z, mspc_module.heldout_once
    old_margin = mspc_module.HELDOUT_MARGIN

    def changed(Z, codes, k, reg, **kw):
        if lam is not None:
            reg = reg * (lam / FIT_LAM)
        given = kw.pop("n_repeats", 3)
        # one repeat is what the fit asks for above 2000 samples (kept as shipped)
        repeats = given if given == 1 or n_repeats is None else n_repeats
        return score(Z, codes, k, reg, n_splits=n_splits, n_repeats=repeats, **kw)

    def recording(climbed, labels, fn):
        value = once(climbed, labels, fn)
        if record is not None:
            record.append(labels.copy())
        return value

    mspc_module.heldout_msp_z = changed
    mspc_module.heldout_once = recording
    mspc_module.HELDOUT_MARGIN = margin
    try:
        yield
    finally:
        mspc_module.heldout_msp_z, mspc_module.heldout_once = score, once
        mspc_module.HELDOUT_MARGIN = old_margin


def _r(score, acc) -> float:
    score, acc = np.asarray(score, float), np.asarray(acc, float)
    ok = ~np.isnan(score)
    if acc[ok].std() == 0 or score[ok].std() == 0:
        return np.nan
    return float(np.corrcoef(score[ok], acc[ok])[0, 1])


def _fit(X, **variant):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pipeline_variant(**variant):
            return MSPC(random_state=0).fit(X)


def _score(std, labels, lam=FIT_LAM, regularizer="diag", **kw) -> float:
    _, codes = np.unique(labels, return_inverse=True)
    try:
        return heldout_msp_from_std(
            std, codes, 2, lam, regularizer, random_state=0, too_small="zero", **kw
        )
    except Exception:  # "total" is singular on some sets (constant pixels inside a pair)
        return np.nan
