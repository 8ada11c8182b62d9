//! The house as docs/architecture.md draws it, read from the code with a Rust parser (`syn`),
//! file by file: every file of `src/` belongs to a layer, imports only what its layer may, and
//! no group of files imports itself round a circle. An import is any path that names a module
//! of the crate: a `use` tree however nested, a path in code or in a type, a path inside a
//! macro's tokens; `crate::`, `super::` and `self::` alike.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// The layers, top first: each with its top-level modules of `src/` and the layers below it that
/// it may import (its own always). Storage and the referee are a fork: both stand on the rules
/// core, neither knows the other, and the services use both.
const LAYERS: &[Layer] = &[
    Layer {
        name: "start-up",
        modules: &["startup", "private_postgres"],
        uses: &[
            "http",
            "services",
            "storage",
            "referee",
            "rules core",
            "vocabulary",
        ],
    },
    Layer {
        name: "http",
        modules: &["http"],
        uses: &["services", "storage", "referee", "rules core", "vocabulary"],
    },
    Layer {
        name: "services",
        modules: &[
            "matches",
            "sheets",
            "stats",
            "ratings",
            "exports",
            "bgstats",
            "records",
            "problem",
            "households",
            "frames",
        ],
        uses: &["storage", "referee", "rules core", "vocabulary"],
    },
    Layer {
        name: "storage",
        modules: &["store", "live"],
        uses: &["rules core", "vocabulary"],
    },
    Layer {
        name: "referee",
        modules: &["referee", "payloads", "seed", "request_examples"],
        uses: &["rules core", "vocabulary"],
    },
    Layer {
        name: "rules core",
        modules: &["games", "rating_model"],
        uses: &["vocabulary"],
    },
    Layer {
        name: "vocabulary",
        modules: &["vocabulary", "config", "metrics", "tokens", "tagged"],
        uses: &[],
    },
];

struct Layer {
    name: &'static str,
    modules: &'static [&'static str],
    uses: &'static [&'static str],
}

fn layer_of(module: &[String]) -> Option<&'static Layer> {
    let top = module.first()?;
    LAYERS
        .iter()
        .find(|layer| layer.modules.contains(&top.as_str()))
}

/// A file's module path: `src/store/results/mod.rs` is `store::results`.
fn module_of(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs");
        if stem != "mod" && stem != "lib" {
            parts.push(stem.to_owned());
        }
    }
    parts
}

/// The crate's files, by module path: the library's own (not `main.rs` nor `src/bin/`).
fn crate_files() -> BTreeMap<Vec<String>, String> {
    fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, files);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    files
        .into_iter()
        .filter_map(|file| {
            let relative = file.strip_prefix(&src).unwrap().to_path_buf();
            let first = relative.iter().next()?.to_string_lossy().into_owned();
            if first == "main.rs" || first == "bin" {
                return None;
            }
            Some((
                module_of(&relative),
                std::fs::read_to_string(&file).unwrap(),
            ))
        })
        .collect()
}

/// Every path a file names that starts at the crate's root or at a module relative to its own
/// (`crate::`, `super::`, `self::`), resolved to a path from the root.
struct Paths<'a> {
    module: &'a [String],
    found: BTreeSet<Vec<String>>,
}

impl Paths<'_> {
    fn resolve(&mut self, segments: Vec<String>) {
        let mut resolved: Vec<String> = match segments.first().map(String::as_str) {
            Some("crate") => Vec::new(),
            Some("self") => self.module.to_vec(),
            Some("super") => self.module.to_vec(),
            _ => return,
        };
        let mut rest = segments.into_iter().peekable();
        if matches!(rest.peek().map(String::as_str), Some("crate" | "self")) {
            rest.next();
        }
        for segment in rest {
            if segment == "super" {
                resolved.pop();
            } else {
                resolved.push(segment);
            }
        }
        self.found.insert(resolved);
    }

    fn use_tree(&mut self, prefix: Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(path) => {
                let mut prefix = prefix;
                prefix.push(path.ident.to_string());
                self.use_tree(prefix, &path.tree);
            }
            syn::UseTree::Name(name) => {
                let mut full = prefix;
                full.push(name.ident.to_string());
                self.resolve(full);
            }
            syn::UseTree::Rename(rename) => {
                let mut full = prefix;
                full.push(rename.ident.to_string());
                self.resolve(full);
            }
            syn::UseTree::Glob(_) => self.resolve(prefix),
            syn::UseTree::Group(group) => {
                for tree in &group.items {
                    self.use_tree(prefix.clone(), tree);
                }
            }
        }
    }

    /// Paths in a macro's tokens (`crate::a::b` inside `json!`, `with_game!`...), read as runs of
    /// identifiers joined by `::`.
    fn tokens(&mut self, tokens: proc_macro2::TokenStream) {
        let mut run: Vec<String> = Vec::new();
        let mut colons = 0;
        let flush = |run: &mut Vec<String>, this: &mut Self| {
            if run.len() > 1 {
                this.resolve(std::mem::take(run));
            }
            run.clear();
        };
        for token in tokens {
            match token {
                proc_macro2::TokenTree::Ident(ident) => {
                    if !run.is_empty() && colons != 2 {
                        flush(&mut run, self);
                    }
                    run.push(ident.to_string());
                    colons = 0;
                }
                proc_macro2::TokenTree::Punct(punct) if punct.as_char() == ':' => colons += 1,
                proc_macro2::TokenTree::Group(group) => {
                    flush(&mut run, self);
                    colons = 0;
                    self.tokens(group.stream());
                }
                _ => {
                    flush(&mut run, self);
                    colons = 0;
                }
            }
        }
        flush(&mut run, self);
    }
}

/// Whether an item is compiled only for the crate's own unit tests (`#[cfg(test)]`): a test
/// module's `use super::*` is no import of the code it tests.
fn test_only(attributes: &[syn::Attribute]) -> bool {
    attributes.iter().any(|attribute| {
        attribute.path().is_ident("cfg")
            && attribute
                .parse_args::<syn::Ident>()
                .is_ok_and(|ident| ident == "test")
    })
}

impl<'ast> Visit<'ast> for Paths<'_> {
    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if !test_only(&item.attrs) {
            syn::visit::visit_item_mod(self, item);
        }
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        if !test_only(&item.attrs) {
            syn::visit::visit_item_fn(self, item);
        }
    }

    /// `pub(super)` names who may see an item, not what the file uses.
    fn visit_vis_restricted(&mut self, _: &'ast syn::VisRestricted) {}

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(Vec::new(), &item.tree);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments = path
            .segments
            .iter()
            .map(|segment| segment.ident.to_string())
            .collect();
        self.resolve(segments);
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.tokens(mac.tokens.clone());
        syn::visit::visit_macro(self, mac);
    }
}

/// The files of `files` that `code` (the file at `module`) names, each by the longest module
/// path that is a file: `crate::store::stat_reads::abandon_of` names `store::stat_reads`.
fn imports_of(
    module: &[String],
    code: &str,
    files: &BTreeSet<Vec<String>>,
) -> BTreeSet<Vec<String>> {
    let syntax = syn::parse_file(code).unwrap_or_else(|e| panic!("{module:?}: {e}"));
    let mut paths = Paths {
        module,
        found: BTreeSet::new(),
    };
    paths.visit_file(&syntax);
    paths
        .found
        .into_iter()
        .filter_map(|path| {
            (1..=path.len())
                .rev()
                .map(|len| path[..len].to_vec())
                .find(|prefix| files.contains(prefix))
        })
        .filter(|target| target.as_slice() != module)
        .collect()
}

/// File → the files it imports, for these sources (module path → code).
fn graph(sources: &BTreeMap<Vec<String>, String>) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let files: BTreeSet<Vec<String>> = sources.keys().cloned().collect();
    sources
        .iter()
        .map(|(module, code)| (module.clone(), imports_of(module, code, &files)))
        .collect()
}

fn show(module: &[String]) -> String {
    if module.is_empty() {
        "lib".to_owned()
    } else {
        module.join("::")
    }
}

/// The files in no layer (the crate root aside).
fn unplaced(sources: &BTreeMap<Vec<String>, String>) -> Vec<String> {
    sources
        .keys()
        .filter(|module| !module.is_empty() && layer_of(module).is_none())
        .map(|module| show(module))
        .collect()
}

/// Imports a layer may not make: of a layer above it, or beside it in the fork.
fn forbidden(sources: &BTreeMap<Vec<String>, String>) -> Vec<String> {
    let mut found = Vec::new();
    for (module, imports) in graph(sources) {
        let Some(own) = layer_of(&module) else {
            continue;
        };
        for target in imports {
            let Some(theirs) = layer_of(&target) else {
                continue;
            };
            if theirs.name != own.name && !own.uses.contains(&theirs.name) {
                found.push(format!(
                    "{} ({}) imports {} ({})",
                    show(&module),
                    own.name,
                    show(&target),
                    theirs.name
                ));
            }
        }
    }
    found
}

/// Files that import each other round a circle, each circle once.
fn circles(sources: &BTreeMap<Vec<String>, String>) -> Vec<String> {
    let graph = graph(sources);
    // Depth-first search: a file met again while it is still on the path closes a circle.
    fn visit<'a>(
        file: &'a Vec<String>,
        graph: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        path: &mut Vec<&'a Vec<String>>,
        done: &mut BTreeSet<&'a Vec<String>>,
        circles: &mut Vec<String>,
    ) {
        if let Some(start) = path.iter().position(|f| *f == file) {
            let mut circle: Vec<String> = path[start..].iter().map(|f| show(f)).collect();
            circle.push(show(file));
            circles.push(circle.join(" → "));
            return;
        }
        if !done.insert(file) {
            return;
        }
        path.push(file);
        for target in graph.get(file).into_iter().flatten() {
            // The crate root declares every module; what it declares is not an import.
            if !target.is_empty() {
                visit(target, graph, path, done, circles);
            }
        }
        path.pop();
    }
    let mut found = Vec::new();
    let mut done = BTreeSet::new();
    for file in graph.keys().filter(|file| !file.is_empty()) {
        visit(file, &graph, &mut Vec::new(), &mut done, &mut found);
    }
    found
}

#[test]
fn every_file_of_src_belongs_to_a_layer() {
    let unplaced = unplaced(&crate_files());
    assert!(
        unplaced.is_empty(),
        "files in no layer (add their module to LAYERS and docs/architecture.md): {unplaced:?}"
    );
}

#[test]
fn no_file_imports_what_its_layer_may_not() {
    let forbidden = forbidden(&crate_files());
    assert!(
        forbidden.is_empty(),
        "imports that run back up or across the fork:\n{}",
        forbidden.join("\n")
    );
}

#[test]
fn no_files_import_each_other_round_a_circle() {
    let circles = circles(&crate_files());
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

/// A small crate for the checks of the checks: module path → code.
fn planted(files: &[(&str, &str)]) -> BTreeMap<Vec<String>, String> {
    files
        .iter()
        .map(|(module, code)| {
            let path = module.split("::").map(str::to_owned).collect();
            (path, (*code).to_owned())
        })
        .collect()
}

#[test]
fn an_upward_import_in_a_nested_use_group_inside_a_folder_is_caught() {
    let sources = planted(&[
        (
            "store::results::totals",
            "use crate::{games::{Game, Seat}, http::links};",
        ),
        ("games", ""),
        ("http::links", ""),
    ]);
    assert_eq!(
        forbidden(&sources),
        ["store::results::totals (storage) imports http::links (http)"]
    );
}

#[test]
fn an_upward_import_through_super_or_in_code_or_a_macro_is_caught() {
    let sources = planted(&[
        (
            "store::stat_reads",
            "fn f() { super::super::referee::replay(); }",
        ),
        (
            "store::names",
            "fn g() -> crate::matches::Reply { todo!() }",
        ),
        (
            "store::lobby",
            "fn h() { json!({ \"a\": crate::ratings::board() }); }",
        ),
        (
            "referee",
            "// crate::http in a comment is no import\nconst A: &str = \"// crate::http\";",
        ),
        ("matches", ""),
        ("ratings", ""),
        ("http", ""),
    ]);
    assert_eq!(
        forbidden(&sources),
        [
            "store::lobby (storage) imports ratings (services)",
            "store::names (storage) imports matches (services)",
            "store::stat_reads (storage) imports referee (referee)",
        ]
    );
}

#[test]
fn a_circle_between_two_files_of_one_folder_is_caught() {
    let sources = planted(&[
        ("store::rating_reads", "use super::stat_reads::Period;"),
        (
            "store::stat_reads",
            "fn f() { super::rating_reads::rerate_all(); }",
        ),
    ]);
    assert_eq!(
        circles(&sources),
        ["store::rating_reads → store::stat_reads → store::rating_reads"]
    );
}

#[test]
fn a_visibility_limit_or_a_unit_test_module_is_no_import() {
    let sources = planted(&[
        ("store::moves", "use crate::store::moves::batch::flush;"),
        (
            "store::moves::batch",
            "pub(super) fn flush() {}\n#[cfg(test)]\nmod tests { use super::*; }",
        ),
    ]);
    assert!(circles(&sources).is_empty());
}
