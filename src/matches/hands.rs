//! Hands entered at the table (docs/contract.md): in a table-randomness match waiting for a deal,
//! each seat types its own cards on its own phone, and the deal is then reported with the table's
//! public cards only (the turned-up card, the face-up cards), `hands` left out: the service puts
//! in each seat's entered hand. Nobody, the host included, types another seat's hand.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::access::{load_as_stored, Credential, Who};
use super::current::typed_state;
use crate::games::{Game, Seat};
use crate::problem::{Code, Problem};
use crate::seed::Seed;
use crate::store::hands::{self as q, EnteredHand};
use crate::store::matches::MatchRow;
use crate::store::Store;
use crate::vocabulary::{MatchStatus, RandomnessMode};
use crate::with_game;

/// The most cards one hand holds in any of the games (Luck Plus deals 8).
const HAND_CARDS: usize = 16;

/// A seat's own hand, as it holds it.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"cards": ["lemon", "lemon", "cherry", "seven", "seven", "bell", "grape"]}))]
pub struct EnterHand {
    /// The cards, named as the game's deal names them (checked with the deal).
    #[schema(min_items = 1, max_items = 16)]
    pub cards: Vec<String>,
}

/// Which seats have entered their hand for the deal the match waits for.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"version": 0, "entered": [0, 2], "mine": null}))]
pub struct EnteredHands {
    /// The match's version: the hands are for the deal awaited at it.
    pub version: i64,
    /// The seats whose hand is in.
    pub entered: Vec<Seat>,
    /// The cards this seat entered (a seat token's own only; null for others and the owner).
    pub mine: Option<Vec<String>>,
}

/// Enters `seat`'s hand for the deal the match waits for (again: replaced), with that seat's
/// token or the owner's.
pub async fn enter_hand(
    store: &Store,
    id: Uuid,
    seat: Seat,
    who: Who<'_>,
    hand: EnterHand,
) -> Result<EnteredHands, Problem> {
    if hand.cards.is_empty() || hand.cards.len() > HAND_CARDS {
        return Err(Problem::new(
            Code::InvalidHand,
            format!("a hand is 1 to {HAND_CARDS} card names"),
        ));
    }
    let (mut conn, mut row, seats, tail, credential) = load_as_stored(store, id, who).await?;
    if seat >= seats.len() {
        return Err(Problem::new(
            Code::UnknownSeat,
            format!("the match has {} seats", seats.len()),
        ));
    }
    match credential {
        Credential::Owner => {}
        Credential::Seat(own) if own == seat => {}
        Credential::Seat(own) => {
            return Err(Problem::new(
                Code::WrongSeat,
                format!("this token is for seat {own}: only seat {seat} enters its own hand"),
            ))
        }
        Credential::Anonymous => {
            return Err(Problem::new(
                Code::InvalidToken,
                "send the seat's token (or the owner's) as `Authorization: Bearer <token>`",
            ))
        }
    }
    let kind = row.game.kind();
    let awaited = with_game!(kind, G => deal_awaited::<G>(&mut row, &tail)?);
    check_awaited(&row, awaited)?;
    let entered = EnteredHand {
        match_id: id,
        seat: seat as i32,
        version: row.version,
        cards: Value::from(hand.cards),
    };
    q::enter(&mut conn, &entered).await?;
    answer(&mut conn, &row, credential).await
}

/// Which seats have entered their hand, for any of the match's tokens.
pub async fn entered_hands(store: &Store, id: Uuid, who: Who<'_>) -> Result<EnteredHands, Problem> {
    let (mut conn, mut row, _, tail, credential) = load_as_stored(store, id, who).await?;
    if credential == Credential::Anonymous {
        return Err(Problem::new(
            Code::InvalidToken,
            "send one of the match's tokens as `Authorization: Bearer <token>`",
        ));
    }
    let kind = row.game.kind();
    with_game!(kind, G => deal_awaited::<G>(&mut row, &tail)?);
    answer(&mut conn, &row, credential).await
}

async fn answer(
    conn: &mut diesel_async::AsyncPgConnection,
    row: &MatchRow,
    credential: Credential,
) -> Result<EnteredHands, Problem> {
    let hands: Vec<EnteredHand> = q::entered(conn, row.id)
        .await?
        .into_iter()
        .filter(|hand| hand.version == row.version)
        .collect();
    let mine = match credential {
        Credential::Seat(own) => hands
            .iter()
            .find(|hand| hand.seat as Seat == own)
            .and_then(|hand| serde_json::from_value(hand.cards.clone()).ok()),
        _ => None,
    };
    Ok(EnteredHands {
        version: row.version,
        entered: hands.iter().map(|hand| hand.seat as Seat).collect(),
        mine,
    })
}

/// Whether the match waits for a deal of hands (brought up to its log first).
fn deal_awaited<G: Game>(
    row: &mut MatchRow,
    tail: &[crate::store::matches::EventRow],
) -> Result<bool, Problem> {
    let state = typed_state::<G>(row, tail)?;
    if !G::chance_pending(&state) {
        return Ok(false);
    }
    // The pending outcome's shape, from a sample of it: a deal that gives each seat a hand.
    let sample = G::sample_chance(&state, &mut Seed::from_bytes([0; 32]).stream(0));
    Ok(is_deal_of_hands(
        &serde_json::to_value(sample).unwrap_or_default(),
    ))
}

fn is_deal_of_hands(outcome: &Value) -> bool {
    outcome["kind"] == "deal" && outcome.get("hands").is_some()
}

fn check_awaited(row: &MatchRow, awaited: bool) -> Result<(), Problem> {
    if row.randomness == RandomnessMode::Server {
        return Err(Problem::new(
            Code::ServerRandomness,
            "this match deals its own cards from its seed: nobody enters a hand",
        ));
    }
    if row.status != MatchStatus::InProgress || !awaited {
        return Err(Problem::new(
            Code::NoDealPending,
            "the match is not waiting for a deal of hands",
        ));
    }
    Ok(())
}

/// A reported deal without `hands` (`{"kind": "deal", ...public cards}`): whether it asks for
/// the seats' entered hands.
pub(super) fn wants_entered_hands(outcome: &Value) -> bool {
    outcome["kind"] == "deal" && outcome.get("hands").is_none()
}

/// The deal with each seat's hand entered at `version` put in, or which seats are missing.
pub(super) fn with_entered_hands(
    outcome: &Value,
    hands: &[EnteredHand],
    version: i64,
    seats: usize,
) -> Result<Value, Problem> {
    let mut by_seat: Vec<Option<&Value>> = vec![None; seats];
    for hand in hands.iter().filter(|hand| hand.version == version) {
        if let Some(slot) = by_seat.get_mut(hand.seat as usize) {
            *slot = Some(&hand.cards);
        }
    }
    let missing: Vec<Seat> = (0..seats).filter(|&seat| by_seat[seat].is_none()).collect();
    if !missing.is_empty() {
        let mut problem = Problem::new(
            Code::HandsMissing,
            format!(
                "seat{} {} {} not entered {} hand yet (PUT /v1/matches/{{id}}/hands/{{seat}}), \
                 or report the deal with `hands`",
                if missing.len() == 1 { "" } else { "s" },
                missing
                    .iter()
                    .map(Seat::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                if missing.len() == 1 { "has" } else { "have" },
                if missing.len() == 1 { "its" } else { "their" },
            ),
        );
        problem.params = Some(serde_json::json!({ "missing": missing }));
        return Err(problem);
    }
    let mut filled = outcome.clone();
    filled["hands"] = Value::from(by_seat.into_iter().flatten().cloned().collect::<Vec<_>>());
    Ok(filled)
}
