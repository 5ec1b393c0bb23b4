"""Loss links (`chainer.links.loss`): NegativeSampling, BlackOut, CRF1d and
BinaryHierarchicalSoftmax."""
