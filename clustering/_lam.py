"""Policy of the regulariser weight ``lam``, defined once for the estimators, the lab and links.

- :data:`LAM_RANGE`: the range the MSPC paper's model selection searches (1e-4 .. 1e4); the
  lab's slider and the link decoder accept exactly this range.
- :data:`DEFAULT_LAM`: the value the lab starts with (the MSPC ``Param`` default).
- :func:`effective_lam`: the rule "``lam`` = 0 when the regulariser is ``"none"``" (with no
  ``Lambda`` there is nothing to weigh).
- :func:`lam_param`: the ``lam`` a method offers in the registry (a log scale over
  :data:`LAM_RANGE`).
"""

from __future__ import annotations

from ._spec import Param

__all__ = [
    "DEFAULT_LAM",
    "LAM_RANGE",
    "effective_lam",
    "lam_param",
]

#: ``(low, high)`` of ``lam`` (the MSPC paper tries 1e-4 .. 1e4).
LAM_RANGE: tuple[float, float] = (1e-4, 1e4)

#: The ``lam`` the lab and the MSPC estimator start with: the largest value of the lab's grid at
#: which the MSP criterion still prefers the true split of scikit-learn's anisotropic blobs
#: (measurements in the ``lam`` parameter of :class:`clustering.MSPC`).
DEFAULT_LAM: float = 0.2


def effective_lam(lam: float, regularizer: str) -> float:
    """The ``lam`` actually used: 0 when ``regularizer == "none"``, else ``float(lam)``.

    Examples
    --------
    >>> effective_lam(0.5, "diag"), effective_lam(0.5, "none")
    (0.5, 0.0)
    """
    return 0.0 if regularizer == "none" else float(lam)


def lam_param(help: str, default: float = 1.0, label: str = "λ (regulariser)") -> Param:
    """The registry's ``lam`` of a regularised method: a float on a log scale over
    :data:`LAM_RANGE`, with the method's own ``help``."""
    low, high = LAM_RANGE
    return Param("lam", "float", default, help, low=low, high=high, log=True, label=label)
