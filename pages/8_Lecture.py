"""Lecture page: the lab's lessons in order, each step one screen and one link.

Lists the steps (:data:`ui.lecture.STEPS`) with the question each answers and its link,
and starts the walk; each step opens its lesson page with Previous / Next beside the
title. A link to this page with ``step=N`` opens step N. Widgets and layout only.
"""

from __future__ import annotations

import streamlit as st

from ui import lecture, lesson, state, widgets

st.set_page_config(page_title="Lecture · Discriminative Clustering Lab", layout="wide")
state.init()

# A link to the Lecture with a step opens that step's page.
if state.lecture_step_here():
    lecture.go(state.lecture_step_here())

lesson.header(
    "Lecture",
    "Seven lessons in order, for a 50-minute class: each step is one screen and one link a "
    "student can open. Present with Previous / Next beside each step's title.",
)
if st.button(
    "Start the lecture", icon=":material/play_arrow:", type="primary", key="lecture.start"
):
    lecture.go(1)
for number, step in enumerate(lecture.STEPS, start=1):
    link, question = st.columns([5, 6], vertical_alignment="center")
    with link:
        widgets.page_link(
            step.page, label=f"{number} · {step.title}", query_params=step.query(number)
        )
    question.caption(step.question)
st.caption(
    "Each link opens its step with the settings the lesson needs (data set, methods, "
    "rescaling) and the step's number, so a student lands on the same screen."
)
state.sync_to_url()
