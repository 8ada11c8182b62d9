//! One play of an import file checked on its own and made into a closed score sheet, or the
//! reason it is skipped: its game, players, scores, options, standings, dates and id.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::read::{in_range, play_date, ImportFile, ImportPlay};
use crate::games::{Game, GameKind, Highlights, Order, Standings};
use crate::problem::Problem;
use crate::records::check_names;
use crate::referee;
use crate::sheets;
use crate::store::matches::{MatchRow, SeatRow};
use crate::store::plays::NewPlay;
use crate::store::sheets::SheetEntryRow;
use crate::tokens;
use crate::vocabulary::{MatchStatus, SheetEntryKind, Space};
use crate::with_game;

/// The largest score (either way) an imported play may hold, far above any the five games
/// reach, so that totals summed over a lifetime of plays stay far from overflowing.
const MAX_SCORE: i64 = 1_000_000_000;

/// A stable code and a sentence: why a play was skipped, or what to check in one imported.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SkipReason {
    #[schema(example = "unknown_game")]
    pub code: String,
    pub detail: String,
}

/// A play skipped for what the service would refuse of a sheet: the same code and words.
fn skipped_for(problem: &Problem) -> SkipReason {
    skip(&problem.code, problem.detail.clone())
}

pub(super) fn skip(code: &str, detail: impl Into<String>) -> SkipReason {
    SkipReason {
        code: code.to_owned(),
        detail: detail.into(),
    }
}

/// One of the five games, by its slug or its title, ignoring case, spaces and punctuation.
fn game_named(name: &str) -> Option<GameKind> {
    let plain = |text: &str| -> String {
        text.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let wanted = plain(name);
    GameKind::ALL
        .iter()
        .copied()
        .find(|g| plain(g.slug()) == wanted || plain(g.title()) == wanted)
}

/// A score written as a whole number (`"12"`, `12`, `"12.0"`).
fn whole(score: &Value) -> Option<i64> {
    match score {
        Value::Number(n) => n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 9e15)
                .map(|f| f as i64)
        }),
        Value::String(text) => {
            let text = text.trim();
            text.parse::<i64>().ok().or_else(|| {
                text.parse::<f64>()
                    .ok()
                    .filter(|f| f.fract() == 0.0 && f.abs() < 9e15)
                    .map(|f| f as i64)
            })
        }
        _ => None,
    }
}

/// Highlights as brag figures: a few short keys with figures no larger than a score.
fn checked_highlights(highlights: Option<&Highlights>) -> Option<Value> {
    let highlights = highlights?;
    (highlights.len() <= 32
        && highlights.keys().all(|k| k.len() <= 64)
        && highlights.values().all(|v| v.abs() <= MAX_SCORE))
    .then(|| serde_json::to_value(highlights).ok())
    .flatten()
}

/// A play's id: its own when it is a UUID (BG Stats' and this service's are), else one derived
/// from the play's content, so the same play imported twice is found the second time.
fn play_id(play: &ImportPlay, names: &[String], scores: &[i64], space: Space) -> Uuid {
    use sha2::{Digest, Sha256};
    let given = play
        .uuid
        .as_deref()
        .and_then(|u| Uuid::try_parse(u.trim()).ok());
    // The play's own id in the public space; in a household, one drawn from it, so the same
    // file brought into two households (or the public space) is two sets of plays.
    let scope = space.scope("referee/import");
    let digest = match given {
        Some(id) if space.is_public() => return id,
        Some(id) => Sha256::digest(format!("{scope}/{id}")),
        None => Sha256::digest(format!(
            "{scope}/{}/{}/{names:?}/{scores:?}",
            play.game_ref_id, play.play_date
        )),
    };
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    uuid::Builder::from_sha1_bytes(bytes).into_uuid()
}

/// A play of the file checked and made into a closed sheet, or the reason it is skipped.
pub(super) struct Planned {
    pub(super) play: NewPlay,
    pub(super) owner_token: String,
    /// What the family should check in the play, kept as the file has it.
    pub(super) notes: Vec<SkipReason>,
}

pub(super) fn plan(
    file: &ImportFile,
    play: &ImportPlay,
    now: DateTime<Utc>,
    space: Space,
) -> Result<Planned, SkipReason> {
    let listed = file.game(play.game_ref_id);
    let game_name = listed.map_or("", |g| g.name.as_str());
    let game = match &play.referee {
        Some(ours) => ours.game,
        None => game_named(game_name).ok_or_else(|| {
            skip(
                "unknown_game",
                format!("{game_name:?} is none of the games this service referees"),
            )
        })?,
    };
    if play.uses_teams || listed.is_some_and(|g| g.uses_teams || g.cooperative) {
        return Err(skip(
            "teams_not_supported",
            "a team or cooperative play has no place in these games' standings",
        ));
    }
    let abandoned_by = play.referee.as_ref().and_then(|r| r.abandoned_by);
    if play.ignored && abandoned_by.is_none() {
        return Err(skip(
            "ignored_play",
            "BG Stats leaves this play out of its statistics, and so does the import",
        ));
    }
    let anonymous: Vec<bool> = play
        .player_scores
        .iter()
        .map(|s| file.player(s.player_ref_id).is_some_and(|p| p.is_anonymous))
        .collect();
    let mut nobody = 0;
    let typed: Vec<String> = play
        .player_scores
        .iter()
        .zip(&anonymous)
        .map(|(s, &anonymous)| {
            let name = file.player(s.player_ref_id).map_or("", |p| p.name.as_str());
            // Two anonymous seats are two seats: the second is numbered.
            nobody += usize::from(anonymous);
            match nobody {
                2.. if anonymous => format!("{name} {nobody}"),
                _ => name.to_owned(),
            }
        })
        .collect();
    let names = check_names(typed.iter().map(String::as_str)).map_err(|p| skipped_for(&p))?;
    let scores: Vec<Option<i64>> = play.player_scores.iter().map(|s| whole(&s.score)).collect();
    let finished = abandoned_by.is_none();
    if finished && scores.iter().any(Option::is_none) {
        return Err(skip(
            "score_not_whole",
            "every player of a finished play needs a whole-number score",
        ));
    }
    if scores.iter().flatten().any(|s| s.abs() > MAX_SCORE) {
        return Err(skip(
            "score_out_of_range",
            format!("a score is between -{MAX_SCORE} and {MAX_SCORE}"),
        ));
    }
    let options_sent = play.referee.as_ref().map(|r| r.options.clone());
    let (options, order) = with_game!(game, G => {
        let options = referee::options::<G>(options_sent, names.len())
            .map_err(|e| skipped_for(&Problem::from(e)))?;
        let order = G::tally_standings(options.options(), names.len(), &[]).0.order;
        (referee::to_json(options.options()), order)
    });
    let totals: Vec<i64> = scores.iter().map(|s| s.unwrap_or_default()).collect();
    let standings = standings_of(play, &totals, order, finished);
    let notes = ranks_against_scores(&names, &standings)
        .into_iter()
        .collect();
    let ended_at = match &play.referee {
        Some(ours) => ours.ended_at,
        None => play_date(&play.play_date).unwrap_or(now),
    };
    if !in_range(&ended_at) {
        return Err(skip(
            "play_date_out_of_range",
            "a play is dated from 1970 to 9999",
        ));
    }
    let started = match &play.referee {
        Some(ours) => ours.created_at.min(ended_at),
        None => {
            ended_at - chrono::Duration::minutes(play.duration_min.unwrap_or(0).clamp(0, 24 * 60))
        }
    };
    let created_at = if in_range(&started) {
        started
    } else {
        ended_at
    };
    let id = play_id(play, &names, &totals, space);
    let (owner_token, owner_hash) =
        tokens::issue("own").map_err(|e| skip("internal", e.to_string()))?;
    let seat_extras = play
        .referee
        .as_ref()
        .map(|r| r.seats.as_slice())
        .unwrap_or_default();
    let standings_json =
        serde_json::to_value(&standings).map_err(|e| skip("internal", e.to_string()))?;
    let state = serde_json::json!({"rounds": [], "standings": standings_json});
    let (blank, blank_seats) = sheets::new_rows(
        (id, space),
        game,
        options,
        owner_hash,
        &names,
        state,
        created_at,
    );
    let row = MatchRow {
        status: if finished {
            MatchStatus::Finished
        } else {
            MatchStatus::Abandoned
        },
        version: 1,
        result: finished.then(|| serde_json::json!({"standings": standings_json})),
        updated_at: ended_at,
        finished_at: finished.then_some(ended_at),
        lowest_wins: finished.then_some(order == Order::LowestWins),
        ..blank
    };
    let seats: Vec<SeatRow> = blank_seats
        .into_iter()
        .map(|seat| {
            let index = seat.seat as usize;
            let extras = seat_extras.get(index).and_then(|s| s.highlights.as_ref());
            let (player_key, anonymous) = match anonymous[index] {
                true => (space.scoped(String::new()), true),
                false => (seat.player_key, false),
            };
            SeatRow {
                player_key,
                anonymous,
                final_score: finished.then(|| standings.totals[index]),
                final_rank: finished.then(|| standings.ranks[index] as i32),
                winner: finished.then(|| standings.winners.contains(&index)),
                highlights: finished.then(|| checked_highlights(extras)).flatten(),
                ..seat
            }
        })
        .collect();
    let entry = SheetEntryRow {
        match_id: id,
        seq: 1,
        kind: SheetEntryKind::Import,
        round: 0,
        tally: None,
        corrects: None,
        note: Some("Imported from a BG Stats file".to_owned()),
        created_at: now,
        idempotency_key: None,
        request_hash: None,
        renamed: None,
        imported: Some(standings_json),
    };
    Ok(Planned {
        play: NewPlay {
            row,
            seats,
            entry,
            abandoned: abandoned_by.map(|by| (by, ended_at)),
        },
        owner_token,
        notes,
    })
}

/// What the import notes when a play's own ranks put a player below someone who scored worse in
/// the game's order: the play is kept as the file ranks it (a table may break a tie or settle a
/// dispute its own way), but the family is told, since the ranks are what ratings count.
fn ranks_against_scores(names: &[String], standings: &Standings) -> Option<SkipReason> {
    let better = |a, b| standings.order.better(a, b);
    let (totals, ranks) = (&standings.totals, &standings.ranks);
    let seats = 0..totals.len();
    let (above, below) = seats
        .clone()
        .flat_map(|a| seats.clone().map(move |b| (a, b)))
        .find(|&(a, b)| better(totals[b], totals[a]) && ranks[a] < ranks[b])?;
    Some(skip(
        "ranks_contradict_scores",
        format!(
            "the file ranks {} {} with {} points above {} {} with {}: kept as the file ranks \
             it; if that is a mistake, correct it in BG Stats and import again",
            names[above],
            ordinal(ranks[above]),
            totals[above],
            names[below],
            ordinal(ranks[below]),
            totals[below],
        ),
    ))
}

/// 1st, 2nd, 3rd, 4th...
fn ordinal(rank: u32) -> String {
    let suffix = match (rank % 10, rank % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{rank}{suffix}")
}

/// The play's standings: its ranks when every player has one from 1 to the number of players,
/// else ranked by score in the game's order; its winners when the file marks some, else those
/// ranked first. An abandoned play has no winners.
fn standings_of(play: &ImportPlay, totals: &[i64], order: Order, finished: bool) -> Standings {
    let players = totals.len() as i64;
    let ranked = Standings::rank(totals.to_vec(), order, finished);
    let given: Vec<u32> = play.player_scores.iter().map(|s| s.rank as u32).collect();
    let ranks = if play
        .player_scores
        .iter()
        .all(|s| (1..=players).contains(&s.rank))
    {
        given
    } else {
        ranked.ranks
    };
    let marked: Vec<usize> = (0..totals.len())
        .filter(|&i| play.player_scores[i].winner)
        .collect();
    let winners = if !finished {
        Vec::new()
    } else if marked.is_empty() {
        (0..totals.len()).filter(|&i| ranks[i] == 1).collect()
    } else {
        marked
    };
    Standings {
        order,
        totals: totals.to_vec(),
        ranks,
        winners,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_found_by_title_or_slug_ignoring_case_spaces_and_punctuation() {
        assert_eq!(game_named("Plus & Minus"), Some(GameKind::PlusMinus));
        assert_eq!(game_named("plus-minus"), Some(GameKind::PlusMinus));
        assert_eq!(game_named("LUCKY JACK"), Some(GameKind::LuckyJack));
        assert_eq!(game_named("Catan"), None);
    }

    #[test]
    fn scores_are_whole_numbers_written_as_text_or_numbers() {
        assert_eq!(whole(&Value::from("12")), Some(12));
        assert_eq!(whole(&Value::from(" -3 ")), Some(-3));
        assert_eq!(whole(&Value::from("40.0")), Some(40));
        assert_eq!(whole(&serde_json::json!(7)), Some(7));
        assert_eq!(whole(&Value::from("12.5")), None);
        assert_eq!(whole(&Value::from("")), None);
        assert_eq!(whole(&Value::Null), None);
    }
}
