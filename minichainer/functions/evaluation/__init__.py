"""Evaluation metrics (`chainer.functions.evaluation`); forward only."""
