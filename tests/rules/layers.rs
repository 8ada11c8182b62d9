//! The house reads from top to bottom (docs/architecture.md): every module of `src/` belongs to
//! one layer, imports only from its own layer or the layers below, and no group of modules
//! imports itself round in a circle. Read from the code's `crate::` paths, comments aside.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, top first, each with its top-level modules of `src/`.
const LAYERS: &[(&str, &[&str])] = &[
    ("start-up", &["startup"]),
    ("http", &["http"]),
    (
        "services",
        &[
            "matches", "sheets", "stats", "skill", "exports", "bgstats", "records", "problem",
        ],
    ),
    ("storage", &["store", "live"]),
    ("referee", &["referee", "wire", "seed", "examples"]),
    ("rules core", &["games", "ratings"]),
    ("vocabulary", &["vocabulary", "config", "metrics", "tokens"]),
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS
        .iter()
        .position(|(_, modules)| modules.contains(&module))
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The top-level modules named by `crate::…` paths in `code`, `use crate::{a, b::c}` included.
fn imported(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        let names: Vec<&str> = match rest.strip_prefix('{') {
            Some(group) => group
                .split('}')
                .next()
                .unwrap_or_default()
                .split(',')
                .collect(),
            None => vec![rest],
        };
        for name in names {
            let module: String = name
                .trim()
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_' || c.is_ascii_digit())
                .collect();
            if !module.is_empty() {
                found.insert(module);
            }
        }
    }
    found
}

/// Module → the modules it imports, with a file that does, for every module of `src/`.
fn import_graph() -> BTreeMap<String, BTreeMap<String, String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut graph: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for file in rust_files(&src) {
        let relative = file.strip_prefix(&src).unwrap();
        let top = relative.iter().next().unwrap().to_string_lossy();
        let module = top.trim_end_matches(".rs").to_owned();
        if ["lib", "main", "bin"].contains(&module.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let code: String = text
            .lines()
            .map(|line| line.split("//").next().unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\n");
        let imports = graph.entry(module.clone()).or_default();
        for target in imported(&code) {
            // `crate::some_macro!` paths name macros, not modules.
            if target != module && layer_of(&target).is_some() {
                imports
                    .entry(target)
                    .or_insert_with(|| relative.display().to_string());
            }
        }
    }
    graph
}

#[test]
fn every_module_of_src_belongs_to_a_layer() {
    let unplaced: Vec<_> = import_graph()
        .into_keys()
        .filter(|module| layer_of(module).is_none())
        .collect();
    assert!(
        unplaced.is_empty(),
        "modules in no layer (add them to LAYERS and docs/architecture.md): {unplaced:?}"
    );
}

#[test]
fn no_module_imports_from_a_layer_above_its_own() {
    let mut upward = Vec::new();
    for (module, imports) in import_graph() {
        let Some(own) = layer_of(&module) else {
            continue;
        };
        for (target, file) in imports {
            if layer_of(&target).is_some_and(|layer| layer < own) {
                upward.push(format!(
                    "{file}: {module} ({}) imports {target} ({})",
                    LAYERS[own].0,
                    LAYERS[layer_of(&target).unwrap()].0
                ));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports that run back up:\n{}",
        upward.join("\n")
    );
}

#[test]
fn no_modules_import_each_other_round_a_circle() {
    let graph = import_graph();
    // Depth-first search: a module met again while it is still on the path closes a circle.
    fn visit<'a>(
        module: &'a str,
        graph: &'a BTreeMap<String, BTreeMap<String, String>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
        circles: &mut Vec<String>,
    ) {
        if let Some(start) = path.iter().position(|m| *m == module) {
            let mut circle = path[start..].to_vec();
            circle.push(module);
            circles.push(circle.join(" → "));
            return;
        }
        if !done.insert(module) {
            return;
        }
        path.push(module);
        for target in graph.get(module).into_iter().flat_map(BTreeMap::keys) {
            visit(target, graph, path, done, circles);
        }
        path.pop();
    }
    let mut circles = Vec::new();
    let mut done = BTreeSet::new();
    for module in graph.keys() {
        visit(module, &graph, &mut Vec::new(), &mut done, &mut circles);
    }
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}
