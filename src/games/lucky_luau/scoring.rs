//! Lei scoring (rulebook "Scoring" and card texts; RULINGS 4.5–4.7): the one implementation that
//! play, the state's score and the tally all use.

use super::cards::{Card, Colour, Slot};
use super::{
    GuestBonus, HookRule, LuckyLuauViolation, Options, RainbowAssignment, SeatScore, SlotScore,
    GUESTS,
};
use crate::games::{Order, Seat, Standings};

/// Fish Hook in the centre (rulebook: "10 points for being the center card").
pub const HOOK_CENTRE: i64 = 10;
/// Fish Hook off by one ("5 points if off by 1 card").
pub const HOOK_OFF_BY_ONE: i64 = 5;
/// Largest Guest bonus accepted either way.
pub const GUEST_BONUS_LIMIT: i64 = 1000;

/// The printed (or, for pink, optional) value of a plain colour (RULINGS 4.6).
pub fn value(options: &Options, colour: Colour) -> i64 {
    match colour {
        Colour::Yellow => 2,
        Colour::Red => 3,
        Colour::Blue => 4,
        Colour::Pink => options.pink_value,
    }
}

/// The two colours a rare flower is made of (rulebook "act as two colors"; orange per option).
pub fn rare_colours(options: &Options, card: Card) -> Option<[Colour; 2]> {
    match card {
        Card::Purple => Some([Colour::Red, Colour::Blue]),
        Card::Green => Some([Colour::Yellow, Colour::Blue]),
        Card::Orange => Some(options.orange_colours),
        _ => None,
    }
}

/// The Kukui set (rulebook: 1 → 2, 2 → 4, 3 → 8, 4 → 16, nothing more above 4).
pub fn kukui_set(nuts: usize) -> i64 {
    match nuts {
        0 => 0,
        n => 1 << n.min(4),
    }
}

/// The Fish Hook with `left` slots on its left and `right` on its right (linear, RULINGS 4.5).
pub fn hook_points(rule: HookRule, left: usize, right: usize) -> i64 {
    match (left.abs_diff(right), rule) {
        (0, _) => HOOK_CENTRE,
        (1, _) | (2, HookRule::WithinOnePosition) => HOOK_OFF_BY_ONE,
        _ => 0,
    }
}

/// The neighbours of slot `i` in a circular lei of `n` slots: two, one when `n = 2`, none when
/// `n = 1` (rulebook: "the first card may also score points when paired with the last").
pub fn neighbours(i: usize, n: usize) -> Vec<usize> {
    match n {
        0 | 1 => Vec::new(),
        2 => vec![1 - i],
        _ => vec![(i + n - 1) % n, (i + 1) % n],
    }
}

/// A lei scored: each slot and the sum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeiScore {
    /// Each slot, left to right.
    pub slots: Vec<SlotScore>,
    /// Sum of the slot points.
    pub points: i64,
}

struct Scorer<'a> {
    options: &'a Options,
    lei: &'a [Slot],
    /// The colour each slot acts as (Rainbows only).
    acts: Vec<Option<Colour>>,
}

impl Scorer<'_> {
    fn n(&self) -> usize {
        self.lei.len()
    }

    /// Whether slot `j` provides `colour` to a neighbour (RULINGS 4.5 "provides colour c").
    fn provides(&self, j: usize, colour: Colour, to_rare: bool) -> bool {
        let Some(card) = self.lei[j].card() else {
            return false;
        };
        if card.plain() == Some(colour) {
            return true;
        }
        if let Some(colours) = rare_colours(self.options, card) {
            return colours.contains(&colour) && (!to_rare || self.options.rare_provides_to_rare);
        }
        card == Card::Rainbow && self.acts[j] == Some(colour)
    }

    /// "Blue at 3", "Rainbow (as blue) at 8, wrap-around".
    fn describe(&self, i: usize, j: usize) -> String {
        let slot = self.lei[j];
        let name = match (slot, self.acts[j]) {
            (Slot::Rainbow, Some(c)) => format!("Rainbow (as {})", c.word()),
            _ => slot.name().to_owned(),
        };
        let wrap = if self.n() > 2 && i.abs_diff(j) == self.n() - 1 {
            ", wrap-around"
        } else {
            ""
        };
        format!("{name} at {}{wrap}", j + 1)
    }

    fn provider(&self, i: usize, colour: Colour, to_rare: bool) -> Option<usize> {
        neighbours(i, self.n())
            .into_iter()
            .find(|&j| self.provides(j, colour, to_rare))
    }

    /// The natural plain flower next to `i` with `colour`, if any.
    fn natural(&self, i: usize, colour: Colour) -> Option<usize> {
        neighbours(i, self.n())
            .into_iter()
            .find(|&j| self.lei[j].card().and_then(Card::plain) == Some(colour))
    }

    /// Whether Rainbow `i` may act as `colour` (RULINGS L4; `rainbow_chain` option).
    fn rainbow_may_act(&self, i: usize, colour: Colour) -> bool {
        self.natural(i, colour).is_some()
            || (self.options.rainbow_chain
                && neighbours(i, self.n()).into_iter().any(|j| {
                    self.lei[j] == Slot::Rainbow
                        && self.acts[j] == Some(colour)
                        && self.natural(j, colour).is_some()
                }))
    }

    fn slot(&self, i: usize) -> (i64, String) {
        let n = self.n();
        let slot = self.lei[i];
        let Some(card) = slot.card() else {
            return match slot {
                Slot::Hook => {
                    let (left, right) = (i, n - 1 - i);
                    let points = hook_points(self.options.hook_off_by_one, left, right);
                    let how = match points {
                        HOOK_CENTRE => "the centre",
                        HOOK_OFF_BY_ONE => "off by 1 from the centre",
                        _ => "not at the centre",
                    };
                    (points, format!("{left} slots left, {right} right: {how}"))
                }
                _ => (
                    0,
                    "an unfilled Spacer holds a place and scores nothing".into(),
                ),
            };
        };
        if let Some(colour) = card.plain() {
            return match self.provider(i, colour, false) {
                Some(j) => (
                    value(self.options, colour),
                    format!("next to {}", self.describe(i, j)),
                ),
                None => (0, format!("no neighbour provides {}", colour.word())),
            };
        }
        if let Some(colours) = rare_colours(self.options, card) {
            let mut points = 0;
            let mut parts = Vec::new();
            for colour in colours {
                if let Some(j) = self.provider(i, colour, true) {
                    let v = value(self.options, colour);
                    points += v;
                    parts.push(format!(
                        "{} from {} (+{v})",
                        colour.word(),
                        self.describe(i, j)
                    ));
                }
            }
            return if parts.is_empty() {
                (
                    0,
                    format!(
                        "no neighbour provides {} or {}",
                        colours[0].word(),
                        colours[1].word()
                    ),
                )
            } else {
                (points, parts.join(", "))
            };
        }
        match card {
            Card::Rainbow => match self.acts[i] {
                Some(colour) => {
                    let from = self
                        .natural(i, colour)
                        .or_else(|| {
                            neighbours(i, n)
                                .into_iter()
                                .find(|&j| self.lei[j] == Slot::Rainbow)
                        })
                        .map(|j| self.describe(i, j))
                        .unwrap_or_default();
                    (
                        value(self.options, colour),
                        format!("acts as {}, next to {from}", colour.word()),
                    )
                }
                None if self.options.rainbow_assignment == RainbowAssignment::Declared => {
                    (0, "no colour declared".into())
                }
                None => (0, "no plain flower next to it to copy".into()),
            },
            Card::Ti => match neighbours(i, n)
                .into_iter()
                .find(|&j| self.lei[j].card().is_some_and(Card::is_leaf))
            {
                Some(j) => (
                    self.options.ti_value,
                    format!("next to {}", self.describe(i, j)),
                ),
                None => (0, "no leaf next to it".into()),
            },
            Card::Mega => {
                let leaves = self
                    .lei
                    .iter()
                    .filter(|s| s.card().is_some_and(Card::is_leaf))
                    .count();
                (
                    leaves as i64,
                    format!("{leaves} leaves on the lei (Ti and Mega, itself included)"),
                )
            }
            Card::Kukui => {
                let first = self.lei.iter().position(|&s| s == Slot::Kukui);
                if first == Some(i) {
                    let nuts = self.lei.iter().filter(|&&s| s == Slot::Kukui).count();
                    let plural = if nuts == 1 { "" } else { "s" };
                    (
                        kukui_set(nuts),
                        format!("the set: {nuts} Kukui Nut{plural} on the lei"),
                    )
                } else {
                    (
                        0,
                        format!(
                            "counted in the set at position {}",
                            first.map_or(0, |f| f + 1)
                        ),
                    )
                }
            }
            _ => unreachable!("plain and rare flowers are handled above"),
        }
    }

    fn score(&self) -> LeiScore {
        let slots: Vec<SlotScore> = (0..self.n())
            .map(|i| {
                let (points, reason) = self.slot(i);
                SlotScore {
                    position: i + 1,
                    slot: self.lei[i],
                    acts_as: self.acts[i],
                    points,
                    reason,
                }
            })
            .collect();
        let points = slots.iter().map(|s| s.points).sum();
        LeiScore { slots, points }
    }
}

/// Scores a final lei. `declared` gives, for each Rainbow left to right, a declared colour or
/// `None` (missing entries are `None`); undeclared Rainbows take the colours that maximise the
/// lei's points (`auto`, RULINGS 4.5) or none (`declared`). A declared colour a Rainbow may not
/// act as is refused.
pub fn score_lei(
    options: &Options,
    lei: &[Slot],
    declared: &[Option<Colour>],
) -> Result<LeiScore, LuckyLuauViolation> {
    let rainbows: Vec<usize> = (0..lei.len())
        .filter(|&i| lei[i] == Slot::Rainbow)
        .collect();
    let choices: Vec<Vec<Option<Colour>>> = rainbows
        .iter()
        .enumerate()
        .map(|(k, _)| match declared.get(k).copied().flatten() {
            Some(colour) => vec![Some(colour)],
            None if options.rainbow_assignment == RainbowAssignment::Declared => vec![None],
            None => Colour::ALL
                .into_iter()
                .map(Some)
                .chain([None])
                .collect::<Vec<_>>(),
        })
        .collect();
    let mut scorer = Scorer {
        options,
        lei,
        acts: vec![None; lei.len()],
    };
    let mut best: Option<LeiScore> = None;
    let combos: usize = choices.iter().map(Vec::len).product();
    for mut code in 0..combos {
        for (k, &i) in rainbows.iter().enumerate() {
            scorer.acts[i] = choices[k][code % choices[k].len()];
            code /= choices[k].len();
        }
        let valid = rainbows.iter().all(|&i| match scorer.acts[i] {
            Some(colour) => scorer.rainbow_may_act(i, colour),
            None => true,
        });
        if !valid {
            continue;
        }
        let scored = scorer.score();
        if best.as_ref().is_none_or(|b| scored.points > b.points) {
            best = Some(scored);
        }
    }
    best.ok_or_else(|| {
        // Only a declared colour can make every assignment invalid: name the first one.
        let (position, colour) = rainbows
            .iter()
            .zip(declared)
            .find_map(|(&i, d)| {
                d.filter(|&c| scorer.natural(i, c).is_none())
                    .map(|c| (i + 1, c))
            })
            .unwrap_or((0, Colour::Yellow));
        LuckyLuauViolation::RainbowColourNotAdjacent { position, colour }
    })
}

/// Checks reported Guest bonuses: one `[side A, side B]` pair per Guest, within range.
pub fn check_guests(guests: &[GuestBonus]) -> Result<(), LuckyLuauViolation> {
    if guests.len() != GUESTS {
        return Err(LuckyLuauViolation::WrongGuestCount {
            expected: GUESTS,
            got: guests.len(),
        });
    }
    if let Some(&points) = guests
        .iter()
        .flatten()
        .find(|p| p.abs() > GUEST_BONUS_LIMIT)
    {
        return Err(LuckyLuauViolation::GuestBonusOutOfRange { points });
    }
    Ok(())
}

/// One seat's final score: the lei, the Guests on side A, and the tiebreak totals after
/// flipping Guest 1, then 1–2, then 1–3 (rulebook "Tiebreaker", RULINGS 4.5).
pub fn seat_score(
    options: &Options,
    seat: Seat,
    player: Option<String>,
    lei: &[Slot],
    cut: Option<Slot>,
    declared: &[Option<Colour>],
    guests: &[GuestBonus],
) -> Result<SeatScore, LuckyLuauViolation> {
    let scored = score_lei(options, lei, declared)?;
    let bonus = |g: usize, side: usize| guests.get(g).map_or(0, |b| b[side]);
    let guest_points: i64 = (0..GUESTS).map(|g| bonus(g, 0)).sum();
    let tiebreak: Vec<i64> = (1..=GUESTS)
        .map(|flipped| {
            scored.points
                + (0..GUESTS)
                    .map(|g| bonus(g, usize::from(g < flipped)))
                    .sum::<i64>()
        })
        .collect();
    let total = scored.points + guest_points;
    let mut lines: Vec<String> = scored
        .slots
        .iter()
        .map(|s| {
            let name = match (s.slot, s.acts_as) {
                (Slot::Rainbow, Some(c)) => format!("Rainbow (as {})", c.word()),
                (slot, _) => slot.name().to_owned(),
            };
            format!("{}. {name} = {}: {}", s.position, s.points, s.reason)
        })
        .collect();
    if let Some(cut) = cut {
        lines.push(format!("Knife: cut {} (scores nothing)", cut.name()));
    }
    lines.push(format!("Lei: {}", scored.points));
    let sides: Vec<String> = (0..GUESTS).map(|g| bonus(g, 0).to_string()).collect();
    lines.push(format!(
        "Guests (side A): {guest_points:+} ({})",
        sides.join(" + ")
    ));
    lines.push(format!("Total: {total}"));
    Ok(SeatScore {
        seat,
        player,
        slots: scored.slots,
        cut,
        lei_points: scored.points,
        guest_points,
        total,
        tiebreak,
        lines,
    })
}

/// Ranks seats by total, then by the tiebreak totals in order (rulebook "Tiebreaker"); seats
/// still equal after every Guest is flipped share their place (RULINGS L14).
pub fn rank(scores: &[SeatScore], over: bool) -> Standings {
    let key = |s: &SeatScore| {
        let mut key = vec![s.total];
        key.extend(&s.tiebreak);
        key
    };
    let keys: Vec<Vec<i64>> = scores.iter().map(key).collect();
    let ranks: Vec<u32> = keys
        .iter()
        .map(|mine| 1 + keys.iter().filter(|other| *other > mine).count() as u32)
        .collect();
    let winners = if over {
        (0..scores.len()).filter(|&s| ranks[s] == 1).collect()
    } else {
        Vec::new()
    };
    Standings {
        order: Order::HighestWins,
        totals: scores.iter().map(|s| s.total).collect(),
        ranks,
        winners,
    }
}
