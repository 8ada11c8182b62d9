//! The rules core stays pure: nothing under `src/games/` (nor the rating arithmetic beside it,
//! `src/rating_model.rs`) may reach for the web framework, the
//! database, the async runtime, the clock or a random generator of its own (ARCHITECTURE: "the
//! rules core is pure"). Chance comes only through the `Randomness` the caller lends.

use std::path::{Path, PathBuf};

const FORBIDDEN: &[&str] = &[
    "actix",
    "diesel",
    "tokio",
    "reqwest",
    "chrono",
    "std::time",
    "SystemTime",
    "Instant::now",
    "rand::",
    "rand_chacha",
    "getrandom",
    "std::fs",
    "std::net",
    "std::env",
    "crate::store",
    "crate::http",
    "crate::matches",
    "crate::seed",
];

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

#[test]
fn the_rules_core_imports_no_framework_database_runtime_clock_or_generator() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offences = Vec::new();
    let mut files = rust_files(&src.join("games"));
    files.push(src.join("rating_model.rs"));
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            for word in FORBIDDEN {
                if code.contains(word) {
                    offences.push(format!("{}:{}: {word}", file.display(), number + 1));
                }
            }
        }
    }
    assert!(
        offences.is_empty(),
        "impure rules code:\n{}",
        offences.join("\n")
    );
}
