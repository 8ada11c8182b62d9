//! The record of a match: its log and any earlier ply (rebuilt by replay), its result, its export
//! and the check of an export by replaying it from scratch.
//!
//! A log can be long (up to [`limits::MATCH_PLIES`] plies), so nothing here reads it whole: a
//! replay reads the events in keyset chunks ([`crate::store::events`]), a page of the log keeps
//! only its own entries, and the export is streamed.

use diesel_async::AsyncPgConnection;
use uuid::Uuid;

use super::access::{load, load_for_replay, viewer_for, Credential, Who};
use super::current::{stored_state, Logged, Stored};
use super::wire::{ExportedInput, LogEntry, LogQuery, MatchExport, MatchLog, MatchResult, PlyView};
use crate::games::{Consistent, Game, Seat, Viewer};
use crate::payloads::RawJson;
use crate::problem::{Code, Problem};
use crate::records::{kind_of, seat_infos, stored, winner_names};
use crate::referee::{self, Entry, Mendable, RefereeError, Reporter, ScoreReply, What};
use crate::store::events::{self, LoggedEvent};
use crate::store::matches::MatchRow;
use crate::store::Store;
use crate::vocabulary::{limits, MatchStatus, RandomnessMode};
use crate::with_game;
use serde_json::Value;

pub(super) fn score_of<G: Game>(state: &G::State) -> ScoreReply {
    ScoreReply {
        breakdown: referee::to_json(&G::score(state)),
        standings: G::standings(state),
        over: G::is_over(state),
    }
}

/// A stored entry of the log as `viewer` may see it, with the events replaying it made. `table`:
/// the match's chance is reported by its table (not drawn by the server).
pub(super) fn log_entry<G: Game>(
    entry: Stored,
    table: bool,
    events: &[G::Event],
    viewer: Viewer,
) -> LogEntry {
    let full = viewer == Viewer::Full;
    let seat = entry.seat.map(|s| s as Seat);
    let own = seat.is_some_and(|s| viewer == Viewer::Seat(s));
    let (takes_back, corrects) = entry.mends();
    LogEntry {
        ply: entry.ply,
        seat,
        mv: (seat.is_some() && takes_back.is_none() && (full || own))
            .then(|| entry.payload.clone()),
        chance: (seat.is_none() && full).then(|| entry.payload.clone()),
        takes_back,
        corrects,
        reported_by: entry.reporter(table),
        events: events
            .iter()
            .map(|e| referee::to_json(&G::redact_event(e, viewer)))
            .collect(),
        at: entry.at,
    }
}

/// Replays a stored match through ply `upto`, reading its events in chunks of
/// [`events::CHUNK_ROWS`], and hands each ply after `after` with its events to `each`. It starts
/// from the newest kept snapshot at `after` or before (from the setup if there is none), so a
/// page deep in a long match replays at most one snapshot interval before it. Memory stays
/// bounded by one chunk (plus whatever `each` keeps), however long the match. A log that does not
/// replay, or misses a ply, is an internal error naming the ply.
async fn walk<G: Game>(
    conn: &mut AsyncPgConnection,
    row: &MatchRow,
    players: usize,
    (after, upto): (i64, i64),
    mut each: impl FnMut(&LoggedEvent, Vec<G::Event>),
) -> Result<Consistent<G>, Problem> {
    let (mut last, mut state) = match events::snapshot_at_or_before(conn, row.id, after).await? {
        Some((ply, state)) => (ply, stored_state::<G>(stored("state", &state)?)?),
        None => {
            let options: G::Options = stored("options", &row.options)?;
            let options = G::validate_options(&options, players).map_err(|e| {
                Problem::internal(format!("match {} has invalid options: {e}", row.id))
            })?;
            (0, Consistent::<G>::new(options))
        }
    };
    let missing = |ply: i64| {
        Problem::internal(format!(
            "match {} is at version {} but its log has no ply {ply}",
            row.id, row.version
        ))
    };
    while last < upto {
        let chunk = events::chunk(conn, row.id, last, upto, events::CHUNK_ROWS).await?;
        if chunk.is_empty() {
            return Err(missing(last + 1));
        }
        for event in &chunk {
            if event.ply != last + 1 {
                return Err(missing(last + 1));
            }
            let events = Logged::<G>::of(event.into())?
                .play(&mut state)
                .map_err(|e| {
                    Problem::internal(format!(
                        "match {} fails to replay at ply {}: {e}",
                        row.id, event.ply
                    ))
                })?;
            last = event.ply;
            if event.ply > after {
                each(event, events);
            }
        }
    }
    Ok(state)
}

/// The entries of the log with `after < ply <= upto`, as the viewer may see them.
async fn log_entries(
    conn: &mut AsyncPgConnection,
    row: &MatchRow,
    players: usize,
    viewer: Viewer,
    after: i64,
    upto: i64,
) -> Result<Vec<LogEntry>, Problem> {
    let mut entries = Vec::with_capacity((upto - after).clamp(0, limits::LOG_PAGE_MAX) as usize);
    let table = row.randomness == RandomnessMode::Table;
    with_game!(kind_of(row)?, G => {
        walk::<G>(conn, row, players, (after, upto), |event, events| {
            entries.push(log_entry::<G>(event.into(), table, &events, viewer));
        })
        .await?;
    });
    Ok(entries)
}

/// The log after ply `after`, every ply as the token's holder may see it: what a live stream
/// resumed at `after` has missed. `GET /log` answers it in pages: [`log_page`].
#[tracing::instrument(skip_all, fields(match_id = %id, game = tracing::field::Empty))]
pub(super) async fn log_after(
    store: &Store,
    id: Uuid,
    who: Who<'_>,
    after: i64,
) -> Result<MatchLog, Problem> {
    let (mut conn, row, seats, credential) = load_for_replay(store, id, who).await?;
    let viewer = viewer_for(&row, credential);
    let entries = log_entries(&mut conn, &row, seats.len(), viewer, after, row.version).await?;
    Ok(MatchLog {
        game: kind_of(&row)?,
        version: row.version,
        entries,
        next_after: None,
    })
}

/// One page of the log: the plies after `after`, at most `limit` of them, as the token's holder
/// may see them, and where the next page starts. Producing them replays the match from its
/// setup, chunk by chunk: memory holds a chunk and a page, never the whole match.
#[tracing::instrument(skip_all, fields(match_id = %id, game = tracing::field::Empty))]
pub async fn log_page(
    store: &Store,
    id: Uuid,
    who: Who<'_>,
    page: LogQuery,
) -> Result<MatchLog, Problem> {
    let limit =
        crate::records::page_limit(page.limit, limits::LOG_PAGE_DEFAULT, limits::LOG_PAGE_MAX)?;
    let after = page.after.unwrap_or(0);
    if after < 0 {
        return Err(Problem::new(
            Code::InvalidQuery,
            "after is a ply: 0 or more",
        ));
    }
    let (mut conn, row, seats, credential) = load_for_replay(store, id, who).await?;
    if after > row.version {
        let mut problem = Problem::new(
            Code::UnknownPly,
            format!(
                "ply {after} is beyond this match's log (0 to {}); start again from a smaller `after`",
                row.version
            ),
        );
        problem.params = Some(serde_json::json!({"after": after, "version": row.version}));
        return Err(problem);
    }
    let viewer = viewer_for(&row, credential);
    let upto = after.saturating_add(limit).min(row.version);
    let entries = log_entries(&mut conn, &row, seats.len(), viewer, after, upto).await?;
    Ok(MatchLog {
        game: kind_of(&row)?,
        version: row.version,
        entries,
        next_after: (upto < row.version).then_some(upto),
    })
}

/// The match as it stood after `ply` events, rebuilt from the log.
#[tracing::instrument(skip_all, fields(match_id = %id, ply = ply, game = tracing::field::Empty))]
pub async fn at_ply(store: &Store, id: Uuid, ply: i64, who: Who<'_>) -> Result<PlyView, Problem> {
    let (mut conn, row, seats, credential) = load_for_replay(store, id, who).await?;
    if !(0..=row.version).contains(&ply) {
        return Err(Problem::new(
            Code::UnknownPly,
            format!(
                "ply {ply} is outside this match's log (0 to {})",
                row.version
            ),
        ));
    }
    let viewer = viewer_for(&row, credential);
    with_game!(kind_of(&row)?, G => {
        let state = walk::<G>(&mut conn, &row, seats.len(), (ply, ply), |_, _| {}).await?;
        Ok(PlyView {
            game: G::KIND,
            ply,
            to_act: G::to_act(&state),
            chance_pending: G::chance_pending(&state),
            over: G::is_over(&state),
            view: RawJson::of(&G::view(&state, viewer)),
            standings: G::standings(&state),
        })
    })
}

#[tracing::instrument(skip_all, fields(match_id = %id, game = tracing::field::Empty))]
pub async fn result(store: &Store, id: Uuid, who: Who<'_>) -> Result<MatchResult, Problem> {
    let (_, row, seats, _) = load(store, id, who).await?;
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

/// A match's export, ready to be sent: the document of [`MatchExport`] written out piece by piece
/// ([`ExportBody::into_stream`]), its log read in chunks, so that a long match is never held in
/// memory whole.
pub struct ExportBody {
    store: Store,
    id: Uuid,
    version: i64,
    /// Whether the match's chance is reported by its table (not drawn by the server).
    table: bool,
    /// The document up to and including `"log":[`.
    head: String,
    /// The document from the `]` that closes the log.
    tail: String,
}

/// Where an export's stream has got to.
enum Part {
    Head,
    Log { after: i64 },
    Tail,
    Done,
}

/// Everything about the match but its log, checked and ready to be streamed
/// ([`ExportBody::into_stream`]).
#[tracing::instrument(skip_all, fields(match_id = %id, game = tracing::field::Empty))]
pub async fn export(store: &Store, id: Uuid, who: Who<'_>) -> Result<ExportBody, Problem> {
    let (mut conn, row, seats, credential) = load_for_replay(store, id, who).await?;
    let finished = row.status == MatchStatus::Finished;
    if !finished && credential != Credential::Owner {
        return Err(Problem::new(
            Code::OwnerOnly,
            "before the match is over only the owner token may export it (the log holds hidden cards)",
        ));
    }
    let document = MatchExport {
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
        log: Vec::new(),
        result: row
            .result
            .as_ref()
            .map(|r| stored("result", r))
            .transpose()?,
        created_at: row.created_at,
        finished_at: row.finished_at,
        abandoned: match row.status {
            MatchStatus::Abandoned => crate::store::stat_reads::abandon_of(&mut conn, id).await?,
            _ => None,
        },
    };
    drop(conn);
    let (head, tail) = cut_at_log(&document)?;
    Ok(ExportBody {
        store: store.clone(),
        id,
        version: row.version,
        table: row.randomness == RandomnessMode::Table,
        head,
        tail,
    })
}

/// A serialised export with an empty log, cut where the log's rows go: the head ends with the
/// log's `[`, the tail starts with its `]`. The cut is found, not searched for: the document is
/// serialised again with one row in its log, and the two texts part exactly there.
fn cut_at_log(document: &MatchExport) -> Result<(String, String), Problem> {
    let serialise = |document: &MatchExport| {
        serde_json::to_string(document)
            .map_err(|e| Problem::internal(format!("an export does not serialise: {e}")))
    };
    let text = serialise(document)?;
    let mut probe = document.clone();
    probe.log = vec![ExportedInput {
        ply: 0,
        seat: None,
        mv: None,
        chance: None,
        takes_back: None,
        corrects: None,
        reported_by: None,
    }];
    let cut = text
        .bytes()
        .zip(serialise(&probe)?.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    match (text.get(..cut), text.get(cut..)) {
        (Some(head), Some(tail))
            if document.log.is_empty() && head.ends_with('[') && tail.starts_with(']') =>
        {
            Ok((head.to_owned(), tail.to_owned()))
        }
        _ => Err(Problem::internal(format!(
            "the export of match {} cannot be cut at its log",
            document.id
        ))),
    }
}

impl ExportBody {
    /// The export's bytes: its head, then the log's rows a chunk at a time (each chunk read on a
    /// connection taken from the pool for that read only, so a slow reader holds none), then its
    /// tail. A failure midway ends the stream with the error, leaving the document unfinished.
    pub fn into_stream(self) -> impl futures_util::Stream<Item = Result<Vec<u8>, Problem>> {
        futures_util::stream::try_unfold((self, Part::Head), |(body, part)| async move {
            match part {
                Part::Head => {
                    let bytes = body.head.as_bytes().to_vec();
                    Ok(Some((bytes, (body, Part::Log { after: 0 }))))
                }
                Part::Log { after } if after < body.version => {
                    let chunk = {
                        let mut conn = body.store.conn().await?;
                        events::chunk(&mut conn, body.id, after, body.version, events::CHUNK_ROWS)
                            .await?
                    };
                    let Some(last) = chunk.last().map(|e| e.ply) else {
                        return Err(Problem::internal(format!(
                            "match {} is at version {} but its log stops at ply {after}",
                            body.id, body.version
                        )));
                    };
                    let bytes = exported_rows(chunk, after == 0, body.table)?;
                    Ok(Some((bytes, (body, Part::Log { after: last }))))
                }
                Part::Log { .. } => Ok(Some((Vec::new(), (body, Part::Tail)))),
                Part::Tail => {
                    let bytes = body.tail.as_bytes().to_vec();
                    Ok(Some((bytes, (body, Part::Done))))
                }
                Part::Done => Ok(None),
            }
        })
    }
}

/// Rows of the exported log, comma-separated (and preceded by a comma unless they are the first).
/// `table`: the match's chance is reported by its table.
fn exported_rows(chunk: Vec<LoggedEvent>, first: bool, table: bool) -> Result<Vec<u8>, Problem> {
    let mut bytes = Vec::new();
    for (index, event) in chunk.iter().enumerate() {
        if index > 0 || !first {
            bytes.push(b',');
        }
        let entry = Stored::from(event);
        let (takes_back, corrects) = entry.mends();
        let seat = event.seat.map(|s| s as Seat);
        let payload = Some(event.payload.clone());
        let input: ExportedInput = ExportedInput {
            ply: event.ply,
            seat,
            mv: if seat.is_some() && takes_back.is_none() {
                payload.clone()
            } else {
                None
            },
            chance: if seat.is_none() { payload } else { None },
            takes_back,
            corrects,
            reported_by: entry.reporter(table),
        };
        serde_json::to_writer(&mut bytes, &input)
            .map_err(|e| Problem::internal(format!("an exported ply does not serialise: {e}")))?;
    }
    Ok(bytes)
}

/// Replays an export from scratch and returns the final score: anyone can check a match this way.
#[tracing::instrument(skip_all, fields(match_id = %export.id, game = export.game.slug()))]
pub fn verify_export(export: &MatchExport) -> Result<ScoreReply, RefereeError> {
    let table = export.randomness == RandomnessMode::Table;
    with_game!(export.game, G => {
        let options = referee::options::<G>(Some(export.options.clone()), export.players.len())?;
        let mut line = Mendable::<G>::new(Consistent::<G>::new(options));
        for input in &export.log {
            // A table's outcome without a reporter was reported by the owner.
            let reporter = table.then(|| input.reported_by.unwrap_or(Reporter::Owner));
            let outcome = |chance: &Value| referee::parse(What::Chance, chance.clone());
            let entry = match (input.seat, &input.mv, &input.chance, input.takes_back, input.corrects) {
                (Some(seat), Some(mv), None, None, None) => Entry::Move { seat, mv: referee::parse(What::Move, mv.clone())? },
                (None, None, Some(chance), None, None) => Entry::Chance { outcome: outcome(chance)?, reporter },
                (Some(seat), None, None, Some(ply), None) => Entry::TakeBack { seat, ply },
                (None, None, Some(chance), None, Some(ply)) => Entry::Correction {
                    outcome: outcome(chance)?,
                    reporter: reporter.unwrap_or(Reporter::Owner),
                    ply,
                },
                _ => return Err(RefereeError::Malformed {
                    what: What::Log,
                    detail: format!(
                        "ply {} needs a seat and a move, a chance outcome, a seat and `takes_back`, or a chance outcome and `corrects`",
                        input.ply
                    ),
                }),
            };
            line.record(input.ply, entry)?;
        }
        Ok(score_of::<G>(line.state()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameKind;
    use crate::vocabulary::RandomnessMode;
    use chrono::{DateTime, Utc};
    use serde_json::Value;

    fn logged(ply: i64, seat: Option<i32>, payload: Value) -> LoggedEvent {
        LoggedEvent {
            ply,
            seat,
            payload,
            created_at: DateTime::<Utc>::UNIX_EPOCH,
            revises: None,
            reported_by: None,
            restores: None,
        }
    }

    /// A mending of ply `revises`: a take-back with a seat, a correction without.
    fn mending(ply: i64, seat: Option<i32>, revises: i64, payload: Value) -> LoggedEvent {
        LoggedEvent {
            revises: Some(revises),
            reported_by: seat.is_none().then_some(1),
            restores: Some(serde_json::json!({"not": "exported"})),
            ..logged(ply, seat, payload)
        }
    }

    fn export_with(log: Vec<ExportedInput>, result: Option<ScoreReply>) -> MatchExport {
        // The head is written before the log is read: the version is the stored one.
        MatchExport {
            format: "referee.match/1".to_owned(),
            id: Uuid::nil(),
            game: GameKind::LuckyJack,
            rules_version: "1".to_owned(),
            // Strings that look like the cut, escaped as JSON escapes them, must not move it.
            options: serde_json::json!({"dealer": 0, "note": "\"log\":[]"}),
            players: vec!["\"log\":[]".to_owned(), "Ben".to_owned()],
            randomness: RandomnessMode::Table,
            seed_sha256: None,
            seed: None,
            status: MatchStatus::Finished,
            version: 4,
            log,
            result,
            created_at: DateTime::<Utc>::UNIX_EPOCH,
            finished_at: Some(DateTime::<Utc>::UNIX_EPOCH),
            abandoned: None,
        }
    }

    #[test]
    fn a_streamed_export_is_byte_for_byte_the_document_it_streams() {
        let events = [
            logged(
                1,
                None,
                serde_json::json!({"type": "deal", "hands": [[1], [2]]}),
            ),
            logged(2, Some(0), serde_json::json!({"type": "draw"})),
            logged(3, None, serde_json::json!({"type": "draw", "cards": [7]})),
            logged(
                4,
                Some(1),
                serde_json::json!({"type": "discard", "card": 2}),
            ),
            mending(5, Some(1), 4, Value::Null),
            mending(
                6,
                None,
                3,
                serde_json::json!({"type": "draw", "cards": [8]}),
            ),
        ];
        let input =
            |ply, seat: Option<Seat>, mv: Option<Value>, chance: Option<Value>| ExportedInput {
                ply,
                seat,
                mv,
                chance,
                takes_back: None,
                corrects: None,
                reported_by: None,
            };
        let (deal, draw) = (events[0].payload.clone(), events[2].payload.clone());
        let inputs: Vec<ExportedInput> = vec![
            ExportedInput {
                reported_by: Some(Reporter::Owner),
                ..input(1, None, None, Some(deal))
            },
            input(2, Some(0), Some(events[1].payload.clone()), None),
            ExportedInput {
                reported_by: Some(Reporter::Owner),
                ..input(3, None, None, Some(draw))
            },
            input(4, Some(1), Some(events[3].payload.clone()), None),
            ExportedInput {
                takes_back: Some(4),
                ..input(5, Some(1), None, None)
            },
            ExportedInput {
                corrects: Some(3),
                reported_by: Some(Reporter::Seat(1)),
                ..input(6, None, None, Some(events[5].payload.clone()))
            },
        ];
        let score = ScoreReply {
            breakdown: serde_json::json!({"rounds": [{"log": []}]}),
            standings: crate::games::Standings::rank(
                vec![3, 1],
                crate::games::Order::HighestWins,
                true,
            ),
            over: true,
        };
        for result in [None, Some(score)] {
            let whole =
                serde_json::to_string(&export_with(inputs.clone(), result.clone())).unwrap();
            let (head, tail) = cut_at_log(&export_with(Vec::new(), result)).unwrap();
            // In chunks of three, as the stream reads them.
            let mut streamed = head.into_bytes();
            streamed.extend(exported_rows(events[..3].to_vec(), true, true).unwrap());
            streamed.extend(exported_rows(events[3..].to_vec(), false, true).unwrap());
            streamed.extend(tail.into_bytes());
            assert_eq!(String::from_utf8(streamed).unwrap(), whole);
        }
    }

    #[test]
    fn an_export_of_an_empty_log_streams_an_empty_array() {
        let (head, tail) = cut_at_log(&export_with(Vec::new(), None)).unwrap();
        let text = head + &tail;
        assert_eq!(
            text,
            serde_json::to_string(&export_with(Vec::new(), None)).unwrap()
        );
    }
}
