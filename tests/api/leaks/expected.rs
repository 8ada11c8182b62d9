//! What the service must answer, computed independently from the truth.

use referee::games::{Game, GameKind, Seat, Viewer};
use referee::problem::Problem;
use referee::referee::{self as engine, RefereeError};
use referee::store::matches::EventRow;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::Reply;

/// The log entry `viewer` may see of one stored ply, computed from the truth (without `at`).
pub(super) fn expected_entry<G: Game>(
    row: &EventRow,
    events: &[G::Event],
    viewer: Viewer,
) -> Value {
    let seat = row.seat.map(|s| s as Seat);
    let mut entry = json!({
        "ply": row.ply,
        "seat": seat,
        "events": events
            .iter()
            .map(|e| engine::to_json(&G::redact_event(e, viewer)))
            .collect::<Vec<_>>(),
    });
    let full = viewer == Viewer::Full;
    match (seat, row.revises) {
        // A take-back shows the ply it takes back, and no move.
        (Some(_), Some(ply)) => entry["takes_back"] = json!(ply),
        (Some(_), None) if full || seat.map(Viewer::Seat) == Some(viewer) => {
            entry["move"] = row.payload.clone();
        }
        (Some(_), None) => {}
        (None, revises) => {
            if let Some(ply) = revises {
                entry["corrects"] = json!(ply);
            }
            if full {
                entry["chance"] = row.payload.clone();
            }
        }
    }
    entry
}

pub(super) fn without_at(entry: &Value) -> Value {
    let mut entry = entry.clone();
    entry.as_object_mut().unwrap().remove("at");
    entry
}

/// The problem document the service must answer for an engine refusal.
pub(super) fn problem_of(error: RefereeError) -> Value {
    let problem = Problem::from(error);
    serde_json::to_value(&*problem).unwrap()
}

/// The score as the public table shows it: what `/result` may say before the end.
pub(super) fn public_score(kind: GameKind, spectator_view: &Value) -> Value {
    let v = spectator_view;
    match kind {
        GameKind::LuckyLuau => v["score"].clone(),
        GameKind::LuckPlus => json!({
            "scoring": v["options"]["scoring"],
            "target": v["target"],
            "hands": v["results"],
            "totals": v["totals"],
        }),
        _ => json!({"rounds": v["results"], "totals": v["totals"]}),
    }
}

pub(super) fn assert_problem(reply: &Reply, status: StatusCode, code: &str, who: &str) {
    assert_eq!(reply.status, status, "{who}: {}", reply.body);
    assert_eq!(reply.headers["content-type"], "application/problem+json");
    assert_eq!(reply.body["code"], code, "{who}: {}", reply.body);
}
