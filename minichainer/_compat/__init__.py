"""Machinery behind `minichainer.compat` (import aliasing, the `chainerx` stub)."""
