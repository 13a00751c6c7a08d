//! Every rule id the documents cite (`F-…`, `J-…`, `P-…`, as in `shared/spec/*.md`) is named
//! by a test: a Rust test function whose name holds the id in snake case (`F-D-COLLISION` →
//! `…f_d_collision…`, between underscores or at either end). Python tests that check a rule
//! name it the same way; they are listed apart, for the message.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The files under `dir` whose names end with `suffix`, recursively.
fn files(dir: &Path, suffix: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, suffix, out);
        } else if path.to_string_lossy().ends_with(suffix) {
            out.push(path);
        }
    }
}

/// The rule ids in `text`: a capital F, J or P, a dash, then two or more capitals, digits and
/// dashes, ending on a capital or digit, with no letter, digit or underscore on either side.
fn rule_ids(text: &str) -> BTreeSet<String> {
    let bytes = text.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'-' || b == b'_';
    let mut ids = BTreeSet::new();
    for i in 0..bytes.len().saturating_sub(2) {
        if !matches!(bytes[i], b'F' | b'J' | b'P') || bytes[i + 1] != b'-' {
            continue;
        }
        if i > 0 && word(bytes[i - 1]) {
            continue;
        }
        let mut end = i + 2;
        while end < bytes.len()
            && (bytes[end].is_ascii_uppercase()
                || bytes[end].is_ascii_digit()
                || bytes[end] == b'-')
        {
            end += 1;
        }
        while end > i + 2 && bytes[end - 1] == b'-' {
            end -= 1;
        }
        let next = bytes.get(end).copied().unwrap_or(b' ');
        if end < i + 4 || next.is_ascii_alphanumeric() || next == b'_' {
            continue;
        }
        ids.insert(text[i..end].to_string());
    }
    ids
}

/// The names of the test functions in Rust source `text`: a `fn` after `#[test]` or
/// `#[tokio::test…]` (other attributes and doc comments may stand between).
fn rust_test_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut pending = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with("#[test]") || line.starts_with("#[tokio::test") {
            pending = true;
            continue;
        }
        if !pending {
            continue;
        }
        if let Some(at) = line.find("fn ") {
            let name: String = line[at + 3..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            names.push(name);
            pending = false;
        } else if !(line.starts_with("#[") || line.starts_with("//") || line.is_empty()) {
            pending = false;
        }
    }
    names
}

/// Whether the test name `name` names rule `id`.
fn names(name: &str, id: &str) -> bool {
    let snake = id.to_lowercase().replace('-', "_");
    name.match_indices(&snake).any(|(at, _)| {
        let end = at + snake.len();
        (at == 0 || name.as_bytes()[at - 1] == b'_')
            && (end == name.len() || name.as_bytes()[end] == b'_')
    })
}

#[test]
fn every_rule_id_of_the_documents_is_named_by_a_rust_test() {
    let root = root();
    let mut docs = Vec::new();
    files(&root.join("docs"), ".md", &mut docs);
    let mut ids = BTreeSet::new();
    for doc in &docs {
        ids.extend(rule_ids(&fs::read_to_string(doc).unwrap()));
    }
    // The rules documents hold the game rules; the platform ids are cited across the others.
    assert!(
        ids.len() >= 80 && ids.contains("F-CAPTURE-BONUS") && ids.contains("P-PROFILE"),
        "{ids:?}"
    );

    let mut sources = Vec::new();
    files(&root.join("crates"), ".rs", &mut sources);
    let rust: Vec<String> = sources
        .iter()
        .flat_map(|path| rust_test_names(&fs::read_to_string(path).unwrap()))
        .collect();
    assert!(rust.len() > 500, "{} Rust tests found", rust.len());

    let mut pytests = Vec::new();
    files(&root.join("crates/python/tests"), ".py", &mut pytests);
    let python: Vec<String> = pytests
        .iter()
        .flat_map(|path| {
            fs::read_to_string(path)
                .unwrap()
                .lines()
                .filter_map(|l| l.strip_prefix("def test_").map(str::to_string))
                .collect::<Vec<_>>()
        })
        .collect();

    let missing: Vec<&String> = ids
        .iter()
        .filter(|id| !rust.iter().any(|name| names(name, id)))
        .collect();
    assert!(
        missing.is_empty(),
        "rule ids named by no Rust test: {missing:?} (Python tests naming them: {:?})",
        missing
            .iter()
            .map(|id| python.iter().filter(|n| names(n, id)).collect::<Vec<_>>())
            .collect::<Vec<_>>()
    );
    // Python tests that check a rule name it too.
    for id in ["F-RANK", "F-ROLL", "J-WIN-DEN", "J-DRAW"] {
        assert!(
            python.iter().any(|n| names(n, id)),
            "no Python test names {id}"
        );
    }
}

#[test]
fn rule_ids_and_names_are_read_as_tokens() {
    assert_eq!(
        rule_ids("F-RANK: x; (F-D-RANK), P-ABORT-, XF-ROLL, F-ROLLs F-2")
            .into_iter()
            .collect::<Vec<_>>(),
        ["F-D-RANK", "F-RANK", "P-ABORT"]
    );
    assert!(names("f_rank_by_finished_planes", "F-RANK"));
    assert!(names("p_rematch_p_rating_and_p_profile", "P-PROFILE"));
    assert!(!names("f_d_rank_ties_share", "F-RANK"));
    assert!(!names("f_ranking", "F-RANK"));
    assert_eq!(
        rust_test_names(
            "#[test]\n/// doc\n#[ignore]\nfn a_b() {}\nfn helper() {}\n#[tokio::test(flavor = \"x\")]\nasync fn c() {}"
        ),
        ["a_b", "c"]
    );
}
