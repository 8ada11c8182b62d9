//! After the end: the seed revealed and explaining every chance outcome, and what each caller's
//! live stream showed over the whole match.

use std::collections::BTreeMap;

use referee::games::{Consistent, Game, Seat, Viewer};
use referee::referee as engine;
use reqwest::StatusCode;
use serde_json::Value;

use super::expected::{expected_entry, without_at};
use super::hosted::{Caller, Hosted};
use crate::support::{Reply, StreamEvent};

/// After the end: everything is public, the seed is revealed to everyone, matches its
/// commitment and explains every chance outcome of the log.
pub(super) async fn check_the_end<G: Game>(m: &mut Hosted) {
    let truth = m.truth::<G>().await;
    assert!(G::is_over(&truth.state));
    assert_eq!(truth.row.status, referee::vocabulary::MatchStatus::Finished);
    let seed_hex = m.seed.to_hex();
    for caller in m.callers() {
        let who = format!("{caller:?} after the end");
        let detail = m.get("", caller, true).await;
        assert_eq!(detail.status, StatusCode::OK, "{who}");
        assert_eq!(detail.body["seed"], seed_hex, "{who}: the seed is revealed");
        assert_eq!(detail.body["seed_sha256"], m.seed.sha256_hex());
        assert_eq!(detail.body["viewer"], "full");
        assert_eq!(
            detail.body["view"],
            engine::to_json(&G::view(&truth.state, Viewer::Full))
        );
        let export = m.get("/export", caller, true).await;
        assert_eq!(export.status, StatusCode::OK, "{who}: {}", export.body);
        assert_eq!(export.body["seed"], seed_hex);
        let log = m.log_in_pages(caller, true, 1000).await;
        assert_eq!(log.len(), truth.rows.len(), "{who}");
        for ((entry, row), events) in log.iter().zip(&truth.rows).zip(&truth.events) {
            assert_eq!(
                without_at(entry),
                expected_entry::<G>(row, events, Viewer::Full)
            );
        }
    }
    let seed_bytes = hex::decode(&seed_hex).unwrap();
    assert_eq!(
        hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&seed_bytes)),
        m.seed.sha256_hex(),
        "the revealed seed matches the commitment"
    );
    // Anyone can re-derive each chance outcome from the revealed seed.
    let options: G::Options = serde_json::from_value(truth.row.options.clone()).unwrap();
    let mut state = Consistent::<G>::new(G::validate_options(&options, m.seats.len()).unwrap());
    let mut derived: BTreeMap<i64, Value> = BTreeMap::new();
    for (i, (outcome, _)) in engine::resolve_from_seed::<G>(&mut state, &m.seed, 1)
        .into_iter()
        .enumerate()
    {
        derived.insert(i as i64 + 1, engine::to_json(&outcome));
    }
    // The state before each move, for the take-backs (which come straight after their move:
    // a server match never takes back past a chance event).
    let mut before_moves: Vec<(i64, Consistent<G>)> = Vec::new();
    for row in &truth.rows {
        if let (Some(_), Some(taken)) = (row.seat, row.revises) {
            let (ply, before) = before_moves.pop().expect("a move to take back");
            assert_eq!(ply, taken, "ply {} takes back the last move", row.ply);
            state = before;
            continue;
        }
        match row.seat {
            None => assert_eq!(
                derived.get(&row.ply),
                Some(&row.payload),
                "chance at ply {} comes from the seed",
                row.ply
            ),
            Some(seat) => {
                let mv: G::Move = serde_json::from_value(row.payload.clone()).unwrap();
                before_moves.push((row.ply, state.clone()));
                engine::play_move::<G>(&mut state, seat as Seat, &mv).unwrap();
                for (i, (outcome, _)) in
                    engine::resolve_from_seed::<G>(&mut state, &m.seed, row.ply as u64 + 1)
                        .into_iter()
                        .enumerate()
                {
                    derived.insert(row.ply + 1 + i as i64, engine::to_json(&outcome));
                }
            }
        }
    }
}

/// A live stream read to its end in a task: its events and its text.
pub(super) type Watcher = tokio::task::JoinHandle<(Vec<StreamEvent>, String)>;

/// What each caller's live stream showed over the whole match. Entries read while the match was
/// on are redacted for the caller, exactly as its `/log` showed them then; entries read after the
/// end may show everything, as `/log` then does. Nothing before the final view holds the seed.
pub(super) async fn check_live_streams<G: Game>(m: &mut Hosted, watchers: Vec<(Caller, Watcher)>) {
    let truth = m.truth::<G>().await;
    for (caller, watcher) in watchers {
        let (events, text) = watcher.await.unwrap();
        let who = format!("{caller:?}'s live stream");
        let kinds: Vec<&str> = events
            .iter()
            .rev()
            .take(2)
            .map(|e| e.kind.as_str())
            .collect();
        assert_eq!(kinds, ["end", "view"], "{who} ends after the final view");
        let last_open_view = events
            .iter()
            .rposition(|e| e.kind == "view" && e.data["match"]["status"] == "in_progress")
            .unwrap_or(0);
        let mut plies = Vec::new();
        for (at, event) in events.iter().enumerate().filter(|(_, e)| e.kind == "entry") {
            let ply = event.id.unwrap();
            plies.push(ply);
            let index = (ply - 1) as usize;
            let (row, evs) = (&truth.rows[index], &truth.events[index]);
            let redacted = expected_entry::<G>(row, evs, Hosted::viewer(caller, false));
            let entry = without_at(&event.data["entry"]);
            if at < last_open_view {
                assert_eq!(entry, redacted, "{who}: ply {ply}");
            } else {
                let full = expected_entry::<G>(row, evs, Viewer::Full);
                assert!(entry == redacted || entry == full, "{who}: ply {ply}");
            }
        }
        assert_eq!(plies, (1..=truth.row.version).collect::<Vec<_>>(), "{who}");
        let final_view = text.rfind("event: view").unwrap();
        let before_end = Reply {
            status: StatusCode::OK,
            headers: Default::default(),
            body: Value::String(text[..final_view].to_owned()),
        };
        m.assert_no_secret(&before_end, caller, false, "the live stream before the end");
    }
}
