//! What every environment core offers to the single and the vector envs.

/// Why an action was refused: the state is unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    /// The game is over: reset it first.
    #[error("the game is over")]
    Over,
    /// The action is not allowed by the current action mask.
    #[error("action {0} is not legal here (see the action mask)")]
    Illegal(usize),
    /// A chance outcome is awaited (explicit chance mode), not an agent's action.
    #[error("a chance outcome is awaited: call apply_chance")]
    ChanceExpected,
    /// No chance outcome is awaited, or the outcome is out of range.
    #[error("chance outcome {0} is not possible here")]
    BadChance(u32),
}

/// One game as an environment: fixed-size observation and mask, per-agent rewards.
pub trait Env: Send + Sync {
    /// The observation's element type (f32 for flight, u8 for Jungle's planes).
    type Obs: Copy + Default + Send + Sync;
    /// Elements of one observation.
    const OBS_LEN: usize;
    /// Number of actions (the length of the mask).
    const ACTIONS: usize;

    /// Number of agents of this game.
    fn agents(&self) -> usize;
    /// Starts a new game from `seed` (the same seed gives the same game).
    fn reset(&mut self, seed: u64);
    /// The seed of the current game.
    fn seed(&self) -> u64;
    /// The agent to move (the last mover once the game is over).
    fn to_move(&self) -> usize;
    /// Whether the game ended by its rules.
    fn terminated(&self) -> bool;
    /// Whether the game was cut short (Jungle's 200 plies without a capture).
    fn truncated(&self) -> bool;
    /// Whether `action` is allowed now.
    fn is_legal(&self, action: usize) -> bool;
    /// Plays `action` for the agent to move.
    fn step(&mut self, action: usize) -> Result<(), StepError>;
    /// Writes the observation from `agent`'s point of view into `out` (`OBS_LEN` elements).
    fn observe(&self, agent: usize, out: &mut [Self::Obs]);
    /// Writes the action mask of the agent to move (1 = allowed) into `out` (`ACTIONS`).
    fn mask(&self, out: &mut [u8]);
    /// Writes each agent's reward for the finished game (0 while it goes on) into `out`.
    fn rewards(&self, out: &mut [f32]);
}
