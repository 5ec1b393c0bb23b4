"""Machinery behind :mod:`minichainer.compat` (import aliasing, the ``chainerx`` stub)."""
