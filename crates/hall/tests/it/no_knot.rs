//! No circle of imports between the files of any crate of the workspace (docs/architecture.md,
//! "Crates and direction"): rooms see the hall through `RoomHost`, remote rooms through
//! `RemoteRooms`, the cluster through `Peers`, the store's writer through its vocabulary in
//! `store/write.rs`. This test reads the sources of every crate and fails on any import that
//! closes a circle.
//!
//! An import counts toward the file that defines what it names: `crate::arena::Runner`, when
//! `arena/mod.rs` only re-exports `run::Runner` (`pub use`), is an import of `arena/run.rs`.
//! A module naming its own children (`mod x; use x::Y;`) is how Rust builds a module tree and
//! counts as no import; a child naming its parent (`super::`) does.
#![allow(clippy::unwrap_used)] // tests fail loudly

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path in its crate: `room/act.rs` → `["room", "act"]`, `lib.rs` → `[]`.
type Module = Vec<String>;

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
fn module_of(file: &Path) -> Module {
    let mut parts: Vec<String> = file
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// A file's code without its tests (a test module may import anything) and without comments.
fn code_of(text: &str) -> String {
    let code = text.split("#[cfg(test)]").next().unwrap_or(text);
    code.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths of a use tree written at the start of `text`: `a::{b, c::{d, e as f}}` →
/// `[a, b]`, `[a, c, d]`, `[a, c, e]`, each with the name it is known by (`f` for `e as f`).
fn use_tree(text: &str) -> Vec<(Vec<String>, String)> {
    fn tree(text: &str, at: &mut usize, prefix: &[String], out: &mut Vec<(Vec<String>, String)>) {
        let bytes = text.as_bytes();
        let mut path = prefix.to_vec();
        loop {
            while *at < bytes.len() && bytes[*at].is_ascii_whitespace() {
                *at += 1;
            }
            if *at >= bytes.len() {
                return;
            }
            if bytes[*at] == b'{' {
                *at += 1;
                loop {
                    tree(text, at, &path, out);
                    while *at < bytes.len() && bytes[*at].is_ascii_whitespace() {
                        *at += 1;
                    }
                    match bytes.get(*at) {
                        Some(b',') => *at += 1,
                        Some(b'}') => {
                            *at += 1;
                            break;
                        }
                        _ => return,
                    }
                    while *at < bytes.len() && bytes[*at].is_ascii_whitespace() {
                        *at += 1;
                    }
                    if bytes.get(*at) == Some(&b'}') {
                        *at += 1;
                        break;
                    }
                }
                return;
            }
            let start = *at;
            while *at < bytes.len() && (bytes[*at].is_ascii_alphanumeric() || bytes[*at] == b'_') {
                *at += 1;
            }
            if start == *at {
                // `*` or the end of the tree.
                if path.len() > prefix.len() || !prefix.is_empty() {
                    out.push((path.clone(), String::new()));
                }
                if bytes.get(*at) == Some(&b'*') {
                    *at += 1;
                }
                return;
            }
            path.push(text[start..*at].to_owned());
            if text[*at..].starts_with("::") {
                *at += 2;
                continue;
            }
            let rest = text[*at..].trim_start();
            let name = match rest.strip_prefix("as ") {
                Some(alias) => {
                    let alias = alias.trim_start();
                    let end = alias
                        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .unwrap_or(alias.len());
                    *at = text.len() - alias.len() + end;
                    alias[..end].to_owned()
                }
                None => path.last().cloned().unwrap_or_default(),
            };
            out.push((path, name));
            return;
        }
    }
    let mut out = Vec::new();
    tree(text, &mut 0, &[], &mut out);
    out
}

/// The sources of one crate: module path → (file, code).
struct Crate {
    files: BTreeMap<Module, (PathBuf, String)>,
}

impl Crate {
    fn new(files: impl IntoIterator<Item = (PathBuf, String)>) -> Crate {
        Crate {
            files: files
                .into_iter()
                .map(|(file, text)| (module_of(&file), (file, code_of(&text))))
                .collect(),
        }
    }

    /// A path written in `module` made absolute: `crate::a` → `[a]`, `super::a` → the
    /// parent's `a`, `self::a` → the module's `a`; a path starting with one of the module's
    /// children (`child::X`) is the child's. Other paths (other crates) → `None`.
    fn absolute(&self, module: &Module, path: &[String]) -> Option<Vec<String>> {
        let (first, rest) = path.split_first()?;
        let mut base = match first.as_str() {
            "crate" => Vec::new(),
            "self" => module.clone(),
            "super" => {
                let mut base = module.clone();
                base.pop()?;
                let mut rest = rest;
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop()?;
                    rest = &rest[1..];
                }
                return Some(base.into_iter().chain(rest.iter().cloned()).collect());
            }
            _ => {
                let mut child = module.clone();
                child.push(first.clone());
                if !self.files.contains_key(&child) {
                    return None;
                }
                return Some(child.into_iter().chain(rest.iter().cloned()).collect());
            }
        };
        base.extend(rest.iter().cloned());
        Some(base)
    }

    /// What each module re-exports (`pub use`, `pub(crate) use`): module → name → the
    /// absolute path it stands for.
    fn re_exports(&self) -> BTreeMap<Module, BTreeMap<String, Vec<String>>> {
        let mut all = BTreeMap::new();
        for (module, (_, code)) in &self.files {
            let names: &mut BTreeMap<String, Vec<String>> = all.entry(module.clone()).or_default();
            for head in ["pub use ", "pub(crate) use ", "pub(super) use "] {
                for (at, _) in code.match_indices(head) {
                    let statement = &code[at + head.len()..];
                    let statement = &statement[..statement.find(';').unwrap_or(statement.len())];
                    for (path, name) in use_tree(statement) {
                        if let Some(target) = self.absolute(module, &path)
                            && !name.is_empty()
                        {
                            names.insert(name, target);
                        }
                    }
                }
            }
        }
        all
    }

    /// The file a path leads to: the longest prefix that is a module, or, when the module
    /// re-exports the next name, where that re-export leads.
    fn file_of<'a>(
        &'a self,
        path: &[String],
        re_exports: &BTreeMap<Module, BTreeMap<String, Vec<String>>>,
        depth: usize,
    ) -> Option<&'a PathBuf> {
        let n = (0..=path.len())
            .rev()
            .find(|&n| self.files.contains_key(&path[..n]))?;
        if depth < 16
            && let Some(name) = path.get(n)
            && let Some(target) = re_exports.get(&path[..n]).and_then(|names| names.get(name))
        {
            let mut through: Vec<String> = target.clone();
            through.extend(path[n + 1..].iter().cloned());
            if through != path {
                return self.file_of(&through, re_exports, depth + 1);
            }
        }
        Some(&self.files[&path[..n]].0)
    }

    /// Every file's imports of other files of the crate.
    fn imports(&self) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
        let re_exports = self.re_exports();
        let mut edges: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
        for (module, (file, code)) in &self.files {
            let targets = edges.entry(file.clone()).or_default();
            for head in ["crate::", "super::", "self::"] {
                for (at, _) in code.match_indices(head) {
                    let before = code[..at].chars().next_back();
                    if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                        continue;
                    }
                    let written = format!("{}::", &head[..head.len() - 2]);
                    for (path, _) in use_tree(&code[at + written.len()..]) {
                        let mut full = vec![head[..head.len() - 2].to_owned()];
                        full.extend(path);
                        let Some(absolute) = self.absolute(module, &full) else {
                            continue;
                        };
                        // A module naming its own children is its tree, not an import.
                        if head == "self::" && absolute.len() > module.len() {
                            let child = &absolute[..=module.len()];
                            if self.files.contains_key(child) {
                                continue;
                            }
                        }
                        if let Some(target) = self.file_of(&absolute, &re_exports, 0)
                            && target != file
                            && !module_of(target).starts_with(module)
                        {
                            targets.insert(target.clone());
                        }
                    }
                }
            }
        }
        edges
    }

    /// The circles of imports: each a set of files that all reach each other, largest first.
    fn circles(&self) -> Vec<Vec<PathBuf>> {
        let edges = self.imports();
        let reach = |from: &PathBuf| {
            let mut seen = BTreeSet::new();
            let mut stack = vec![from.clone()];
            while let Some(f) = stack.pop() {
                for t in edges.get(&f).into_iter().flatten() {
                    if seen.insert(t.clone()) {
                        stack.push(t.clone());
                    }
                }
            }
            seen
        };
        let reached: BTreeMap<&PathBuf, BTreeSet<PathBuf>> =
            edges.keys().map(|f| (f, reach(f))).collect();
        let mut circles: BTreeSet<Vec<PathBuf>> = BTreeSet::new();
        for (a, from_a) in &reached {
            if !from_a.contains(*a) {
                continue;
            }
            let circle: Vec<PathBuf> = from_a
                .iter()
                .filter(|b| reached[b].contains(*a))
                .cloned()
                .collect();
            circles.insert(circle);
        }
        circles.into_iter().collect()
    }
}

/// The crate of `crates/NAME/src`.
fn workspace_crate(src: &Path) -> Crate {
    let mut files = Vec::new();
    sources(src, src, &mut files);
    Crate::new(
        files
            .into_iter()
            .map(|f| (f.clone(), std::fs::read_to_string(src.join(&f)).unwrap())),
    )
}

#[test]
fn no_circle_of_imports_in_any_crate() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut knots = Vec::new();
    let mut read = 0;
    for entry in std::fs::read_dir(&crates).unwrap() {
        let src = entry.unwrap().path().join("src");
        if !src.is_dir() {
            continue;
        }
        let krate = workspace_crate(&src);
        read += krate.imports().values().map(BTreeSet::len).sum::<usize>();
        for circle in krate.circles() {
            let files: Vec<String> = circle.iter().map(|f| f.display().to_string()).collect();
            knots.push(format!("{}: {}", src.display(), files.join(" <-> ")));
        }
    }
    assert!(read > 300, "the imports were read: {read}");
    assert!(
        knots.is_empty(),
        "circles of imports:\n{}",
        knots.join("\n")
    );
}

fn planted(files: &[(&str, &str)]) -> Crate {
    Crate::new(
        files
            .iter()
            .map(|(file, text)| (PathBuf::from(file), (*text).to_owned())),
    )
}

#[test]
fn a_circle_behind_a_re_export_is_caught() {
    // `hall.rs` names `crate::arena::Runner`, which `arena/mod.rs` only re-exports from
    // `arena/run.rs`; `arena/run.rs` names the hall: a circle through the re-export.
    let krate = planted(&[
        ("lib.rs", "pub mod arena;\npub mod hall;\n"),
        ("hall.rs", "use crate::arena::Runner;\npub struct Hall;\n"),
        ("arena/mod.rs", "mod run;\npub use run::{Runner, other};\n"),
        (
            "arena/run.rs",
            "use crate::hall::Hall;\npub struct Runner;\n",
        ),
    ]);
    assert_eq!(
        krate.circles(),
        [vec![
            PathBuf::from("arena/run.rs"),
            PathBuf::from("hall.rs")
        ]]
    );
    // Without the import back, no circle.
    let krate = planted(&[
        ("lib.rs", "pub mod arena;\npub mod hall;\n"),
        ("hall.rs", "use crate::arena::Runner;\npub struct Hall;\n"),
        ("arena/mod.rs", "mod run;\npub use run::Runner;\n"),
        ("arena/run.rs", "pub struct Runner;\n"),
    ]);
    assert!(krate.circles().is_empty(), "{:?}", krate.circles());
}

#[test]
fn a_circle_of_two_files_of_one_folder_and_nested_lists_are_caught() {
    let krate = planted(&[
        ("lib.rs", "mod store;\n"),
        (
            "store.rs",
            "mod log;\nmod writer;\nuse writer::run;\npub struct Store;\n",
        ),
        (
            "store/writer.rs",
            "use super::{Store, log::{insert, trim}};\npub fn run() {}\npub const MAX: usize = 1;\n",
        ),
        (
            "store/log.rs",
            "const ROWS: usize = super::writer::MAX;\npub fn insert() {}\n",
        ),
    ]);
    assert_eq!(
        krate.circles(),
        [vec![
            PathBuf::from("store/log.rs"),
            PathBuf::from("store/writer.rs")
        ]]
    );
}

#[test]
fn use_trees_expand_to_every_path_with_its_name() {
    let paths: Vec<(String, String)> = use_tree("a::{b, c::{d, e as f}, g::*}")
        .into_iter()
        .map(|(p, n)| (p.join("::"), n))
        .collect();
    let expected = [
        ("a::b", "b"),
        ("a::c::d", "d"),
        ("a::c::e", "f"),
        ("a::g", ""),
    ];
    assert_eq!(
        paths,
        expected.map(|(p, n)| (p.to_owned(), n.to_owned())).to_vec()
    );
}
