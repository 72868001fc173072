//! The layering of the library, checked on its source (docs/ARCHITECTURE.md draws it):
//!
//! - every module of the library has a layer here, and names only the modules its layer may
//!   use: the kernels (`src/arch/`) only each other, `types` and the board words of
//!   `ccr::board`; the core (`src/ccr/`) only itself, the kernels, `types` and `moves`; and
//!   so on up to the protocol;
//! - docs/ARCHITECTURE.md's table of modules says the same "may use" as the layers here;
//! - no module imports another in a cycle: the top-level modules among each other, and
//!   inside the core and the kernels, file by file;
//! - the CPU is asked what it has in one place, `arch` (`src/arch/mod.rs`);
//! - library code reads nothing from `tests/` at compile time.
//!
//! Only the code a build compiles counts: comments and the `#[cfg(test)] mod tests` at the
//! end of a file (whose tests may use anything) are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Each top-level module of the library and the modules its code may name besides itself,
/// bottom up. A new module needs a line here (the test fails without one).
const LAYERS: &[(&str, &[&str])] = &[
    ("types", &[]),
    ("files", &[]),
    ("moves", &["types"]),
    ("arch", &["types", "ccr::board"]),
    ("ccr", &["arch", "types", "moves"]),
    ("repr", &["ccr", "types", "moves"]),
    ("x88", &["ccr", "repr", "types", "moves"]),
    ("bitboard", &["arch", "ccr", "repr", "types", "moves"]),
    ("rotated", &["bitboard", "ccr", "repr", "types", "moves"]),
    (
        "variants",
        &["arch", "ccr", "repr", "x88", "bitboard", "rotated"],
    ),
    ("perft", &["repr", "types", "moves"]),
    ("positions", &["ccr", "types"]),
    ("eval", &["arch", "bitboard", "ccr", "types"]),
    ("history", &["ccr", "types"]),
    (
        "search",
        &[
            "arch",
            "bitboard",
            "ccr",
            "eval",
            "files",
            "history",
            "positions",
            "types",
            "moves",
        ],
    ),
    ("book", &["ccr", "files", "types", "moves"]),
    (
        "openings",
        &["ccr", "eval", "files", "history", "search", "types"],
    ),
    (
        "tune",
        &[
            "ccr", "eval", "history", "openings", "search", "types", "moves",
        ],
    ),
    ("bench", &["ccr", "eval", "history", "search", "positions"]),
    (
        "uci",
        &[
            "book",
            "ccr",
            "eval",
            "history",
            "openings",
            "search",
            "positions",
            "types",
            "moves",
        ],
    ),
    ("kernels", &["arch", "bitboard", "ccr", "eval", "search"]),
];

/// The layers whose files are checked for cycles one by one (everywhere else a top-level
/// module is one node: a module and its own submodules may use each other).
const FILE_BY_FILE: &[&str] = &["arch", "ccr"];

/// The one module that may ask the CPU for its features.
const DETECTION: &str = "arch";

/// A source file: its module path (`ccr::board`, `arch`) and its code.
struct Source {
    module: String,
    code: String,
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file under `src/` (`ccr/mod.rs` is `ccr`, `lib.rs` the root ``).
fn module_of(path: &Path) -> String {
    let relative = path.strip_prefix(src()).expect("a file under src/");
    let mut parts: Vec<String> = relative
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if parts
        .last()
        .is_some_and(|p| p == "mod" || p == "lib" || p == "main")
    {
        parts.pop();
    }
    parts.join("::")
}

/// The code of a file without its comments and its trailing test module.
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every library source file (the binary's `main.rs` and `cli/`, which sit over the whole
/// library and may use any of it, excluded).
fn sources() -> Vec<Source> {
    let mut paths = Vec::new();
    files(&src(), &mut paths);
    paths
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|f| f != "main.rs"))
        .filter(|p| !p.starts_with(src().join("cli")))
        .map(|path| Source {
            module: module_of(&path),
            code: code_of(&fs::read_to_string(&path).expect("a readable source file")),
        })
        .collect()
}

/// The paths the code names from the crate root (`crate::a::b::{c, d::e}` gives `a::b::c`
/// and `a::b::d::e`).
fn crate_paths(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().last();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        expand("", rest, &mut paths);
    }
    paths
}

/// Reads one path (or brace group of paths) at the start of `text`, after `prefix`.
fn expand(prefix: &str, text: &str, out: &mut Vec<String>) {
    let ident: String = text
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let path = if prefix.is_empty() {
        ident.clone()
    } else {
        format!("{prefix}::{ident}")
    };
    let after = &text[ident.len()..];
    if let Some(group) = after.strip_prefix("::{") {
        // The brace group's items, split at the top-level commas.
        let (mut depth, mut start) = (0, 0);
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    expand(&path, group[start..i].trim_start(), out);
                    return;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&path, group[start..i].trim_start(), out);
                    start = i + 1;
                }
                _ => {}
            }
        }
    } else if let Some(more) = after.strip_prefix("::") {
        if more.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            expand(&path, more, out);
            return;
        }
        out.push(path);
    } else if !path.is_empty() {
        out.push(path);
    }
}

/// Whether module path `path` is `prefix` or inside it.
fn within(path: &str, prefix: &str) -> bool {
    path == prefix || path.starts_with(&format!("{prefix}::"))
}

/// The longest module of `modules` that `path` names (the item's own module).
fn resolve<'a>(path: &str, modules: &'a BTreeSet<String>) -> Option<&'a String> {
    modules
        .iter()
        .filter(|m| !m.is_empty() && within(path, m))
        .max_by_key(|m| m.len())
}

#[test]
fn each_layer_names_only_what_it_may_use() {
    let sources = sources();
    let modules: BTreeSet<String> = sources.iter().map(|s| s.module.clone()).collect();
    let mut broken = Vec::new();
    for source in sources.iter().filter(|s| !s.module.is_empty()) {
        let Some(&(layer, allowed)) = LAYERS.iter().find(|(l, _)| within(&source.module, l)) else {
            broken.push(format!("{} has no layer in LAYERS", source.module));
            continue;
        };
        for path in crate_paths(&source.code) {
            let target = resolve(&path, &modules).map_or(path.as_str(), String::as_str);
            if !within(target, layer) && !allowed.iter().any(|a| within(target, a)) {
                broken.push(format!("{} uses crate::{path}", source.module));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "layering broken (allowed: {LAYERS:?}):\n{}",
        broken.join("\n")
    );
}

/// The node of the import graph a module is: itself inside the layers checked file by file,
/// else its top-level module.
fn node_of(module: &str) -> String {
    if FILE_BY_FILE.iter().any(|layer| within(module, layer)) {
        module.to_string()
    } else {
        module.split("::").next().unwrap_or(module).to_string()
    }
}

#[test]
fn no_module_imports_in_a_cycle() {
    let sources = sources();
    let modules: BTreeSet<String> = sources.iter().map(|s| s.module.clone()).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for source in sources.iter().filter(|s| !s.module.is_empty()) {
        let from = node_of(&source.module);
        for path in crate_paths(&source.code) {
            if let Some(target) = resolve(&path, &modules) {
                let to = node_of(target);
                if to != from {
                    edges.entry(from.clone()).or_default().insert(to);
                }
            }
        }
    }
    // Depth-first search; a module met again while on the stack closes a cycle.
    fn visit(
        module: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        cycles: &mut Vec<String>,
    ) {
        if let Some(at) = stack.iter().position(|m| m == module) {
            let mut cycle = stack[at..].to_vec();
            cycle.push(module.to_string());
            cycles.push(cycle.join(" -> "));
            return;
        }
        if !done.insert(module.to_string()) {
            return;
        }
        stack.push(module.to_string());
        for next in edges.get(module).into_iter().flatten() {
            visit(next, edges, stack, done, cycles);
        }
        stack.pop();
    }
    let (mut done, mut cycles) = (BTreeSet::new(), Vec::new());
    for module in edges.keys() {
        visit(module, &edges, &mut Vec::new(), &mut done, &mut cycles);
    }
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_cpu_is_detected_in_one_place() {
    let elsewhere: Vec<String> = sources()
        .into_iter()
        .filter(|s| s.code.contains("is_x86_feature_detected!") && s.module != DETECTION)
        .map(|s| s.module)
        .collect();
    assert!(
        elsewhere.is_empty(),
        "feature detection outside {DETECTION}: {elsewhere:?}"
    );
}

#[test]
fn library_code_includes_nothing_from_the_tests() {
    let mut paths = Vec::new();
    files(&src(), &mut paths);
    files(&src().join("../keystats/src"), &mut paths);
    let including: Vec<String> = paths
        .iter()
        .filter(|p| {
            let text = fs::read_to_string(p).expect("a readable source file");
            text.lines()
                .any(|l| l.contains("include_str!(") && l.contains("tests/"))
        })
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        including.is_empty(),
        "include_str! from tests/: {including:?}"
    );
}

#[test]
fn the_parser_reads_paths_and_groups() {
    assert_eq!(
        crate_paths("use crate::ccr::{board::{Ccr, X}, fen};\nlet a = crate::arch::cpu();"),
        ["ccr::board::Ccr", "ccr::board::X", "ccr::fen", "arch::cpu"]
    );
    assert!(crate_paths("let x = my_crate::a::b; let y = $crate::c;").is_empty());
    let modules: BTreeSet<String> = ["ccr", "ccr::board", "arch"]
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(
        resolve("ccr::board::Ccr", &modules).map(String::as_str),
        Some("ccr::board")
    );
}

/// The rows of docs/ARCHITECTURE.md's table of layers: each module and what it may use.
fn documented_layers() -> Vec<(String, Vec<String>)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ARCHITECTURE.md");
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let section = text
        .split("\n## The layers\n")
        .nth(1)
        .expect("docs/ARCHITECTURE.md has a section '## The layers'");
    let section = section.split("\n## ").next().unwrap_or(section);
    let names = |cell: &str| -> Vec<String> {
        cell.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    };
    section
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            match cells.as_slice() {
                ["", module, uses, ""] if module.starts_with('`') => {
                    Some((names(module).concat(), names(uses)))
                }
                _ => None,
            }
        })
        .collect()
}

#[test]
fn the_documented_layers_are_the_checked_ones() {
    let checked: Vec<(String, Vec<String>)> = LAYERS
        .iter()
        .map(|(module, uses)| {
            (
                module.to_string(),
                uses.iter().map(|u| u.to_string()).collect(),
            )
        })
        .collect();
    assert_eq!(
        documented_layers(),
        checked,
        "docs/ARCHITECTURE.md's table of layers differs from LAYERS"
    );
}
