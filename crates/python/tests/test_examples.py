"""The examples in examples/python run as documented (small settings) and print their tables."""

import pathlib
import subprocess
import sys

EXAMPLES = pathlib.Path(__file__).resolve().parents[3] / "examples" / "python"


def run(script, *args):
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_random_agent_plays_both_games():
    out = run("random_agent.py", "--games", "2")
    assert out.startswith("flight: wins by seat over 2 games")
    assert "jungle: wins by seat over 2 games" in out


def test_the_match_against_the_bots_prints_a_line_per_level():
    out = run("versus_bots.py", "--game", "jungle", "--games", "4").splitlines()
    assert out[0].split() == ["level", "score", "elo"]
    assert [line.split()[0] for line in out[1:]] == ["random", "greedy", "easy", "normal"]
    # Random play cannot hold the searching bot (`easy` looks ahead): at most a draw in four.
    assert int(out[3].split()[1].rstrip("%")) <= 25, out


def score(line):
    """The score fraction of a result line of train_jungle.py (`trained 98.9% over ...`)."""
    return float(line.split()[1].rstrip("%")) / 100


def test_self_play_training_beats_the_random_agent():
    games = 400
    out = run("train_jungle.py", "--plies", "300000", "--eval-games", str(games)).splitlines()
    assert out[0].startswith("untrained") and out[1].startswith("trained"), out
    untrained, trained = score(out[0]), score(out[1])
    # One standard error of a score over 400 games is at most 2.5 points. The untrained agent
    # is the random agent: it scores about half (within 4 standard errors)...
    assert abs(untrained - 0.5) <= 0.10, out
    # ...and training must add far more than chance could: at least 6 standard errors over
    # even, and 15 points over its untrained self in the same 400 pairings.
    assert trained >= 0.65, out
    assert trained - untrained >= 0.15, out
