#!/usr/bin/env python3
"""A Hangar engine that plays a uniformly random legal action, in both games.

The line format is docs/engine.md: one JSON object per line on standard input (the game,
the position, the seat, the numbered legal actions, the time), one answer per line on
standard output. Run it with

    hangar match --engine "python3 examples/engines/random.py" --against random --game jungle
    hangar bot --hall ws://127.0.0.1:8080/ws --token-file TOKEN_FILE --engine "python3 examples/engines/random.py"
"""
import json
import random
import sys


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        question = json.loads(line)
        action = random.choice(question["actions"])
        # Echoing "ask" lets the driver tell this answer from a late one.
        answer = {"action": action["id"], "ask": question["ask"]}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
