"""Random play through the AEC API, for the tests."""

import numpy as np


def play_random(env, seed, max_steps=100_000):
    """Plays one game with masked random actions; returns the final rewards by agent and the
    actions taken."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions, final = [], {}
    for step, agent in enumerate(env.agent_iter()):
        obs, reward, terminated, truncated, _ = env.last()
        final[agent] = reward
        if terminated or truncated:
            env.step(None)
            continue
        assert step < max_steps
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(action)
        env.step(action)
    return final, actions
