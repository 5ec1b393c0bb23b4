"""Activation functions (`chainer.functions.activation`), plus `lstm`/`slstm`."""
