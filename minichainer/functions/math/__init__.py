"""Mathematical functions (`chainer.functions.math`)."""
