"""A generated word corpus for trying the language model offline.

Sentences come from a small probabilistic grammar (determiner, adjectives, noun,
verb, object, optional prepositional phrase), joined by ``<eos>`` as in PTB. A good
model can learn the grammar, so its perplexity falls well below the vocabulary size
(39 words) towards the grammar's own entropy.
"""
import numpy

_DET = ['the', 'a', 'every', 'no', 'this']
_ADJ = ['big', 'small', 'red', 'old', 'quick', 'lazy', 'happy']
_NOUN = ['cat', 'dog', 'bird', 'man', 'woman', 'child', 'tree', 'house', 'car', 'ball']
_VERB = ['sees', 'likes', 'chases', 'finds', 'makes', 'wants', 'eats']
_PREP = ['on', 'in', 'near', 'under', 'with']
_ADV = ['today', 'again', 'slowly', 'quickly']


def vocabulary():
    """The word → ID dict (``<eos>`` is 0)."""
    words = ['<eos>'] + _DET + _ADJ + _NOUN + _VERB + _PREP + _ADV
    return {w: i for i, w in enumerate(words)}


def _noun_phrase(rng, out):
    out.append(_DET[rng.randint(len(_DET))])
    while rng.rand() < 0.4:
        out.append(_ADJ[rng.randint(len(_ADJ))])
    out.append(_NOUN[rng.randint(len(_NOUN))])


def _sentence(rng):
    words = []
    _noun_phrase(rng, words)
    words.append(_VERB[rng.randint(len(_VERB))])
    _noun_phrase(rng, words)
    if rng.rand() < 0.3:
        words.append(_PREP[rng.randint(len(_PREP))])
        _noun_phrase(rng, words)
    if rng.rand() < 0.2:
        words.append(_ADV[rng.randint(len(_ADV))])
    words.append('<eos>')
    return words


def get_toy_words(n_train=20000, n_valid=2000, n_test=2000, seed=0):
    """``(train, valid, test)`` int32 arrays of word IDs, like ``get_ptb_words``.

    Uses its own ``RandomState(seed)``; numpy's global generator is not touched.
    """
    rng = numpy.random.RandomState(seed)
    vocab = vocabulary()
    splits = []
    for n in (n_train, n_valid, n_test):
        words = []
        while len(words) < n:
            words.extend(_sentence(rng))
        splits.append(numpy.array([vocab[w] for w in words[:n]], dtype=numpy.int32))
    return tuple(splits)
