"""PettingZoo's own API and seed tests for both environments under several rule sets."""

import pytest
from pettingzoo.test import api_test, seed_test

from hangar_env import flight_v0, jungle_v0

FLIGHT_SETS = [
    dict(players=4),
    dict(players=2, preset="improved"),
    dict(players=3, planes=2, finish="circle", stacks="pass"),
    dict(players=4, teams=True, play_on=True),
    dict(players=4, items=True, weather=True, three_sixes="moved-to-hangar"),
    dict(players=2, takeoff="five-or-six", finish="exact-only", items=True),
]
JUNGLE_SETS = [dict(), dict(order="wolf-over-dog", leopard_leaps=True, elephant_takes_rat=True)]


@pytest.mark.parametrize("kwargs", FLIGHT_SETS)
def test_flight_passes_the_api_and_seed_tests(kwargs):
    api_test(flight_v0.env(**kwargs), num_cycles=300)
    seed_test(lambda **kw: flight_v0.env(**kwargs, **kw), num_cycles=300)


@pytest.mark.parametrize("kwargs", JUNGLE_SETS)
def test_jungle_passes_the_api_and_seed_tests(kwargs):
    api_test(jungle_v0.env(**kwargs), num_cycles=300)
    seed_test(lambda **kw: jungle_v0.env(**kwargs, **kw), num_cycles=300)


@pytest.mark.parametrize("module", [flight_v0, jungle_v0])
def test_both_render_modes_draw(module):
    env = module.raw_env(render_mode="ansi")
    env.reset(seed=3)
    assert "to move" in env.render()
    env = module.raw_env(render_mode="rgb_array")
    env.reset(seed=3)
    image = env.render()
    assert image.ndim == 3 and image.shape[2] == 3 and image.dtype.name == "uint8"
    assert image.std() > 0
