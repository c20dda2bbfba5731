"""Streamlit glue of the lab: session state (:mod:`ui.state`), cached backend calls
(:mod:`ui.cache`) and shared widgets (:mod:`ui.widgets`).

Pages import from here; :mod:`clustering` and :mod:`datasets` never import this package.
"""
