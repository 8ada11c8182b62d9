//! The record of a match: its log and any earlier ply (rebuilt by replay), its result, its export
//! and the check of an export by replaying it from scratch.

use chrono::{DateTime, Utc};
use serde_json::Value;
use uuid::Uuid;

use super::access::{load, viewer_for, Credential};
use super::wire::{ExportedInput, LogEntry, MatchExport, MatchLog, MatchResult, PlyView};
use crate::games::{Consistent, Game, Seat, Viewer};
use crate::problem::Problem;
use crate::records::{kind_of, seat_infos, stored, winner_names};
use crate::referee::{self, GameInput, Input, RefereeError, ScoreReply, What};
use crate::store::matches::{self as q, EventRow, MatchRow};
use crate::store::Store;
use crate::vocabulary::MatchStatus;
use crate::with_game;

pub(super) fn score_of<G: Game>(state: &G::State) -> ScoreReply {
    ScoreReply {
        breakdown: referee::to_json(&G::score(state)),
        standings: G::standings(state),
        over: G::is_over(state),
    }
}

pub(super) fn log_entry<G: Game>(
    ply: i64,
    seat: Option<Seat>,
    payload: &Value,
    events: &[G::Event],
    viewer: Viewer,
    at: DateTime<Utc>,
) -> LogEntry {
    let full = viewer == Viewer::Full;
    let own_move = seat.is_some_and(|s| viewer == Viewer::Seat(s));
    LogEntry {
        ply,
        seat,
        mv: (seat.is_some() && (full || own_move)).then(|| payload.clone()),
        chance: (seat.is_none() && full).then(|| payload.clone()),
        events: events
            .iter()
            .map(|e| referee::to_json(&G::redact_event(e, viewer)))
            .collect(),
        at,
    }
}

fn typed_inputs<G: Game>(rows: &[EventRow]) -> Result<Vec<GameInput<G>>, Problem> {
    rows.iter()
        .map(|r| {
            Ok(match r.seat {
                Some(seat) => Input::Move {
                    seat: seat as Seat,
                    mv: stored("move", &r.payload)?,
                },
                None => Input::Chance(stored("chance", &r.payload)?),
            })
        })
        .collect()
}

fn replayed<G: Game>(
    row: &MatchRow,
    players: usize,
    rows: &[EventRow],
    upto: Option<usize>,
) -> Result<referee::Replayed<G>, Problem> {
    let inputs = typed_inputs::<G>(rows)?;
    let options: G::Options = stored("options", &row.options)?;
    let options = G::validate_options(&options, players)
        .map_err(|e| Problem::internal(format!("match {} has invalid options: {e}", row.id)))?;
    referee::replay::<G>(options, &inputs, upto).map_err(|(ply, e)| {
        Problem::internal(format!(
            "match {} fails to replay at ply {ply}: {e}",
            row.id
        ))
    })
}

#[tracing::instrument(skip_all, fields(match_id = %id, game = tracing::field::Empty))]
pub async fn log(store: &Store, id: Uuid, token: Option<&str>) -> Result<MatchLog, Problem> {
    let (mut conn, row, seats, credential) = load(store, id, token).await?;
    let viewer = viewer_for(&row, credential);
    let rows = q::events(&mut conn, id).await?;
    let entries = with_game!(kind_of(&row)?, G => {
        let (_, events) = replayed::<G>(&row, seats.len(), &rows, None)?;
        rows.iter()
            .zip(&events)
            .map(|(r, evs)| log_entry::<G>(r.ply, r.seat.map(|s| s as Seat), &r.payload, evs, viewer, r.created_at))
            .collect()
    });
    Ok(MatchLog {
        game: kind_of(&row)?,
        version: row.version,
        entries,
    })
}

/// The match as it stood after `ply` events, rebuilt from the log.
#[tracing::instrument(skip_all, fields(match_id = %id, ply = ply, game = tracing::field::Empty))]
pub async fn at_ply(
    store: &Store,
    id: Uuid,
    ply: i64,
    token: Option<&str>,
) -> Result<PlyView, Problem> {
    let (mut conn, row, seats, credential) = load(store, id, token).await?;
    if !(0..=row.version).contains(&ply) {
        return Err(Problem::not_found(
            "unknown_ply",
            format!(
                "ply {ply} is outside this match's log (0 to {})",
                row.version
            ),
        ));
    }
    let viewer = viewer_for(&row, credential);
    let rows = q::events(&mut conn, id).await?;
    with_game!(kind_of(&row)?, G => {
        let (state, _) = replayed::<G>(&row, seats.len(), &rows, Some(ply as usize))?;
        Ok(PlyView {
            game: G::KIND,
            ply,
            to_act: G::to_act(&state),
            chance_pending: G::chance_pending(&state),
            over: G::is_over(&state),
            view: referee::to_json(&G::view(&state, viewer)),
            standings: G::standings(&state),
        })
    })
}

#[tracing::instrument(skip_all, fields(match_id = %id, game = tracing::field::Empty))]
pub async fn result(store: &Store, id: Uuid, token: Option<&str>) -> Result<MatchResult, Problem> {
    let (_, row, seats, _) = load(store, id, token).await?;
    let score = match &row.result {
        Some(result) => stored("result", result)?,
        None => with_game!(kind_of(&row)?, G => {
            score_of::<G>(&stored::<<G as Game>::State>("state", &row.state)?)
        }),
    };
    let winners = winner_names(&score.standings, &seats);
    Ok(MatchResult {
        game: kind_of(&row)?,
        status: row.status,
        seats: seat_infos(&seats),
        winners,
        breakdown: score.breakdown,
        standings: score.standings,
        over: score.over,
    })
}

#[tracing::instrument(skip_all, fields(match_id = %id, game = tracing::field::Empty))]
pub async fn export(store: &Store, id: Uuid, token: Option<&str>) -> Result<MatchExport, Problem> {
    let (mut conn, row, seats, credential) = load(store, id, token).await?;
    let finished = row.status == MatchStatus::Finished;
    if !finished && credential != Credential::Owner {
        return Err(Problem::forbidden(
            "owner_only",
            "before the match is over only the owner token may export it (the log holds hidden cards)",
        ));
    }
    let rows = q::events(&mut conn, id).await?;
    Ok(MatchExport {
        format: "referee.match/1".to_owned(),
        id: row.id,
        game: kind_of(&row)?,
        rules_version: row.rules_version.clone(),
        options: row.options.clone(),
        players: seats.iter().map(|s| s.player_name.clone()).collect(),
        randomness: row.randomness,
        seed_sha256: row.seed_sha256.clone(),
        seed: if finished { row.seed.clone() } else { None },
        status: row.status,
        version: row.version,
        log: rows
            .into_iter()
            .map(|r| {
                let seat = r.seat.map(|s| s as Seat);
                ExportedInput {
                    ply: r.ply,
                    seat,
                    mv: seat.is_some().then(|| r.payload.clone()),
                    chance: seat.is_none().then_some(r.payload),
                }
            })
            .collect(),
        result: row
            .result
            .as_ref()
            .map(|r| stored("result", r))
            .transpose()?,
        created_at: row.created_at,
        finished_at: row.finished_at,
    })
}

/// Replays an export from scratch and returns the final score: anyone can check a match this way.
#[tracing::instrument(skip_all, fields(match_id = %export.id, game = export.game.slug()))]
pub fn verify_export(export: &MatchExport) -> Result<ScoreReply, RefereeError> {
    with_game!(export.game, G => {
        let options = referee::options::<G>(Some(export.options.clone()), export.players.len())?;
        let mut state = Consistent::<G>::new(options);
        for input in &export.log {
            let typed: GameInput<G> = match (input.seat, &input.mv, &input.chance) {
                (Some(seat), Some(mv), None) => Input::Move { seat, mv: referee::parse(What::Move, mv.clone())? },
                (None, None, Some(chance)) => Input::Chance(referee::parse(What::Chance, chance.clone())?),
                _ => return Err(RefereeError::Malformed {
                    what: What::Log,
                    detail: format!("ply {} needs either a seat and a move, or a chance outcome", input.ply),
                }),
            };
            referee::play_input::<G>(&mut state, &typed)?;
        }
        Ok(score_of::<G>(&state))
    })
}
