"""Errors as messages for the user, never a traceback.

:func:`error_box` shows a titled ``st.error`` with the backend's message (which says what to
do); :func:`guard` runs a block and turns a data, solver or input error into one;
:func:`show_result_problems` shows a failed fit's message or its warnings.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import numpy as np
import streamlit as st

import datasets
from clustering.exceptions import (
    DegenerateDataError,
    ProblemTooLargeError,
    SolverFailedError,
    TooExpensiveError,
)
from lab.evaluation import FitOutcome

from .text import plain

__all__ = ["HANDLED_ERRORS", "error_box", "guard", "show_result_problems"]

_ERROR_TITLES: tuple[tuple[type[BaseException], str], ...] = (
    (datasets.DatasetError, "This data set cannot be used"),
    (SolverFailedError, "The solver did not find a solution"),
    (TooExpensiveError, "This run would not finish on this machine"),
    (ProblemTooLargeError, "The problem is too large for this method"),
    (DegenerateDataError, "The data cannot be clustered this way"),
    (ValueError, "Invalid input"),
)
#: The errors :func:`guard` turns into messages.
HANDLED_ERRORS = (
    datasets.DatasetError,
    SolverFailedError,
    ProblemTooLargeError,
    DegenerateDataError,
    ValueError,
    np.linalg.LinAlgError,
)


def error_box(error: BaseException | str, *, title: str | None = None) -> None:
    """Show an error as ``st.error``: a short title naming the kind of problem, then the
    message written by the backend (which says what to do). Never a traceback."""
    if isinstance(error, BaseException):
        message = str(error) or type(error).__name__
        if title is None:
            title = next(
                (t for cls, t in _ERROR_TITLES if isinstance(error, cls)), "Something went wrong"
            )
    else:
        message = str(error)
    st.error(
        f"**{plain(title)}.** {plain(message)}" if title else plain(message),
        icon=":material/warning:",
    )


@contextlib.contextmanager
def guard(title: str | None = None) -> Iterator[None]:
    """Run a block; a data, solver or input error stops the block and shows
    :func:`error_box` instead of a traceback.

    Examples
    --------
    ``with guard(): dataset = datasets.read_csv(upload)`` shows a bad file's message.
    """
    try:
        yield
    except HANDLED_ERRORS as err:
        error_box(err, title=title)


def show_result_problems(result: FitOutcome) -> bool:
    """Show a failed fit's message (``st.error``) or its warnings (``st.warning``).

    Returns ``True`` when the result is usable (the fit succeeded).
    """
    if not result.ok and result.error_type == "WaitsForClick":  # ui.cache.WAITS_FOR_CLICK
        st.info(
            f"**{plain(result.name)}** is {plain(result.error)}",
            icon=":material/hourglass_top:",
        )
        return False
    if not result.ok:
        title = next(
            (t for cls, t in _ERROR_TITLES if cls.__name__ == result.error_type),
            "The method failed",
        )
        error_box(f"{result.name}: {result.error}", title=title)
        return False
    for message in result.warnings:
        st.warning(f"{plain(result.name)}: {plain(message)}", icon=":material/info:")
    return True
