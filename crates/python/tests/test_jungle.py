"""The Jungle env follows the engine: masks, perft, rewards, J-DRAW truncation, options."""

import numpy as np
import pytest

from hangar_env import jungle_perft, jungle_v0
from engine_cli import jungle_action, rules
from helpers import play_random


def perft(core, depth):
    """Counts move sequences through the Python API alone (mask → step on copies)."""
    if depth == 0:
        return 1
    actions = np.flatnonzero(core.mask())
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        child = core.copy()
        child.step(int(action))
        total += perft(child, depth - 1)
    return total


def test_j_step_perft_through_the_python_api_equals_the_engines():
    env = jungle_v0.raw_env()
    env.reset(seed=0)
    start = env._core.position()
    assert jungle_perft(start, 2) == 576
    assert perft(env._core, 4) == jungle_perft(start, 4)


def test_j_step_j_leap_j_repeat_masks_equal_the_engines_legal_moves_on_random_positions():
    # J-STEP, J-LEAP, J-REPEAT: at every ply of 3 random games (leaps on) the mask holds exactly the
    # moves `hangar rules jungle` allows after the same history, as actions by the formula of
    # docs/python.md; each game is played with moves the command line lists.
    options = {"leopard-leaps": True}
    env = jungle_v0.env(leopard_leaps=True)
    plies = 0
    for seed in range(3):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        history = []
        for agent in env.agent_iter(max_iter=150):
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            answer = rules("jungle", {"type": "legal_moves", "options": options, "moves": history})
            assert answer["type"] == "legal_moves" and answer["outcome"] is None, answer
            assert answer["turn"] == ("red" if agent == "player_0" else "yellow")
            allowed = {jungle_action(m, answer["turn"]): m for m in answer["moves"]}
            assert sorted(allowed) == list(np.flatnonzero(obs["action_mask"])), history
            move = answer["moves"][rng.integers(len(answer["moves"]))]
            history.append(move)
            env.step(jungle_action(move, answer["turn"]))
            plies += 1
    assert plies > 300


def test_j_setup_the_mover_sees_its_own_pieces_at_the_bottom():
    env = jungle_v0.raw_env()
    env.reset(seed=0)
    red = env.observe("player_0")["observation"]
    yellow = env.observe("player_1")["observation"]
    # J-SETUP is symmetric under half a turn: both sides see the same picture.
    assert (red == yellow).all()
    # Own tiger (channel 5) on a1 (rank 0, file 0) from either side.
    assert red[0, 0, 5] == 1 and red[8, 6, 8 + 5] == 1


def test_j_win_den_entering_the_den_wins():
    # J-WIN-DEN: red's rat steps into yellow's den: +1 for red, −1 for yellow.
    env = jungle_v0.raw_env(position="l6/3R3/7/7/7/7/7/7/L6 r")
    env.reset(seed=0)
    moves = dict(env.unwrapped.legal_moves())
    env.step(moves["d8d9"])
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}


def test_j_draw_two_hundred_quiet_plies_truncate_the_game():
    # J-DRAW: 100 moves of each side without a capture end the game as a draw: truncated, 0.
    env = jungle_v0.raw_env(position="7/7/7/7/7/7/7/7/E5e r")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0
            env.step(None)
            continue
        # Wander: never capture, never enter a den.
        board = env.unwrapped._core.board()
        quiet = [
            a for m, a in env.unwrapped.legal_moves()
            if m[2:] not in ("d1", "d9") and board[(int(m[3]) - 1) * 7 + "abcdefg".index(m[2])] == "."
        ]
        env.step(int(rng.choice(quiet)))
        steps += 1
    assert steps == 200


def test_j_rat_elephant_the_option_changes_the_rules():
    # J-RAT-ELEPHANT: the elephant takes the rat only with the option.
    position = "7/7/7/7/7/7/7/7/Er5 r"
    plain = jungle_v0.raw_env(position=position)
    plain.reset(seed=0)
    assert "a1b1" not in dict(plain.unwrapped.legal_moves())
    option = jungle_v0.raw_env(position=position, elephant_takes_rat=True)
    option.reset(seed=0)
    assert "a1b1" in dict(option.unwrapped.legal_moves())


def test_random_games_end_with_opposite_rewards_or_a_draw():
    for seed in range(3):
        final, _ = play_random(jungle_v0.env(), seed=seed)
        assert final["player_0"] == -final["player_1"]
