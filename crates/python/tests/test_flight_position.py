"""`position=`: a flight env (AEC and vector) started from a position of `hangar rules flight`
plays on from there as the command line says it does."""

import json

import numpy as np
import pytest

from engine_cli import rules, rules_many
from hangar_env import FlightVectorEnv, flight_v0
from test_flight import engine_mask

SAMPLE_SETS = [
    dict(players=4),
    dict(players=2, preset="improved", three_sixes="moved-to-hangar"),
    dict(players=3, planes=3, finish="circle", stacks="pass"),
    dict(players=4, items=True, weather=True, preset="improved"),
]


def sample_positions(options, seed, count):
    """`count` positions met in a random game with explicit chance: before rolls and draws,
    and where an agent chooses."""
    env = flight_v0.raw_env(explicit_chance=True, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = []
    while not env._core.terminated():
        if rng.random() < 0.1:
            seen.append(json.loads(env.position()))
        if env.is_chance_node():
            outcomes = env.chance_outcomes()
            env.apply_chance(outcomes[rng.integers(len(outcomes))][0])
        else:
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
    return [seen[i] for i in np.linspace(0, len(seen) - 1, count).astype(int)]


def positions():
    found = []
    for k, options in enumerate(SAMPLE_SETS):
        found += sample_positions(options, seed=20 + k, count=6)
    return found


def mover_view(position):
    """The agent to move in an env made from `position`: seated colours in seat order."""
    colours = [c for c in ("red", "yellow", "blue", "green") if c in {p["colour"] for p in position["players"]}]
    return colours.index(position["turn"])


def test_positions_play_on_as_hangar_rules_flight_says():
    # For sampled positions of several rule sets (items and weather, the centre loop, three
    # sixes): the env from the position is at that position; its mask is the command line's;
    # every chance outcome (die 1–6, or a few draws) leads where `play` leads.
    checked = {"move": 0, "roll": 0, "draw": 0, "item": 0}
    for position in positions():
        env = flight_v0.env(position=position, explicit_chance=True)
        env.reset(seed=0)
        assert json.loads(env.unwrapped.position()) == position
        assert env.agent_selection == f"player_{mover_view(position)}"
        draw = position.get("draw")
        if draw is None and position.get("roll") is None and not env.unwrapped.is_chance_node():
            # Items: the player chooses to roll or use an item first.
            mask = list(env.observe(env.agent_selection)["action_mask"])
            assert mask == engine_mask(position, None)
            checked["item"] += 1
            env.step(4)
        if position.get("roll") is not None:
            answer = rules("flight", {"request": "moves", "position": position})
            assert list(env.observe(env.agent_selection)["action_mask"]) == engine_mask(position, answer)
            checked["move"] += 1
            continue
        assert env.unwrapped.is_chance_node()
        outcomes = [v for v, _ in env.unwrapped.chance_outcomes()]
        if draw is None:
            assert outcomes == [1, 2, 3, 4, 5, 6]
            actions = [{"type": "roll", "value": v} for v in outcomes]
        else:
            picks = [outcomes[i] for i in np.linspace(0, len(outcomes) - 1, 4).astype(int)]
            actions = [{"type": "draw", "index": v} for v in picks]
        mid = env.unwrapped.position()
        answers = rules_many(
            "flight", [{"request": "play", "position": json.loads(mid), "action": a} for a in actions]
        )
        for action, answer in zip(actions, answers):
            assert answer["ok"], answer
            after = flight_v0.env(position=mid, explicit_chance=True)
            after.reset(seed=0)
            if not after.unwrapped.is_chance_node():
                after.step(4)  # roll without an item, as above
            after.unwrapped.apply_chance(action.get("value", action.get("index")))
            assert json.loads(after.unwrapped.position()) == answer["position"], action
            if answer["phase"]["type"] == "move":
                planes = sorted({m["plane"] for m in answer["legal_moves"]})
                mask = after.observe(after.agent_selection)["action_mask"]
                assert list(np.flatnonzero(mask)) == planes
            checked["draw" if draw else "roll"] += 1
    assert min(checked.values()) > 0, checked


LOOP = {
    "options": {"finish": "circle", "planes": 2},
    "players": [
        {"colour": "yellow", "planes": [58, -1], "captures": 2},
        {"colour": "green", "planes": [0, 53]},
    ],
    "turn": "green",
    "roll": 4,
}


def test_the_observation_reads_the_position():
    # docs/python.md: seats relative to the viewer, 57–60 the centre loop, empty seats −1.
    env = flight_v0.raw_env(position=json.dumps(LOOP))
    env.reset(seed=0)
    assert env.possible_agents == ["player_0", "player_1"]
    assert env.colours() == {"player_0": "yellow", "player_1": "green"}
    assert env.agent_selection == "player_1"
    green = env.observe("player_1")["observation"]
    assert list(green[0:4]) == [0, 53, 56, 56]  # own planes; slots past `planes` read 56
    assert list(green[4:8]) == [-1] * 4  # red's empty seat, clockwise after green
    assert list(green[8:12]) == [58, -1, 56, 56]  # yellow, opposite
    assert list(green[16:20]) == [1, 0, 1, 0] and list(green[24:28]) == [1, 0, 0, 0]
    assert list(green[28:34]) == [0, 0, 0, 1, 0, 0]  # the pending 4
    assert list(green[36:40]) == [0, 0, 2, 0]
    answer = rules("flight", {"request": "moves", "position": LOOP})
    assert list(np.flatnonzero(env.observe("player_1")["action_mask"])) == [m["plane"] for m in answer["moves"]]


def test_the_vector_env_starts_every_game_from_the_position():
    position = next(p for p in sample_positions(SAMPLE_SETS[0], seed=3, count=12) if p.get("roll"))
    venv = FlightVectorEnv(6, position=position, seed=40, num_threads=1)
    assert venv.players == 4
    answer = rules("flight", {"request": "moves", "position": position})
    for i in range(6):
        single = flight_v0.raw_env(position=position)
        single.reset(seed=40 + i)
        seen = single.observe(single.agent_selection)
        assert (venv.obs[i] == seen["observation"]).all()
        assert list(venv.masks[i]) == engine_mask(position, answer)
        assert venv.to_move[i] == mover_view(position)
    # Games that end start again from the position.
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(3000):
        actions = np.argmax(venv.masks * rng.random(venv.masks.shape), axis=1)
        venv.step(actions)
        for i in np.flatnonzero(venv.terminated):
            ended += 1
            assert list(venv.masks[i]) == engine_mask(position, answer)
    assert ended > 0


def test_bad_positions_and_conflicting_arguments_are_refused():
    with pytest.raises(ValueError, match="position"):
        flight_v0.raw_env(position='{"players": []}')
    with pytest.raises(ValueError, match="options"):
        flight_v0.raw_env(position=LOOP, preset="improved")
    with pytest.raises(ValueError, match="options"):
        FlightVectorEnv(2, position=LOOP, items=True)
    with pytest.raises(ValueError, match="players"):
        flight_v0.raw_env(position=LOOP, players=4)
    over = dict(LOOP, players=[{"colour": "yellow", "planes": [56, 56]}, {"colour": "green", "planes": [0, 53]}])
    over.pop("roll")
    with pytest.raises(ValueError, match="over"):
        flight_v0.raw_env(position=over)
    env = flight_v0.raw_env(position=LOOP)
    env.reset(seed=1)
    with pytest.raises(ValueError, match="record"):
        env.record()
