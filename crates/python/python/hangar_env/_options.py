"""Rule options from keyword arguments to the engine's `key=value` text."""

import numpy as np


def option_pairs(options):
    """(key, value) text pairs for the engine, in the order given; None values are skipped.

    `True`/`False` become `true`/`false`, numbers their digits, strings stay as they are
    (`stacks="pass"`, `takeoff="five-or-six"`); underscores in keys are the engine's hyphens.
    """
    pairs = []
    for key, value in options.items():
        if value is None:
            continue
        if isinstance(value, (bool, np.bool_)):
            text = "true" if value else "false"
        else:
            text = str(value)
        pairs.append((key, text))
    return pairs


def fresh_seed():
    """A random 64-bit seed for `reset(seed=None)`."""
    return int(np.random.SeedSequence().entropy) % 2**64


def seed_value(seed):
    """A Python seed as the engine's unsigned 64-bit number."""
    return fresh_seed() if seed is None else int(seed) % 2**64
