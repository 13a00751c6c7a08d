#!/usr/bin/env python3
"""LUDOpy (the Python Ludo engine, `pip install ludopy`) with random players: turns per second.

A turn is one observation/answer pair, i.e. one die roll, as in the Rust benchmark.
Usage: python3 crates/flight/benches/ludopy_random.py [GAMES]
"""
import sys
import time

import ludopy
import numpy as np


def play_one(rng):
    game = ludopy.Game()
    turns = 0
    there_is_a_winner = False
    while not there_is_a_winner:
        (dice, move_pieces, player_pieces, enemy_pieces, player_is_a_winner,
         there_is_a_winner), player_i = game.get_observation()
        if len(move_pieces):
            piece = move_pieces[rng.integers(0, len(move_pieces))]
        else:
            piece = -1
        _, _, _, _, _, there_is_a_winner = game.answer_observation(piece)
        turns += 1
    return turns


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    np.random.seed(1)
    rng = np.random.default_rng(1)
    start = time.perf_counter()
    cpu_start = time.process_time()
    turns = sum(play_one(rng) for _ in range(games))
    secs = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    print(f"ludopy: {games} games, {turns} turns in {secs:.3f} s: "
          f"{turns / secs:,.0f} turns/s, {turns / games:.0f} turns/game; "
          f"CPU time {cpu:.3f} s: {turns / cpu:,.0f} turns per CPU-second")


if __name__ == "__main__":
    main()
