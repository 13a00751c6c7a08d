//! The placeholders of an `IN (…)` list, written the same on SQLite and PostgreSQL.

/// `$first, $first+1, …`: `count` numbered placeholders, for the values of an `IN (…)` list
/// bound after `first - 1` others. A few texts (one per length) are prepared and cached.
pub(super) fn placeholders(first: usize, count: usize) -> String {
    (first..first + count)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::placeholders;

    #[test]
    fn placeholders_are_numbered_from_the_first() {
        assert_eq!(placeholders(1, 3), "$1, $2, $3");
        assert_eq!(placeholders(3, 2), "$3, $4");
        assert_eq!(placeholders(2, 0), "");
    }
}
