"""Array manipulation functions (`chainer.functions.array`)."""
