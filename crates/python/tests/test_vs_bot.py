"""`hangar_env.vs_bot`: one seat against the hall's bots as a Gymnasium env."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import hangar_env
from hangar_env import vs_bot

CASES = [
    ("jungle", dict()),
    ("flight", dict(players=2)),
    ("flight", dict(players=4, items=True)),
]


@pytest.mark.filterwarnings("ignore:.*not having a spec")
@pytest.mark.parametrize(("game", "kwargs"), CASES)
def test_gymnasiums_env_checker_passes(game, kwargs):
    env = vs_bot(game, "random", **kwargs)
    assert isinstance(env, hangar_env.VsBot)
    check_env(env, skip_render_check=True)
    check_env(vs_bot(game, "random", render_mode="ansi", **kwargs))


def play(env, seed, rng):
    """One episode with random legal actions; (actions, observations, rewards, last step)."""
    obs, info = env.reset(seed=seed)
    actions, seen, rewards = [], [obs], []
    while True:
        mask = info["action_mask"]
        assert mask.any() and (mask == env.action_masks()).all()
        assert env.observation_space.contains(obs)
        action = int(rng.choice(np.flatnonzero(mask)))
        obs, reward, terminated, truncated, info = env.step(action)
        actions.append(action)
        seen.append(obs)
        rewards.append(reward)
        if terminated or truncated:
            assert not info["action_mask"].any()
            return actions, seen, rewards, (terminated, truncated)


@pytest.mark.parametrize(("game", "kwargs", "results"), [
    ("jungle", dict(), [-1.0, 0.0, 1.0]),
    ("flight", dict(players=4), [-1.0, -1 / 3, 1 / 3, 1.0]),
])
def test_random_legal_episodes_end_with_the_seats_result(game, kwargs, results):
    rng = np.random.default_rng(0)
    for seat in range(2):
        env = vs_bot(game, "random", seat=seat, **kwargs)
        for seed in range(4):
            actions, seen, rewards, (terminated, truncated) = play(env, seed, rng)
            assert all(r == 0 for r in rewards[:-1])
            assert any(rewards[-1] == pytest.approx(r) for r in results), rewards[-1]
            # J-DRAW only truncates, with 0; flight always ends by its rules.
            assert truncated == (rewards[-1] == 0.0 and game == "jungle")
            assert terminated != truncated
            with pytest.raises(RuntimeError):
                env.step(actions[-1])
            # The same seed and the same actions replay the same episode.
            obs, _ = env.reset(seed=seed)
            assert (obs == seen[0]).all()
            for k, action in enumerate(actions):
                obs, reward, *_ = env.step(action)
                assert (obs == seen[k + 1]).all() and reward == rewards[k]


def test_the_chosen_level_plays_the_other_seat():
    # Greedy captures whatever it can: against random moves it wins nearly every game, the
    # random bot about half of them (docs/benchmarks.md); 10 games each.
    rng = np.random.default_rng(1)
    lost = {}
    for level in ("greedy", "random"):
        env = vs_bot("jungle", level, seat=1)
        lost[level] = sum(play(env, seed, rng)[2][-1] == -1.0 for seed in range(10))
    assert lost["greedy"] >= 8 and lost["random"] <= 8, lost


def test_illegal_actions_lose_or_raise():
    env = vs_bot("jungle", "random")
    obs, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    strict = vs_bot("jungle", "random", illegal="raise")
    _, info = strict.reset(seed=3)
    with pytest.raises(ValueError):
        strict.step(illegal)
    with pytest.raises(ValueError):
        vs_bot("jungle", "grandmaster")
    with pytest.raises(ValueError):
        vs_bot("flight", "random", seat=2, players=2)
