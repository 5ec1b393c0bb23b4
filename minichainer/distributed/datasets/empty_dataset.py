"""Placeholder datasets for ranks that only relay data (`create_empty_dataset`)."""


def create_empty_dataset(dataset):
    """Return a list of `len(dataset)` empty tuples, for model-parallel ranks that
    need the iteration count but not the data."""
    return [()] * len(dataset)
