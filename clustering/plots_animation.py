"""Moved to :mod:`clustering.plots.animation` (the figures live in one package); this name
is kept so that imports written before the move keep working."""

from .plots.animation import mspc_steps_figure, scaling_animation_figure

__all__ = ["mspc_steps_figure", "scaling_animation_figure"]
