"""Recurrent functions (`chainer.functions.rnn`); the implementations live in
`minichainer.functions.activation`."""
