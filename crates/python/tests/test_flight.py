"""The flight env follows the engine: options, rewards by rank, masks, dice from the seed."""

import json

import numpy as np
import pytest

from hangar_env import flight_replay, flight_v0
from engine_cli import rules_many
from helpers import play_random


def test_f_rank_rewards_follow_the_ranks_and_sum_to_zero():
    # F-RANK: first +1, last −1, evenly between; play-on ranks all four.
    env = flight_v0.raw_env(players=4, play_on=True)
    final, _ = play_random(env, seed=5)
    assert sorted(final.values()) == pytest.approx([-1, -1 / 3, 1 / 3, 1])


def test_f_team_partners_share_their_reward():
    # F-TEAM: partners sit opposite and share the result.
    env = flight_v0.raw_env(players=4, teams=True)
    env.reset(seed=2)
    colours = env.colours()
    final, _ = play_random(env, seed=2)
    by_colour = {colours[a]: r for a, r in final.items()}
    assert by_colour["red"] == by_colour["blue"] == -by_colour["yellow"] == -by_colour["green"]
    assert abs(by_colour["red"]) == 1


def test_f_planes_two_planes_option_leaves_two_planes():
    # F-PLANES: slots past `planes` read as finished (56) for every seat.
    env = flight_v0.raw_env(players=2, planes=2)
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)["observation"]
    assert list(obs[2:4]) == [56, 56] and list(obs[:2]) != [56, 56]
    assert not env.observe(env.agent_selection)["action_mask"][2:4].any()


def test_f_takeoff_needs_a_six_traditionally_and_a_five_under_improved():
    # F-TAKEOFF: with every plane in the hangar, a pending 5 offers a move only under improved.
    for preset, five_moves in [("traditional", False), ("improved", True)]:
        seen_five = False
        for seed in range(200):
            env = flight_v0.raw_env(players=2, preset=preset, explicit_chance=True)
            env.reset(seed=seed)
            env.apply_chance(5)
            mask = env.observe(env.agent_selection)["action_mask"]
            seen_five = seen_five or bool(mask[:4].any())
            if seen_five:
                break
        assert seen_five == five_moves


def test_f_players_and_f_team_bad_player_counts_and_unknown_options_are_refused():
    with pytest.raises(TypeError):
        flight_v0.raw_env(players=4, lasers=True)
    with pytest.raises(ValueError):
        flight_v0.raw_env(players=3, teams=True)
    with pytest.raises(ValueError):
        flight_v0.raw_env(players=4, stacks="sideways")


def engine_mask(position, answer):
    """The action mask `hangar rules flight` implies for a position: the planes of its `moves`
    answer while a move is awaited; before a roll, with items (F-ITEM-USE), roll or use an
    item of the bar of the player on turn."""
    mask = [0] * 7
    if position.get("roll") is not None:
        for m in answer["moves"]:
            mask[m["plane"]] = 1
    else:
        bar = next(p.get("items", []) for p in position["players"] if p["colour"] == position["turn"])
        mask[4], mask[5], mask[6] = 1, int("six_die" in bar), int("booster" in bar)
    return mask


def test_f_choice_f_d_same_f_item_use_masks_equal_the_engines_legal_moves():
    # F-CHOICE, F-D-SAME, F-ITEM-USE: at every decision of 3 random 4-player games with items
    # and weather, the mask is what `hangar rules flight` says for the env's position.
    env = flight_v0.env(players=4, preset="improved", items=True, weather=True)
    positions, masks = [], []
    for seed in range(3):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter(max_iter=600):
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            position = json.loads(env.unwrapped.position())
            assert env.unwrapped.colours()[agent] == position["turn"]
            positions.append(position)
            masks.append(list(obs["action_mask"]))
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    awaiting_move = [p for p in positions if p.get("roll") is not None]
    answers = iter(rules_many("flight", [{"request": "moves", "position": p} for p in awaiting_move]))
    item_choices = 0
    for position, mask in zip(positions, masks):
        answer = next(answers) if position.get("roll") is not None else None
        if answer is not None:
            assert answer["ok"], answer
        item_choices += answer is None
        assert mask == engine_mask(position, answer), position
    assert len(positions) > 300 and item_choices > 5


REPLAY_SETS = [
    dict(players=4),
    dict(players=2, preset="improved"),
    dict(players=3, planes=2, finish="circle", stacks="pass", three_sixes="moved-to-hangar"),
    dict(players=4, teams=True, play_on=True),
    dict(players=4, items=True, weather=True, preset="improved"),
]


@pytest.mark.parametrize("options", REPLAY_SETS)
def test_p_record_games_replay_from_the_seed_as_the_engine_records_them(options):
    # P-RECORD: the env's dice are the Table's; the record replays to the same position, for
    # 6 random games of each rule set.
    env = flight_v0.raw_env(**options)
    for seed in range(6):
        play_random(env, seed=seed)
        assert env._core.terminated()
        assert json.loads(flight_replay(env.record())) == json.loads(env.position())


def test_f_roll_explicit_chance_nodes_offer_the_die():
    # F-ROLL as a chance node: six outcomes of 1/6; agents cannot act before the roll.
    env = flight_v0.raw_env(players=2, explicit_chance=True)
    env.reset(seed=4)
    assert env.is_chance_node()
    assert env.chance_outcomes() == [(v, pytest.approx(1 / 6)) for v in range(1, 7)]
    assert not env.observe(env.agent_selection)["action_mask"].any()
    with pytest.raises(ValueError):
        env.step(0)
    mover = env.agent_selection
    env.apply_chance(6)
    # F-TAKEOFF: a 6 takes a plane off; the planes are alike in the hangar (F-D-SAME).
    assert env.agent_selection == mover and not env.is_chance_node()
    assert list(env.observe(mover)["action_mask"]) == [1, 0, 0, 0, 0, 0, 0]


def test_chance_outcomes_drive_the_game_to_its_end():
    env = flight_v0.raw_env(players=3, items=True, weather=True, explicit_chance=True)
    env.reset(seed=9)
    rng = np.random.default_rng(9)
    for _ in range(100_000):
        if all(env.terminations.values()):
            break
        if env.is_chance_node():
            outcomes = env.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            env.apply_chance(outcomes[rng.integers(len(outcomes))][0])
        else:
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
    assert all(env.terminations.values())
    assert sorted(env.rewards.values())[-1] == 1
