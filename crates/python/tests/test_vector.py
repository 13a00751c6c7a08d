"""The vector envs play the single env's games, step by step, for the same seeds."""

import numpy as np
import pytest

from hangar_env import FlightVectorEnv, JungleVectorEnv, flight_v0, jungle_v0

ENDGAME = "l5t/7/r5e/7/7/7/E5R/7/T5L r"


@pytest.mark.parametrize(
    "make_vector, make_single, obs_key",
    [
        (
            lambda n, threads: FlightVectorEnv(n, players=4, preset="improved", items=True, seed=100, num_threads=threads),
            lambda: flight_v0.raw_env(players=4, preset="improved", items=True),
            "flight",
        ),
        (
            lambda n, threads: JungleVectorEnv(n, seed=100, num_threads=threads),
            lambda: jungle_v0.raw_env(),
            "jungle",
        ),
        (
            # An endgame (train_jungle.py's): games end within the test's steps.
            lambda n, threads: JungleVectorEnv(n, seed=100, num_threads=threads, position=ENDGAME),
            lambda: jungle_v0.raw_env(position=ENDGAME),
            "jungle endgame",
        ),
    ],
)
@pytest.mark.parametrize("threads", [1, 2])
def test_vector_env_equals_single_envs_step_by_step(make_vector, make_single, obs_key, threads):
    n, steps = 8, 600
    venv = make_vector(n, threads)
    obs, masks, to_move = venv.reset(seed=100)
    singles = [make_single() for _ in range(n)]
    seeds = [100 + i for i in range(n)]
    for i, env in enumerate(singles):
        env.reset(seed=seeds[i])
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(steps):
        actions = np.zeros(n, dtype=np.int64)
        for i, env in enumerate(singles):
            agent = env.agent_selection
            assert to_move[i] == env.possible_agents.index(agent)
            seen = env.observe(agent)
            np.testing.assert_array_equal(venv.obs[i], seen["observation"])
            np.testing.assert_array_equal(venv.masks[i], seen["action_mask"])
            actions[i] = rng.choice(np.flatnonzero(seen["action_mask"]))
        _, _, rewards, terminated, truncated, to_move = venv.step(actions)
        for i, env in enumerate(singles):
            env.step(int(actions[i]))
            ended = any(env.terminations.values()) or any(env.truncations.values())
            assert bool(terminated[i] or truncated[i]) == ended
            if ended:
                episodes += 1
                expected = [env.rewards[a] for a in env.possible_agents]
                np.testing.assert_allclose(rewards[i], expected)
                seeds[i] += n
                env.reset(seed=seeds[i])
            else:
                assert not rewards[i].any()
    assert episodes > 0 or obs_key == "jungle"


def test_illegal_actions_are_refused_without_stepping():
    venv = JungleVectorEnv(4, seed=0)
    before = venv.obs.copy()
    actions = np.array([np.flatnonzero(m)[0] for m in venv.masks])
    actions[3] = 251  # g9 leftwards in the mover's view: no piece of the mover stands there
    with pytest.raises(ValueError, match="game 3"):
        venv.step(actions)
    np.testing.assert_array_equal(venv.obs, before)


def test_caller_owned_buffers_are_filled():
    venv = FlightVectorEnv(16, players=2, seed=3)
    obs = np.zeros_like(venv.obs)
    masks = np.zeros_like(venv.masks)
    rewards = np.zeros_like(venv.rewards)
    terminated = np.zeros_like(venv.terminated)
    truncated = np.zeros_like(venv.truncated)
    to_move = np.zeros_like(venv.to_move)
    actions = np.array([np.flatnonzero(m)[0] for m in venv.masks])
    venv.step_into(actions, obs, masks, rewards, terminated, truncated, to_move)
    assert obs.any() and masks.any(axis=1).all()
