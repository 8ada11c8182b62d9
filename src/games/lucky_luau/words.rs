//! Typed leis: the card words a person writes on a score sheet, turned into slots.

use super::cards::{Card, Colour, Slot};
use super::{LeiText, LuckyLuauViolation, Tool};
use crate::games::Seat;

/// A lei read from words.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ParsedLei {
    /// The slots, left to right.
    pub lei: Vec<Slot>,
    /// For each Rainbow left to right, its declared colour (`rainbow:blue`).
    pub declared: Vec<Option<Colour>>,
    /// What the Knife cut (`cut:yellow`).
    pub cut: Option<Slot>,
}

fn colour_word(word: &str) -> Option<Colour> {
    Some(match word {
        "yellow" => Colour::Yellow,
        "red" => Colour::Red,
        "blue" => Colour::Blue,
        "pink" => Colour::Pink,
        _ => return None,
    })
}

/// One slot word (no prefix): a card name, `hook` or `spacer`, with the usual aliases.
pub fn slot_word(word: &str) -> Option<Slot> {
    if let Some(colour) = colour_word(word) {
        return Some(colour.card().into());
    }
    Some(match word {
        "purple" => Slot::Purple,
        "orange" => Slot::Orange,
        "green" => Slot::Green,
        "rainbow" => Slot::Rainbow,
        "ti" | "ti_leaf" | "leaf" => Slot::Ti,
        "mega" | "mega_leaf" => Slot::Mega,
        "kukui" | "kukui_nut" | "nut" => Slot::Kukui,
        "hook" | "fish_hook" => Slot::Hook,
        "spacer" => Slot::Spacer,
        _ => return None,
    })
}

fn words(text: &LeiText) -> Vec<String> {
    let split = |s: &str| -> Vec<String> {
        s.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .map(|w| w.to_lowercase().replace('-', "_"))
            .collect()
    };
    match text {
        LeiText::Words(s) => split(s),
        LeiText::List(list) => list.iter().flat_map(|s| split(s)).collect(),
    }
}

/// Reads a typed lei: card words, `rainbow:<colour>`, `cut:<card>`; at most one Fish Hook, one
/// Spacer and one Knife per player.
pub fn parse_lei(seat: Seat, text: &LeiText) -> Result<ParsedLei, LuckyLuauViolation> {
    let mut parsed = ParsedLei::default();
    for word in words(text) {
        let unknown = || LuckyLuauViolation::UnknownCardWord {
            seat,
            word: word.clone(),
        };
        let (head, tail) = match word.split_once([':', '=']) {
            Some((h, t)) => (h, Some(t)),
            None => (word.as_str(), None),
        };
        match (head, tail) {
            ("cut" | "knife", Some(what)) => {
                if parsed.cut.is_some() {
                    return Err(LuckyLuauViolation::ToolUsedTwice {
                        seat,
                        tool: Tool::Knife,
                    });
                }
                parsed.cut = Some(slot_word(what).ok_or_else(unknown)?);
            }
            ("rainbow", Some(colour)) => {
                parsed.lei.push(Slot::Rainbow);
                parsed
                    .declared
                    .push(Some(colour_word(colour).ok_or_else(unknown)?));
            }
            (_, Some(_)) => return Err(unknown()),
            (word, None) => {
                let slot = slot_word(word).ok_or_else(unknown)?;
                if slot == Slot::Rainbow {
                    parsed.declared.push(None);
                }
                parsed.lei.push(slot);
            }
        }
    }
    for (slot, tool) in [(Slot::Hook, Tool::Hook), (Slot::Spacer, Tool::Spacer)] {
        let uses = parsed.lei.iter().filter(|&&s| s == slot).count()
            + usize::from(parsed.cut == Some(slot));
        if uses > 1 {
            return Err(LuckyLuauViolation::ToolUsedTwice { seat, tool });
        }
    }
    Ok(parsed)
}

/// The pile cards a parsed lei accounts for (on the lei and cut).
pub fn cards_of(parsed: &ParsedLei) -> impl Iterator<Item = Card> + '_ {
    parsed
        .lei
        .iter()
        .chain(parsed.cut.iter())
        .filter_map(|s| s.card())
}
