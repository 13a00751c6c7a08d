"""A random agent in both games through PettingZoo's AEC loop: the smallest complete use of
`hangar_env`. Run: python random_agent.py [--games N]"""

import argparse

import numpy as np

from hangar_env import flight_v0, jungle_v0


def play(env, seed, rng):
    """One game with masked random actions; the final reward of each agent."""
    env.reset(seed=seed)
    final = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        final[agent] = reward
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return final


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    for name, env in [("flight", flight_v0.env(players=4)), ("jungle", jungle_v0.env())]:
        wins = dict.fromkeys(env.possible_agents, 0)
        for seed in range(args.games):
            final = play(env, seed, rng)
            for agent, reward in final.items():
                wins[agent] += reward == 1.0
        print(f"{name}: wins by seat over {args.games} games: {wins}")


if __name__ == "__main__":
    main()
