"""Pooling functions."""
