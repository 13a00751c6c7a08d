//! This node as the store knows it in cluster mode: its name and its range of journal
//! sequence numbers.

/// Journal sequence numbers each node registration may use (2^40: a trillion actions).
pub const SEQ_RANGE: i64 = 1 << 40;

/// This node as the store knows it in cluster mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeScope {
    /// The node's name, unique for each start of a process.
    pub node: String,
    /// The first journal sequence number of the node's range.
    pub seq_base: i64,
}

impl NodeScope {
    /// Whether a journal sequence number is in this node's range.
    pub(super) fn range(&self) -> (i64, i64) {
        (self.seq_base, self.seq_base + SEQ_RANGE)
    }
}
