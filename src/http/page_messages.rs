//! The page's catalogue of messages (`web/messages.js`) has words for every problem code the
//! service can send: a code without them would reach a family as the service's English title.

use std::collections::BTreeSet;
use std::path::Path;

use crate::games::kit::refusal::{Common, Unnamed};
use crate::games::{luck_plus, lucky_dice, lucky_jack, lucky_luau, plus_minus};
use crate::problem::Code;
use crate::referee::{MendRefusal, Reporter, Settled, What};

/// The catalogue's codes: the keys of its English table, one `code: ...` a line at the table's
/// own indentation (four spaces; alternatives and word lists sit deeper).
fn catalogue_codes(source: &str) -> BTreeSet<String> {
    let start = source
        .find("\n  en: {\n")
        .expect("messages.js has an `en: {` table");
    let mut codes = BTreeSet::new();
    for line in source[start..].lines().skip(2) {
        if line.starts_with("  }") {
            break;
        }
        let Some(rest) = line.strip_prefix("    ") else {
            continue;
        };
        if rest.starts_with(' ') {
            continue;
        }
        if let Some((key, _)) = rest.split_once(':') {
            if !key.is_empty()
                && key
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            {
                codes.insert(key.to_owned());
            }
        }
    }
    codes
}

/// Every problem code the service can send.
fn service_codes() -> BTreeSet<String> {
    let mut codes: BTreeSet<String> = Code::ALL
        .iter()
        .map(|code| code.as_str().to_owned())
        .collect();
    let games: [&[(&str, &str)]; 5] = [
        luck_plus::LuckPlusViolation::VARIANTS,
        lucky_dice::LuckyDiceViolation::VARIANTS,
        lucky_jack::LuckyJackViolation::VARIANTS,
        lucky_luau::LuckyLuauViolation::VARIANTS,
        plus_minus::PlusMinusViolation::VARIANTS,
    ];
    codes.extend(
        games
            .iter()
            .flat_map(|v| v.iter().map(|(_, code)| (*code).to_owned())),
    );
    let common: [Common<Unnamed>; 4] = [
        Common::GameOver,
        Common::ChancePending(Unnamed),
        Common::UnknownSeat {
            seat: 0,
            players: 2,
        },
        Common::NoChancePending,
    ];
    codes.extend(common.iter().map(|c| c.code().to_owned()));
    let mendings = [
        MendRefusal::NothingToTakeBack { seat: 0 },
        MendRefusal::NothingToCorrect,
        MendRefusal::Settled {
            ply: 1,
            why: Settled::Revealed { ply: 2 },
        },
        MendRefusal::Settled {
            ply: 1,
            why: Settled::OtherSeatActed { ply: 2, seat: 1 },
        },
        MendRefusal::Settled {
            ply: 1,
            why: Settled::ChanceSince { ply: 2 },
        },
        MendRefusal::Settled {
            ply: 1,
            why: Settled::MovedSince { ply: 2 },
        },
        MendRefusal::Settled {
            ply: 1,
            why: Settled::Drawn,
        },
        MendRefusal::NotTheReporter {
            ply: 1,
            reported_by: Reporter::Owner,
        },
        MendRefusal::SameOutcome { ply: 1 },
        MendRefusal::TakeBackLimit { seat: 0, limit: 3 },
    ];
    codes.extend(mendings.iter().map(|m| m.code().to_owned()));
    let parts = [
        What::Move,
        What::Chance,
        What::Options,
        What::State,
        What::Tally,
        What::Log,
        What::Part,
    ];
    codes.extend(parts.iter().map(|w| w.code().to_owned()));
    codes
}

fn catalogue() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("web/messages.js")).unwrap()
}

#[test]
fn the_page_has_words_for_every_problem_code_the_service_sends() {
    let words = catalogue_codes(&catalogue());
    let codes = service_codes();
    // Sanity: the gathering found each kind of code.
    for code in [
        "malformed_body",
        "card_not_in_hand",
        "unknown_seat",
        "another_seat_acted",
        "invalid_chance",
        "unknown_entry",
    ] {
        assert!(codes.contains(code), "{code} not gathered");
    }
    let missing: Vec<&String> = codes.iter().filter(|c| !words.contains(*c)).collect();
    assert!(
        missing.is_empty(),
        "web/messages.js has no message for these problem codes: {missing:?}"
    );
    // The page's own pseudo-code for a service it cannot reach.
    assert!(words.contains("offline"), "web/messages.js lacks `offline`");
}

#[test]
fn a_removed_message_is_noticed() {
    let source = catalogue();
    let line = source
        .lines()
        .find(|line| line.starts_with("    card_not_in_hand:"))
        .expect("card_not_in_hand has a message");
    let without = source.replacen(&format!("{line}\n"), "", 1);
    let words = catalogue_codes(&without);
    assert!(!words.contains("card_not_in_hand"));
    assert!(words.contains("not_your_turn") && words.contains("limit_exceeded"));
}

/// Each game's refusals with their fields, read from `src/games/*/violation.rs`: the lines
/// `"code" Variant {` and the `name: Type,` lines up to its `},`.
fn violation_fields() -> std::collections::BTreeMap<String, BTreeSet<String>> {
    let mut fields = std::collections::BTreeMap::<String, BTreeSet<String>>::new();
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games");
    for entry in std::fs::read_dir(games).unwrap() {
        let file = entry.unwrap().path().join("violation.rs");
        let Ok(source) = std::fs::read_to_string(file) else {
            continue;
        };
        let mut current: Option<String> = None;
        for line in source.lines().map(str::trim) {
            if let Some(rest) = line.strip_prefix('"') {
                if let Some((code, variant)) = rest.split_once("\" ") {
                    fields.entry(code.to_owned()).or_default();
                    current = variant.ends_with('{').then(|| code.to_owned());
                    continue;
                }
            }
            let Some(code) = &current else { continue };
            if line.starts_with('}') {
                current = None;
            } else if let Some((name, _)) = line.split_once(':') {
                if !name.starts_with("//") && !name.starts_with('#') {
                    fields.get_mut(code).unwrap().insert(name.trim().to_owned());
                }
            }
        }
    }
    fields
}

/// The placeholders of each code's message(s) in the catalogue's English table.
fn catalogue_placeholders(source: &str) -> std::collections::BTreeMap<String, BTreeSet<String>> {
    let start = source.find("\n  en: {\n").unwrap();
    let mut found = std::collections::BTreeMap::<String, BTreeSet<String>>::new();
    let mut current: Option<String> = None;
    for line in source[start..].lines().skip(2) {
        if line.starts_with("  }") {
            break;
        }
        if let Some(rest) = line.strip_prefix("    ").filter(|r| !r.starts_with(' ')) {
            current = rest
                .split_once(':')
                .map(|(key, _)| key.to_owned())
                .filter(|key| !key.starts_with('_') && !key.starts_with("//"));
        }
        let Some(code) = &current else { continue };
        let mut rest = line;
        while let Some(open) = rest.find('{') {
            rest = &rest[open + 1..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && rest[name.len()..].starts_with('}') {
                found.entry(code.clone()).or_default().insert(name);
            }
        }
    }
    found
}

/// A game's refusal is worded from its own fields: a placeholder no game's variant of that code
/// has would leave the message unfilled (and the page would fall back to the title).
#[test]
fn each_games_refusal_is_worded_from_its_own_fields() {
    let titled: BTreeSet<&str> = Code::ALL.iter().map(|code| code.as_str()).collect();
    let fields = violation_fields();
    assert!(fields["not_adjacent_rank"].contains("top"), "{fields:?}");
    let placeholders = catalogue_placeholders(&catalogue());
    let mut wrong = Vec::new();
    for (code, names) in &placeholders {
        // Codes other sources also send (with other parameters) are left to the browser test.
        let Some(own) = fields.get(code).filter(|_| !titled.contains(code.as_str())) else {
            continue;
        };
        for name in names {
            let base = name.strip_suffix("_number").unwrap_or(name);
            if !own.contains(base) {
                wrong.push(format!("{code}: {{{name}}}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "placeholders that no game's refusal of that code carries: {wrong:?}"
    );
}
