//! The README's and docs' examples, run for real: every `sh` block of a document runs in order in
//! one `bash -euo pipefail` against a fresh service, and every `json` (or `text`) block right
//! after a `sh` block is checked against what that block printed. A walkthrough can then never
//! silently drift from the service it describes.
//!
//! The examples reach the service through `$BASE`, which each document sets once, in an `sh`
//! block, as `BASE=${BASE:-http://localhost:8080}`: a reader's shell gets the default (or its own
//! `BASE`), and this test sets `BASE` to the fresh service's address before running the blocks.
//! A document whose `sh` blocks name the address any other way fails.
//!
//! An expected block is a pattern, not a literal: objects need only the keys shown, `…` stands
//! for any value, any run of array elements, or any run of characters inside a string. A `json`
//! block of n values is matched against the last n JSON values the `sh` block printed. Shell
//! commands that are not examples to run (`cargo run`, ...) belong in `console` blocks.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::spawn_app;

const ELLIPSIS: char = '…';

/// How a document sets the address its examples use, once, in one of its `sh` blocks.
const BASE_LINE: &str = "BASE=${BASE:-http://localhost:8080}";

/// A fenced block of a document, with the line its fence opens on.
struct Block {
    lang: String,
    line: usize,
    body: String,
    /// Only blank lines separate it from the previous block: it shows that block's output.
    follows_previous: bool,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    let mut prose_since_last = true;
    for (index, line) in text.lines().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        match (&mut open, fence) {
            (Some(_), Some(_)) => {
                blocks.extend(open.take());
                prose_since_last = false;
            }
            (Some(block), None) => {
                block.body.push_str(line);
                block.body.push('\n');
            }
            (None, Some(lang)) => {
                open = Some(Block {
                    lang: lang.trim().to_owned(),
                    line: index + 1,
                    body: String::new(),
                    follows_previous: !prose_since_last,
                })
            }
            (None, None) => prose_since_last |= !line.trim().is_empty(),
        }
    }
    blocks
}

/// What an expected block allows.
#[derive(Debug)]
enum Pattern {
    Any,
    Exact(Value),
    /// A string with `…` wildcards: the literal pieces between them, in order.
    Glob(Vec<String>),
    /// Only the keys shown are checked.
    Object(Vec<(String, Pattern)>),
    /// `None` is a `…`: any run of elements.
    Array(Vec<Option<Pattern>>),
}

/// A small parser for JSON with `…` elisions (not JSON, so serde cannot read it).
struct Parser<'a> {
    text: &'a str,
    at: usize,
}

impl Parser<'_> {
    fn skip_space(&mut self) {
        let rest = &self.text[self.at..];
        self.at += rest.len() - rest.trim_start().len();
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_space();
        self.text[self.at..].chars().next()
    }

    fn eat(&mut self, expected: char) -> Result<(), String> {
        match self.peek() {
            Some(c) if c == expected => {
                self.at += c.len_utf8();
                Ok(())
            }
            other => Err(format!(
                "expected `{expected}` at byte {}, found {other:?}",
                self.at
            )),
        }
    }

    /// A `…` standing where a value, member or element could.
    fn eat_ellipsis(&mut self) -> bool {
        let found = self.peek() == Some(ELLIPSIS);
        if found {
            self.at += ELLIPSIS.len_utf8();
        }
        found
    }

    fn value(&mut self) -> Result<Pattern, String> {
        match self.peek() {
            Some(ELLIPSIS) => {
                self.at += ELLIPSIS.len_utf8();
                Ok(Pattern::Any)
            }
            Some('{') => self.object(),
            Some('[') => self.array(),
            Some('"') => {
                let text = self.string()?;
                Ok(if text.contains(ELLIPSIS) {
                    Pattern::Glob(text.split(ELLIPSIS).map(str::to_owned).collect())
                } else {
                    Pattern::Exact(Value::String(text))
                })
            }
            Some(_) => {
                let rest = &self.text[self.at..];
                let end = rest
                    .find(|c: char| c == ',' || c == '}' || c == ']' || c.is_whitespace())
                    .unwrap_or(rest.len());
                self.at += end;
                serde_json::from_str(&rest[..end])
                    .map(Pattern::Exact)
                    .map_err(|e| format!("`{}`: {e}", &rest[..end]))
            }
            None => Err("a value is missing at the end".to_owned()),
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.eat('"')?;
        let start = self.at - 1;
        let mut escaped = false;
        for (offset, c) in self.text[self.at..].char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => {
                    self.at += offset + 1;
                    let literal = &self.text[start..self.at];
                    return serde_json::from_str(literal).map_err(|e| format!("{literal}: {e}"));
                }
                _ => {}
            }
        }
        Err("an unterminated string".to_owned())
    }

    fn object(&mut self) -> Result<Pattern, String> {
        self.eat('{')?;
        let mut members = Vec::new();
        if self.peek() == Some('}') {
            self.at += 1;
            return Ok(Pattern::Object(members));
        }
        loop {
            // A `…` member only says that more keys exist, which objects allow anyway.
            if !self.eat_ellipsis() {
                let key = self.string()?;
                self.eat(':')?;
                members.push((key, self.value()?));
            }
            match self.peek() {
                Some(',') => self.at += 1,
                _ => break,
            }
        }
        self.eat('}')?;
        Ok(Pattern::Object(members))
    }

    fn array(&mut self) -> Result<Pattern, String> {
        self.eat('[')?;
        let mut elements = Vec::new();
        if self.peek() == Some(']') {
            self.at += 1;
            return Ok(Pattern::Array(elements));
        }
        loop {
            if self.eat_ellipsis() {
                elements.push(None);
            } else {
                elements.push(Some(self.value()?));
            }
            match self.peek() {
                Some(',') => self.at += 1,
                _ => break,
            }
        }
        self.eat(']')?;
        Ok(Pattern::Array(elements))
    }
}

fn patterns(text: &str) -> Result<Vec<Pattern>, String> {
    let mut parser = Parser { text, at: 0 };
    let mut found = Vec::new();
    while parser.peek().is_some() {
        found.push(parser.value()?);
    }
    Ok(found)
}

/// Whether `text` is `pieces` joined by any runs of characters.
fn glob(pieces: &[String], text: &str) -> bool {
    let Some((first, rest)) = pieces.split_first() else {
        return text.is_empty();
    };
    let Some(mut remaining) = text.strip_prefix(first.as_str()) else {
        return false;
    };
    let Some((last, middle)) = rest.split_last() else {
        return remaining.is_empty();
    };
    for piece in middle {
        match remaining.find(piece.as_str()) {
            Some(at) => remaining = &remaining[at + piece.len()..],
            None => return false,
        }
    }
    remaining.ends_with(last.as_str())
}

/// Where `actual` breaks `pattern` (a JSON-pointer-like path and why), or `None` if it fits.
fn mismatch(pattern: &Pattern, actual: &Value, path: &str) -> Option<String> {
    match (pattern, actual) {
        (Pattern::Any, _) => None,
        (Pattern::Exact(expected), _) if expected == actual => None,
        (Pattern::Glob(pieces), Value::String(text)) if glob(pieces, text) => None,
        (Pattern::Object(members), Value::Object(map)) => members.iter().find_map(|(key, p)| {
            let path = format!("{path}/{key}");
            match map.get(key) {
                Some(value) => mismatch(p, value, &path),
                None => Some(format!("{path}: missing")),
            }
        }),
        (Pattern::Array(elements), Value::Array(items)) => {
            if array_fits(elements, items) {
                None
            } else if elements.iter().all(Option::is_some) && elements.len() == items.len() {
                // Same length, no elision: name the first element that differs.
                elements
                    .iter()
                    .zip(items)
                    .enumerate()
                    .find_map(|(i, (p, v))| {
                        p.as_ref()
                            .and_then(|p| mismatch(p, v, &format!("{path}/{i}")))
                    })
            } else {
                Some(format!("{path}: expected {pattern:?}, got {actual}"))
            }
        }
        _ => Some(format!("{path}: expected {pattern:?}, got {actual}")),
    }
}

/// Elements in order, each `…` taking any run of items (backtracking; the arrays are short).
fn array_fits(elements: &[Option<Pattern>], items: &[Value]) -> bool {
    match elements.split_first() {
        None => items.is_empty(),
        Some((None, rest)) => (0..=items.len()).any(|skip| array_fits(rest, &items[skip..])),
        Some((Some(p), rest)) => items
            .split_first()
            .is_some_and(|(v, tail)| mismatch(p, v, "").is_none() && array_fits(rest, tail)),
    }
}

/// Every JSON value printed, in order (anything else in the output is skipped).
fn printed_values(output: &str) -> Vec<Value> {
    let mut values = Vec::new();
    let mut rest = output;
    while let Some(start) = rest.find(['{', '[']) {
        let mut stream = serde_json::Deserializer::from_str(&rest[start..]).into_iter::<Value>();
        match stream.next() {
            Some(Ok(value)) => {
                values.push(value);
                rest = &rest[start + stream.byte_offset()..];
            }
            _ => rest = &rest[start + 1..],
        }
    }
    values
}

fn documents() -> Vec<PathBuf> {
    fn markdown_under(dir: &Path, found: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("docs/ is readable")
            .map(|entry| entry.expect("a docs/ entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                markdown_under(&path, found);
            } else if path.extension().is_some_and(|e| e == "md") {
                found.push(path);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = vec![root.join("README.md")];
    markdown_under(&root.join("docs"), &mut found);
    found
}

/// What keeps a document's `sh` blocks pointed at `$BASE`: a document that uses `$BASE` sets it
/// with [`BASE_LINE`] in its first `sh` block, and no line but that one names the address itself.
fn base_problems(name: &str, blocks: &[Block]) -> Vec<String> {
    let sh: Vec<&Block> = blocks.iter().filter(|b| b.lang == "sh").collect();
    let mut problems = Vec::new();
    let uses_base = sh
        .iter()
        .any(|b| b.body.contains("$BASE") || b.body.contains("${BASE"));
    let sets_base = sh
        .first()
        .is_some_and(|b| b.body.lines().any(|l| l.trim() == BASE_LINE));
    if uses_base && !sets_base {
        problems.push(format!(
            "{name}: its sh blocks use $BASE, so its first sh block must set it: {BASE_LINE}"
        ));
    }
    for block in &sh {
        for (offset, line) in block.body.lines().enumerate() {
            let hard_coded = ["localhost:8080", "127.0.0.1:8080"]
                .iter()
                .any(|address| line.contains(address));
            if hard_coded && line.trim() != BASE_LINE {
                problems.push(format!(
                    "{name}:{}: names the service's address instead of using $BASE: {line}",
                    block.line + 1 + offset
                ));
            }
        }
    }
    problems
}

/// One bash script for a document: each `sh` block's output goes to `$OUT/<its line>`, and a
/// failing command names the block it is in.
fn script(name: &str, blocks: &[Block]) -> String {
    let mut script = String::from("cd \"$WORK\"\n");
    script.push_str(&format!(
        "trap 'echo \"{name}: the sh block at line $BLOCK failed\" >&2' ERR\n"
    ));
    for block in blocks.iter().filter(|b| b.lang == "sh") {
        script.push_str(&format!(
            "BLOCK={line}\n{{\n{body}}} > \"$OUT/{line}\"\n",
            line = block.line,
            body = block.body
        ));
    }
    script
}

/// Runs one document against its own fresh service; returns what is wrong with it.
async fn run_document(path: &Path) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let name = path
        .strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string();
    let text = std::fs::read_to_string(path).expect("a readable document");
    let blocks = blocks(&text);
    if !blocks.iter().any(|b| b.lang == "sh") {
        return Vec::new();
    }
    let mut problems = base_problems(&name, &blocks);
    let app = spawn_app().await;
    let script = script(&name, &blocks);
    let out = std::env::temp_dir().join(format!("walkthrough-{}", uuid::Uuid::new_v4().simple()));
    let work = out.join("work");
    std::fs::create_dir_all(&work).expect("a scratch directory");
    let output = {
        let (out, work, base) = (out.clone(), work.clone(), app.base.clone());
        // Blocking on bash here would stall the runtime the app answers on.
        tokio::task::spawn_blocking(move || {
            // A document that hangs fails (status 124) instead of stalling the test run.
            std::process::Command::new("timeout")
                .args(["300", "bash", "-euo", "pipefail", "-c", &script])
                .env("BASE", &base)
                .env("OUT", &out)
                .env("WORK", &work)
                .output()
        })
        .await
        .expect("the bash task")
        .expect("bash runs")
    };
    if !output.status.success() {
        let _ = std::fs::remove_dir_all(&out);
        problems.push(format!(
            "{name}: bash failed ({}):\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
        return problems;
    }
    for pair in blocks.windows(2) {
        let (command, shown) = (&pair[0], &pair[1]);
        if command.lang != "sh" || !shown.follows_previous {
            continue;
        }
        let printed =
            std::fs::read_to_string(out.join(command.line.to_string())).unwrap_or_default();
        let at = format!("{name}:{}", shown.line);
        match shown.lang.as_str() {
            "json" => problems.extend(check_json(&at, &shown.body, &printed)),
            "text" => {
                let pieces: Vec<String> = shown
                    .body
                    .trim()
                    .split(ELLIPSIS)
                    .map(str::to_owned)
                    .collect();
                if !glob(&pieces, printed.trim()) {
                    problems.push(format!("{at}: printed\n{printed}"));
                }
            }
            _ => {}
        }
    }
    let _ = std::fs::remove_dir_all(&out);
    problems
}

fn check_json(at: &str, expected: &str, printed: &str) -> Vec<String> {
    let expected = match patterns(expected) {
        Ok(expected) => expected,
        Err(e) => return vec![format!("{at}: not JSON with `…`: {e}")],
    };
    let values = printed_values(printed);
    if values.len() < expected.len() {
        return vec![format!(
            "{at}: shows {} value(s), the command printed {}:\n{printed}",
            expected.len(),
            values.len()
        )];
    }
    let last = &values[values.len() - expected.len()..];
    expected
        .iter()
        .zip(last)
        .filter_map(|(pattern, value)| {
            mismatch(pattern, value, "").map(|why| format!("{at}: {why}\n  printed: {value}"))
        })
        .collect()
}

#[tokio::test]
async fn every_documented_example_runs_and_prints_what_it_shows() {
    // `WALKTHROUGH=lucky-jack cargo test --test api walkthroughs` runs only the matching pages.
    let only = std::env::var("WALKTHROUGH").unwrap_or_default();
    let tools = std::process::Command::new("bash")
        .args(["-c", "command -v curl jq xxd"])
        .output()
        .expect("bash runs");
    assert!(
        tools.status.success(),
        "the documents' examples need curl, jq and xxd (.ci/run installs them)"
    );
    let mut problems = Vec::new();
    for document in documents()
        .into_iter()
        .filter(|d| d.to_string_lossy().contains(&only))
    {
        problems.extend(run_document(&document).await);
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n\n"));
}

#[test]
fn an_expected_block_is_a_pattern_with_elisions() {
    let shown = r#"{"id":"own_…","n":3,"list":[1, …, 4],"deep":{…}, …}"#;
    let fits = serde_json::json!({"id":"own_x","n":3,"list":[1,2,3,4],"deep":{"a":1},"x":0});
    assert_eq!(
        check_json("t", shown, &fits.to_string()),
        Vec::<String>::new()
    );
    let wrong = serde_json::json!({"id":"own_x","n":4,"list":[1,2,3,4],"deep":{}});
    let found = check_json("t", shown, &wrong.to_string());
    assert!(found[0].contains("/n"), "{found:?}");
    let short = serde_json::json!({"id":"seat_x","n":3,"list":[1,4],"deep":{}});
    assert!(check_json("t", shown, &short.to_string())[0].contains("/id"));
    assert!(!check_json("t", r#"[1, …]"#, "[2, 1]").is_empty());
}

#[test]
fn a_document_sets_base_once_and_never_names_the_address_itself() {
    let good = "```sh\nBASE=${BASE:-http://localhost:8080}\n```\n\ntext\n\n```sh\ncurl -s \"$BASE/v1/games\"\n```\n";
    assert_eq!(base_problems("good", &blocks(good)), Vec::<String>::new());
    let unset = "```sh\ncurl -s $BASE/v1/games\n```\n";
    assert!(base_problems("unset", &blocks(unset))[0].contains("must set it"));
    let hard_coded =
        "```sh\nBASE=${BASE:-http://localhost:8080}\ncurl -s localhost:8080/v1/games\n```\n";
    let found = base_problems("hard", &blocks(hard_coded));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("hard:3:"), "{found:?}");
}
