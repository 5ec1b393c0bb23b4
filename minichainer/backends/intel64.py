"""iDeep backend stand-in: never available here."""


def is_ideep_available():
    return False


def should_use_ideep(level):
    return False


def inputs_all_ready(inputs, supported_ndim=(2, 4)):
    return False
