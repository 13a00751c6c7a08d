//! The hall's folders import each other one way: no circle of imports between files passes
//! through two folders of `crates/hall/src` (docs/architecture.md, "The hall"). Rooms see the
//! hall through `RoomHost`, remote rooms through `RemoteRooms`, the cluster through `Peers`;
//! this test reads the sources and fails on any import that would close a circle again.
#![allow(clippy::unwrap_used)] // tests fail loudly

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, as its path relative to `root`.
fn sources(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.strip_prefix(root).unwrap().to_owned());
        }
    }
}

/// The module path of a file: `room/mod.rs` → `["room"]`, `room/act.rs` → `["room", "act"]`.
fn module_of(file: &Path) -> Vec<String> {
    let mut parts: Vec<String> = file
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The module paths a file names: `crate::a::b`, `super::a`, and the items of `crate::{a, b}`
/// and `super::{a, b}` lists. The file's own tests are left out (a test module may import
/// anything).
fn named_paths(text: &str, module: &[String], is_mod: bool) -> Vec<Vec<String>> {
    let code = text.split("#[cfg(test)]").next().unwrap_or(text);
    let code: String = code
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let parent: Vec<String> = if is_mod {
        module[..module.len().saturating_sub(1)].to_vec()
    } else {
        module[..module.len() - 1].to_vec()
    };
    let mut paths = Vec::new();
    for (head, base) in [("crate::", Vec::new()), ("super::", parent)] {
        for (at, _) in code.match_indices(head) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let rest = &code[at + head.len()..];
            if let Some(list) = rest.strip_prefix('{') {
                let list = &list[..list.find('}').unwrap_or(list.len())];
                for item in list.split(',') {
                    let mut path = base.clone();
                    path.extend(segments(item));
                    paths.push(path);
                }
            } else {
                let mut path = base.clone();
                path.extend(segments(rest));
                paths.push(path);
            }
        }
    }
    paths
}

/// The leading `a::b::c` of a path text.
fn segments(text: &str) -> Vec<String> {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(text.len());
    text.trim()[..end.min(text.trim().len())]
        .split("::")
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
fn no_circle_of_imports_passes_through_two_folders_of_the_hall() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &root, &mut files);
    let modules: BTreeMap<Vec<String>, PathBuf> =
        files.iter().map(|f| (module_of(f), f.clone())).collect();
    let mut edges: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for file in &files {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let is_mod = file
            .file_name()
            .is_some_and(|n| n == "mod.rs" || n == "lib.rs");
        let module = module_of(file);
        let targets = edges.entry(file.clone()).or_default();
        for path in named_paths(&text, &module, is_mod) {
            // The longest prefix of the path that is a file's module.
            let target = (0..=path.len()).rev().find_map(|n| modules.get(&path[..n]));
            if let Some(target) = target.filter(|t| *t != file) {
                targets.insert(target.clone());
            }
        }
    }
    assert!(
        edges.values().map(BTreeSet::len).sum::<usize>() > 100,
        "the imports were read"
    );
    let folder = |f: &Path| f.parent().map(Path::to_owned).unwrap_or_default();
    // Two files are in one circle when each reaches the other.
    let reach = |from: &PathBuf| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(f) = stack.pop() {
            for t in &edges[&f] {
                if seen.insert(t.clone()) {
                    stack.push(t.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&PathBuf, BTreeSet<PathBuf>> =
        files.iter().map(|f| (f, reach(f))).collect();
    let mut knots = Vec::new();
    for a in &files {
        for b in &reached[a] {
            if folder(a) != folder(b) && reached[b].contains(a) && a < b {
                knots.push(format!("{} <-> {}", a.display(), b.display()));
            }
        }
    }
    assert!(
        knots.is_empty(),
        "files of different folders in one circle of imports:\n{}",
        knots.join("\n")
    );
}
