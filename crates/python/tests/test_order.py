"""`env()`'s built-in order check keeps every guarantee of PettingZoo's OrderEnforcingWrapper:
the same misuse fails the same way in both."""

import numpy as np
import pytest
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from hangar_env import flight_v0, jungle_v0

MODULES = [flight_v0, jungle_v0]


def outcome(call):
    """What a call does: ("ok", value type) or (exception type, message)."""
    try:
        value = call()
    except Exception as e:  # noqa: BLE001 - the kind of failure is what is compared
        return type(e).__name__, str(e)
    return "ok", type(value).__name__


SET_BY_RESET = ("rewards", "terminations", "truncations", "infos", "agent_selection", "num_agents", "agents")


def before_reset(env):
    """What each call does before the first reset. The attributes set by `reset` raise
    AttributeError in both, worded by Python in ours (see `OrderEnforced`): their kind only."""
    attributes = [outcome(lambda name=name: getattr(env, name))[0] for name in SET_BY_RESET]
    attributes.append(outcome(env.last)[0])  # reads `agent_selection`
    calls = [
        lambda: env.step(0),
        lambda: env.observe("player_0"),
        lambda: env.render(),
        lambda: env.state(),
        lambda: env.agent_iter(),
        lambda: env.possible_agents,
        lambda: env.observation_space("player_0"),
    ]
    return attributes + [outcome(c) for c in calls]


@pytest.mark.parametrize("module", MODULES)
def test_misuse_before_reset_fails_as_under_pettingzoos_wrapper(module):
    ours, theirs = module.env(render_mode="ansi"), OrderEnforcingWrapper(module.raw_env(render_mode="ansi"))
    seen = before_reset(ours)
    assert seen == before_reset(theirs)
    assert seen[: len(SET_BY_RESET) + 1] == ["AttributeError"] * (len(SET_BY_RESET) + 1)
    # Nothing before reset passes but the static attributes.
    assert [kind for kind, _ in seen[len(SET_BY_RESET) + 1 :]].count("ok") == 2
    # A reset that fails leaves the env unreset.
    with pytest.raises(Exception):
        ours.reset(seed=-1, options={"order" if module is jungle_v0 else "stacks": "sideways"})
    assert outcome(lambda: ours.step(0))[0] == "AssertionError"


def loop_without_step(env):
    env.reset(seed=1)
    for _ in env.agent_iter(max_iter=50):
        env.last()


@pytest.mark.parametrize("module", MODULES)
def test_a_loop_that_does_not_step_fails_as_under_pettingzoos_wrapper(module):
    ours = outcome(lambda: loop_without_step(module.env()))
    assert ours == outcome(lambda: loop_without_step(OrderEnforcingWrapper(module.raw_env())))
    assert ours[0] == "AssertionError" and "step()" in ours[1]


def finish(env, seed):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("module", MODULES)
def test_a_step_after_the_end_warns_and_does_nothing(module):
    for env in (module.env(), OrderEnforcingWrapper(module.raw_env())):
        finish(env, seed=2)
        assert env.agents == []
        EnvLogger.mqueue.clear()
        env.step(0)
        assert any("step() called after all agents" in m for m in EnvLogger.mqueue)
        assert env.agents == [] and env.rewards == {}


@pytest.mark.parametrize("module", MODULES)
def test_ordered_and_raw_envs_play_the_same_games(module):
    # The order check changes nothing else: same seed, same actions, same observations.
    def trace(env):
        env.reset(seed=9)
        rng = np.random.default_rng(9)
        seen = []
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            seen.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward))
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return seen

    assert trace(module.env()) == trace(OrderEnforcingWrapper(module.raw_env()))
