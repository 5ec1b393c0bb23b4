"""Chainer 7.8.1 argument names of the cross-validation helpers; TextDataset.close."""
import pytest

from minichainer import datasets


def test_cross_validation_takes_n_folds_keyword():
    splits = datasets.get_cross_validation_datasets([1, 2, 3, 4, 5, 6], n_folds=3)
    assert [len(te) for _, te in splits] == [2, 2, 2]
    splits = datasets.get_cross_validation_datasets_random(list(range(6)), n_folds=2, seed=0)
    assert sorted(list(splits[0][1]) + list(splits[1][1])) == list(range(6))


def test_cross_validation_old_n_fold_keyword_warns():
    with pytest.warns(DeprecationWarning, match='n_folds'):
        splits = datasets.get_cross_validation_datasets([1, 2, 3, 4], n_fold=2)
    assert len(splits) == 2
    with pytest.warns(DeprecationWarning):
        assert len(datasets.get_cross_validation_datasets_random([1, 2, 3], n_fold=3)) == 3


def test_cross_validation_bad_arguments():
    with pytest.raises(TypeError, match='n_folds'):
        datasets.get_cross_validation_datasets([1, 2])
    with pytest.raises(TypeError, match='bogus'):
        datasets.get_cross_validation_datasets([1, 2], 2, bogus=1)


def test_text_dataset_close(tmp_path):
    path = tmp_path / 'a.txt'
    path.write_text('x\ny\n')
    ds = datasets.TextDataset(str(path))
    assert ds[1] == 'y\n'
    ds.close()
    with pytest.raises(ValueError):  # as Chainer: no reopening on demand
        ds[0]
    ds.close()  # closing again is harmless
