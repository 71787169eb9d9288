"""rscount: count the reasoning shortcuts of a neuro-symbolic learning task before training it."""

__version__ = "0.1.0"
