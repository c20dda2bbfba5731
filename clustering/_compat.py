"""The one place that imports scikit-learn's private helpers.

scikit-learn moves its private utilities between releases; keeping every such import here
means a new scikit-learn release is fixed in one file.
"""

from sklearn.base import _fit_context
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, check_random_state, validate_data

__all__ = [
    "Interval",
    "StrOptions",
    "_fit_context",
    "check_is_fitted",
    "check_random_state",
    "validate_data",
]
