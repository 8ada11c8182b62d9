//! Starting a sheet: players and options checked, rows and a fresh owner token made; an
//! imported play starts from the same rows.

use chrono::{DateTime, Utc};
use serde_json::Value;
use uuid::Uuid;

use super::{standing::*, wire::*};
use crate::games::{Game, GameKind};
use crate::problem::Problem;
use crate::records::{check_names, created_answer, fingerprint};
use crate::referee;
use crate::store::created::{insert_created, NewParts};
use crate::store::matches::{MatchRow, SeatRow};
use crate::store::Store;
use crate::vocabulary::{MatchKind, MatchStatus, RandomnessMode, Space};
use crate::{tokens, with_game};

#[tracing::instrument(skip_all, fields(game = request.game.slug(), sheet_id = tracing::field::Empty))]
pub async fn create(
    store: &Store,
    request: CreateSheet,
    idempotency_key: Option<String>,
    space: Space,
) -> Result<CreatedSheet, Problem> {
    let request_hash = fingerprint(&request);
    let new = prepare(&request, space)?;
    tracing::Span::current().record("sheet_id", tracing::field::display(new.row.id));
    let NewSheet {
        row,
        seats,
        created,
    } = new;
    let created = insert_created(
        store,
        &space.scope("sheet"),
        idempotency_key.as_deref(),
        request_hash,
        NewParts {
            row: &row,
            seats: &seats,
            events: &[],
            invites: &[],
        },
        created,
    )
    .await?;
    created_answer(created, "sheet")
}

/// A sheet checked and ready to store, with its answer (the owner token in it).
pub(crate) struct NewSheet {
    pub row: MatchRow,
    pub seats: Vec<SeatRow>,
    pub created: CreatedSheet,
}

impl NewSheet {
    pub fn parts(&self) -> NewParts<'_> {
        NewParts {
            row: &self.row,
            seats: &self.seats,
            events: &[],
            invites: &[],
        }
    }
}

/// Checks a new sheet's players and options, and makes its rows and a fresh owner token.
pub(crate) fn prepare(request: &CreateSheet, space: Space) -> Result<NewSheet, Problem> {
    // The count first: the names' checks cost per name.
    with_game!(request.game, G => referee::check_player_count::<G>(request.players.len()))?;
    let names = check_names(request.players.iter().map(|p| p.name.as_str()))?;
    let now = Utc::now();
    let id = Uuid::new_v4();
    let (owner_token, owner_hash) = tokens::issue("own").map_err(Problem::internal)?;
    let (options, standings) = with_game!(request.game, G => {
        let options = referee::options::<G>(request.options.clone(), names.len())?;
        let (standings, _) = G::tally_standings(options.options(), names.len(), &[]);
        (referee::to_json(options.options()), standings)
    });
    let state = serde_json::json!({"rounds": [], "standings": standings});
    let (row, seats) = new_rows(
        (id, space),
        request.game,
        options,
        owner_hash,
        &names,
        state,
        now,
    );
    let sheet = detail(&row, &seats, &[])?;
    let created = CreatedSheet {
        game: sheet.game,
        owner_token,
        sheet,
    };
    Ok(NewSheet {
        row,
        seats,
        created,
    })
}

/// A new sheet's row and seats, before any entry: in progress at version 0, under the rules
/// version this service implements, with checked options and names and the owner token's hash.
/// An imported play starts from these too, and adds its result.
pub(crate) fn new_rows(
    (id, space): (Uuid, Space),
    game: GameKind,
    options: Value,
    owner_token_hash: Vec<u8>,
    names: &[String],
    state: Value,
    now: DateTime<Utc>,
) -> (MatchRow, Vec<SeatRow>) {
    let row = MatchRow {
        id,
        game: game.into(),
        rules_version: with_game!(game, G => G::RULES_VERSION).to_owned(),
        options,
        randomness: RandomnessMode::Table,
        seed: None,
        seed_sha256: None,
        owner_token_hash,
        status: MatchStatus::InProgress,
        version: 0,
        state,
        result: None,
        created_at: now,
        updated_at: now,
        finished_at: None,
        kind: MatchKind::Sheet,
        lowest_wins: None,
        // A sheet has no chance to report: the column keeps its default.
        chance_reporters: Default::default(),
        access_version: 0,
        household: space.id(),
    };
    let seats = names
        .iter()
        .enumerate()
        .map(|(seat, name)| SeatRow {
            match_id: id,
            seat: seat as i32,
            player_name: name.clone(),
            player_key: space.player_key(name),
            token_hash: None,
            final_score: None,
            final_rank: None,
            winner: None,
            highlights: None,
            anonymous: false,
        })
        .collect();
    (row, seats)
}
