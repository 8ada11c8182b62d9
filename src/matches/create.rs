//! Creating a match (seats, tokens, seed, the opening deal) and reading it as one viewer sees it.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde_json::Value;
use uuid::Uuid;

use super::access::{authenticate, load_as_stored, viewer_for, Credential, Who};
use super::current::{live_state, typed_state};
use super::wire::{CreateMatch, CreatedMatch, MatchDetail, SeatInvite, SeatToken};
use crate::games::{Consistent, Game, Order, Seat, Viewer};
use crate::payloads::RawJson;
use crate::problem::Problem;
use crate::records::{
    check_names, created_answer, fingerprint, kind_of, note_game, seat_infos, stored,
};
use crate::referee;
use crate::seed::Seed;
use crate::store::created::{insert_created, NewParts};
use crate::store::lobby::{self, InviteRow};
use crate::store::matches::{EventRow, MatchRow, SeatRow};
use crate::store::Store;
use crate::tagged::Tagged;
use crate::vocabulary::{MatchKind, MatchStatus, RandomnessMode, Space};
use crate::{tokens, with_game};

#[tracing::instrument(skip_all, fields(game = request.game.slug(), match_id = tracing::field::Empty))]
pub async fn create(
    store: &Store,
    request: CreateMatch,
    idempotency_key: Option<String>,
    space: Space,
) -> Result<CreatedMatch, Problem> {
    let request_hash = fingerprint(&request);
    let NewMatch {
        row,
        seats,
        events,
        invites,
        created,
    } = prepare(request, store.invite_keys(), space)?;
    let parts = NewParts {
        row: &row,
        seats: &seats,
        events: &events,
        invites: &invites,
    };
    let created = insert_created(
        store,
        &space.scope("match"),
        idempotency_key.as_deref(),
        request_hash,
        parts,
        created,
    )
    .await?;
    created_answer(created, "match")
}

/// A match ready to be stored: its rows and the reply that hands out its tokens or invites.
pub(super) struct NewMatch {
    pub row: MatchRow,
    pub seats: Vec<SeatRow>,
    pub events: Vec<EventRow>,
    pub invites: Vec<InviteRow>,
    pub created: CreatedMatch,
}

impl NewMatch {
    pub fn parts(&self) -> NewParts<'_> {
        NewParts {
            row: &self.row,
            seats: &self.seats,
            events: &self.events,
            invites: &self.invites,
        }
    }
}

/// The link an invite is read and redeemed at.
pub(super) fn invite_link(code: &str) -> String {
    format!("/v1/invites/{code}")
}

/// A new invite to `seat`: the reply's part and the stored row.
pub(super) fn new_invite(
    keys: &tokens::InviteKeys,
    id: Uuid,
    seat: Seat,
    name: &str,
    now: DateTime<Utc>,
) -> Result<(SeatInvite, InviteRow), Problem> {
    let (code, code_hash) = tokens::issue_invite_code(keys).map_err(Problem::internal)?;
    let row = InviteRow {
        match_id: id,
        seat: seat as i32,
        code_hash,
        created_at: now,
        redeemed_at: None,
    };
    let invite = SeatInvite {
        seat,
        name: name.to_owned(),
        link: invite_link(&code),
        join: format!("/#invite={code}"),
        code,
    };
    Ok((invite, row))
}

/// Builds a new match from its request: seats with their tokens (or, with `invites`, open seats
/// with their invites), the seed and the opening deal.
pub(super) fn prepare(
    request: CreateMatch,
    keys: &tokens::InviteKeys,
    space: Space,
) -> Result<NewMatch, Problem> {
    // The count first: the names' checks cost per name.
    with_game!(request.game, G => referee::check_player_count::<G>(request.seats.len()))?;
    let names = check_names(request.seats.iter().map(|s| s.name.as_str()))?;
    let now = Utc::now();
    let id = Uuid::new_v4();
    tracing::Span::current().record("match_id", tracing::field::display(id));
    let (owner_token, owner_hash) = tokens::issue("own").map_err(Problem::internal)?;
    let mut seat_tokens = Vec::new();
    let mut invites = Vec::new();
    let mut invite_rows = Vec::new();
    let mut seat_rows = Vec::new();
    for (seat, name) in names.iter().enumerate() {
        // An open seat has no token until its invite is redeemed.
        let token_hash = if request.invites {
            let (invite, row) = new_invite(keys, id, seat, name, now)?;
            invites.push(invite);
            invite_rows.push(row);
            None
        } else {
            let (token, token_hash) = tokens::issue("seat").map_err(Problem::internal)?;
            seat_tokens.push(SeatToken {
                seat,
                name: name.clone(),
                token,
            });
            Some(token_hash)
        };
        seat_rows.push(SeatRow {
            match_id: id,
            seat: seat as i32,
            player_name: name.clone(),
            player_key: space.player_key(name),
            token_hash,
            final_score: None,
            final_rank: None,
            winner: None,
            highlights: None,
            anonymous: false,
        });
    }
    let seed = match request.randomness {
        RandomnessMode::Server => Some(Seed::generate().map_err(Problem::internal)?),
        RandomnessMode::Table => None,
    };

    let (row, events) = with_game!(request.game, G => {
        let options = referee::options::<G>(request.options.clone(), names.len())?;
        let mut state = Consistent::<G>::new(options.clone());
        let mut events = Vec::new();
        if let Some(seed) = &seed {
            for (index, (outcome, _)) in
                referee::resolve_from_seed::<G>(&mut state, seed, 1).into_iter().enumerate()
            {
                events.push(event_row(id, index as i64 + 1, None, referee::to_json(&outcome), now));
            }
        }
        let over = G::is_over(&state);
        let row = MatchRow {
            id,
            game: G::KIND.into(),
            rules_version: G::RULES_VERSION.to_owned(),
            options: referee::to_json(options.options()),
            randomness: request.randomness,
            seed: seed.as_ref().map(Seed::to_hex),
            seed_sha256: seed.as_ref().map(Seed::sha256_hex),
            owner_token_hash: owner_hash,
            status: MatchStatus::of_over(over),
            version: events.len() as i64,
            state: referee::to_json(&state),
            result: None,
            created_at: now,
            updated_at: now,
            finished_at: over.then_some(now),
            kind: MatchKind::Hosted,
            lowest_wins: over.then(|| G::standings(&state).order == Order::LowestWins),
            chance_reporters: request.chance_reporters,
            access_version: 0,
            household: space.id(),
        };
        (row, events)
    });

    let detail = detail(&row, &seat_rows, Credential::Owner)?;
    let created = CreatedMatch {
        game: detail.game,
        owner_token,
        seat_tokens,
        invites,
        detail,
    };
    Ok(NewMatch {
        row,
        seats: seat_rows,
        events,
        invites: invite_rows,
        created,
    })
}

pub(super) fn event_row(
    id: Uuid,
    ply: i64,
    seat: Option<Seat>,
    payload: Value,
    now: DateTime<Utc>,
) -> EventRow {
    EventRow {
        match_id: id,
        ply,
        seat: seat.map(|s| s as i32),
        payload,
        idempotency_key: None,
        request_hash: None,
        response: None,
        created_at: now,
        revises: None,
        reported_by: None,
        restores: None,
    }
}

pub(super) fn detail(
    row: &MatchRow,
    seats: &[SeatRow],
    credential: Credential,
) -> Result<MatchDetail, Problem> {
    let viewer = viewer_for(row, credential);
    with_game!(kind_of(row)?, G => {
        let state: <G as Game>::State = stored("state", &row.state)?;
        Ok(detail_of::<G>(row, seats, viewer, &state))
    })
}

/// The match as `viewer` sees it, its state already typed (`row.state` is not read).
pub(super) fn detail_of<G: Game>(
    row: &MatchRow,
    seats: &[SeatRow],
    viewer: Viewer,
    state: &G::State,
) -> MatchDetail {
    let finished = row.status == MatchStatus::Finished;
    MatchDetail {
        id: row.id,
        game: G::KIND,
        rules_version: row.rules_version.clone(),
        randomness: row.randomness,
        chance_reporters: row.chance_reporters,
        status: row.status,
        version: row.version,
        options: row.options.clone(),
        seats: seat_infos(seats),
        viewer,
        to_act: G::to_act(state),
        chance_pending: G::chance_pending(state),
        view: RawJson::of(&G::view(state, viewer)),
        standings: G::standings(state),
        seed_sha256: row.seed_sha256.clone(),
        seed: if finished { row.seed.clone() } else { None },
        created_at: row.created_at,
        updated_at: row.updated_at,
        finished_at: row.finished_at,
        rematch_of: None,
        rematch: None,
        abandoned: None,
    }
}

/// The match as `who` may see it, written out with its tag. A match in play is usually live in
/// this instance, and is then answered from there when the copy is current; each audience's
/// answer is written out once per version and kept with the copy for whoever asks again.
#[tracing::instrument(skip_all, fields(match_id = %id, game = tracing::field::Empty))]
pub async fn read(store: &Store, id: Uuid, who: Who<'_>) -> Result<Arc<Tagged>, Problem> {
    let live = store.read_live_copy(id, |live, links| {
        let (row, seats) = (&live.row, live.seats.as_slice());
        let viewer = viewer_for(row, authenticate(row, seats, who)?);
        note_game(row.game.kind());
        if let Some(answer) = live.answers.get(viewer, links) {
            return Ok(answer);
        }
        let mut detail = with_game!(kind_of(row)?, G => {
            detail_of::<G>(row, seats, viewer, &*live_state::<G>(live)?)
        });
        (detail.rematch_of, detail.rematch) = links;
        let answer = Arc::new(Tagged::at_version(detail.version, &detail));
        live.answers.keep(viewer, links, answer.clone());
        Ok::<_, Problem>(answer)
    });
    if let Some(answer) = live.await? {
        return answer;
    }
    // The state is played on in its typed form and read from there: no JSON round trip.
    let (mut conn, mut row, seats, tail, credential) = load_as_stored(store, id, who).await?;
    let viewer = viewer_for(&row, credential);
    let mut detail = with_game!(kind_of(&row)?, G => {
        let state = typed_state::<G>(&mut row, &tail)?;
        detail_of::<G>(&row, &seats, viewer, &state)
    });
    (detail.rematch_of, detail.rematch) = lobby::rematch_links(&mut conn, id).await?;
    if row.status == MatchStatus::Abandoned {
        detail.abandoned = crate::store::stat_reads::abandon_of(&mut conn, id).await?;
    }
    Ok(Arc::new(Tagged::at_version(detail.version, &detail)))
}
