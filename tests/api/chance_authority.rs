//! Who may report chance at a table (finding 1 of issue 15): the owner always; a seat the
//! outcomes of its own action; the deal by the dealer's seat; shared outcomes of a game without
//! a dealer by the owner only. `chance_reporters` makes it stricter or looser per match.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{every_pipeline, spawn_app_on, Pipeline};
use crate::support::{match_id, owner_token, seat_tokens, Reply, TestApp};

/// How one game reaches a seat's own chance outcome at a table.
struct Table {
    game: &'static str,
    names: &'static [&'static str],
    /// The outcomes before play: the deal (or shared setup) first.
    setup: Vec<Value>,
    /// The seat that deals, if the game has a dealer.
    dealer: Option<usize>,
    /// The seat whose action awaits chance, and the move that asks for it (none when the setup
    /// already leaves that seat's draw pending).
    actor: usize,
    action: Option<Value>,
    /// The outcome of the actor's action.
    outcome: Value,
}

fn tables() -> Vec<Table> {
    vec![
        Table {
            game: "lucky-jack",
            names: &["Ann", "Ben"],
            setup: vec![json!({"kind": "deal", "hands": [
                ["lemon","cherry","grape","clover","bell","seven","jack"],
                ["lemon","lemon","lemon","grape","clover","seven","seven"]], "flip": "clover"})],
            dealer: Some(0),
            actor: 1,
            action: Some(json!({"type": "draw"})),
            outcome: json!({"kind": "draw", "cards": ["seven"]}),
        },
        Table {
            game: "luck-plus",
            names: &["Ann", "Ben"],
            setup: vec![json!({"kind": "deal", "hands": [
                ["GO-9","GO-3","GO-5","STOP-8","GO-7","GO-7","TR-12","DBL"],
                ["GO-1","GO-2","GO-4","GO-6","GO-8","GO-10","GO-11","STOP-3"]],
                "flips": ["LP", "TR-9"]})],
            dealer: Some(0),
            actor: 1,
            action: Some(json!({"type": "roll"})),
            outcome: json!({"kind": "roll", "dice": [2, 4]}),
        },
        Table {
            game: "plus-minus",
            names: &["Ann", "Ben", "Cleo"],
            setup: vec![
                json!({"kind": "deal", "hands": [["2","3"],["4","6"],["7","8"]],
                "face_up": [["A","K"],["J","9"],["5","5"]]}),
            ],
            dealer: Some(0),
            actor: 1,
            action: None,
            outcome: json!({"kind": "draw", "cards": ["10", "Q"]}),
        },
        Table {
            game: "lucky-dice",
            names: &["Ann", "Ben"],
            setup: vec![
                json!({"kind": "coasters", "coasters": [
                    {"left": "clover", "right": "pig"}, {"left": "penny", "right": "hamsa"}]}),
                json!({"kind": "lucky_symbol", "symbol": "cat"}),
            ],
            dealer: None,
            actor: 1,
            action: Some(json!({"type": "roll", "dice": 3})),
            outcome: json!({"kind": "roll", "faces": ["cat", "clover", "pig"]}),
        },
        Table {
            game: "lucky-luau",
            names: &["Ann", "Ben"],
            setup: Vec::new(),
            dealer: None,
            actor: 0,
            action: Some(json!({"type": "draw_face_down"})),
            outcome: json!({"kind": "draw", "card": "rainbow"}),
        },
    ]
}

struct Match<'a> {
    app: &'a TestApp,
    id: String,
    owner: String,
    seats: Vec<String>,
}

impl<'a> Match<'a> {
    async fn create(app: &'a TestApp, table: &Table, reporters: Option<&str>) -> Self {
        let seats: Vec<Value> = table.names.iter().map(|n| json!({ "name": n })).collect();
        let mut body = json!({"game": table.game, "seats": seats, "randomness": "table"});
        if let Some(reporters) = reporters {
            body["chance_reporters"] = json!(reporters);
        }
        let created = app.post("/v1/matches", &body, None).await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
        let expected = reporters.unwrap_or("owner_and_acting_seat");
        assert_eq!(created.body["match"]["chance_reporters"], expected);
        Match {
            app,
            id: match_id(&created.body),
            owner: owner_token(&created.body),
            seats: seat_tokens(&created.body),
        }
    }

    /// Reports `outcome` with the owner's token (`None`) or a seat's.
    async fn report(&self, seat: Option<usize>, outcome: &Value) -> Reply {
        let token = seat.map_or(&self.owner, |s| &self.seats[s]);
        self.app
            .post_chance(&self.id, Some(token), None, outcome)
            .await
    }

    async fn act(&self, table: &Table) {
        if let Some(action) = &table.action {
            let token = Some(self.seats[table.actor].as_str());
            let moved = self.app.post_move(&self.id, token, None, action).await;
            assert_eq!(moved.status, StatusCode::OK, "{}", moved.body);
            assert_eq!(moved.body["chance_pending"], true, "{}", moved.body);
        }
    }
}

fn assert_ok(game: &str, reply: &Reply) {
    assert_eq!(reply.status, StatusCode::OK, "{game}: {}", reply.body);
}

fn assert_not_yours(game: &str, reply: &Reply, seat: usize, reporting: Value) {
    assert_eq!(
        reply.status,
        StatusCode::FORBIDDEN,
        "{game}: {}",
        reply.body
    );
    assert_eq!(
        reply.body["code"], "not_your_chance",
        "{game}: {}",
        reply.body
    );
    assert_eq!(reply.body["params"]["seat"], seat, "{game}");
    assert_eq!(
        reply.body["params"]["reporting_seats"], reporting,
        "{game}: {}",
        reply.body
    );
}

/// A seat that is not `seat`.
fn other(seat: usize) -> usize {
    (seat + 1) % 2
}

every_pipeline!(in_every_game_a_seat_reports_only_its_own_outcomes_and_the_deal_only_the_dealer);
async fn in_every_game_a_seat_reports_only_its_own_outcomes_and_the_deal_only_the_dealer(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    for table in tables() {
        let game = table.game;
        let table_match = Match::create(&app, &table, None).await;
        for (index, outcome) in table.setup.iter().enumerate() {
            // The deal (or a shared outcome) from a seat that does not deal is refused.
            let outsider = table.dealer.map_or(0, other);
            let refused = table_match.report(Some(outsider), outcome).await;
            let reporting = json!(table.dealer.into_iter().collect::<Vec<_>>());
            assert_not_yours(game, &refused, outsider, reporting);
            let reporter = if index == 0 { table.dealer } else { None };
            assert_ok(game, &table_match.report(reporter, outcome).await);
        }
        table_match.act(&table).await;
        // Another seat may not choose the actor's cards or dice; the actor reports its own.
        let outsider = other(table.actor);
        let refused = table_match.report(Some(outsider), &table.outcome).await;
        assert_not_yours(game, &refused, outsider, json!([table.actor]));
        assert_ok(
            game,
            &table_match.report(Some(table.actor), &table.outcome).await,
        );
    }
}

every_pipeline!(in_every_game_the_owner_reports_every_outcome);
async fn in_every_game_the_owner_reports_every_outcome(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    for table in tables() {
        let table_match = Match::create(&app, &table, None).await;
        for outcome in &table.setup {
            assert_ok(table.game, &table_match.report(None, outcome).await);
        }
        table_match.act(&table).await;
        assert_ok(table.game, &table_match.report(None, &table.outcome).await);
    }
}

every_pipeline!(with_owner_reporters_a_seat_may_not_report_even_its_own_draw);
async fn with_owner_reporters_a_seat_may_not_report_even_its_own_draw(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let table = tables().remove(0);
    let table_match = Match::create(&app, &table, Some("owner")).await;
    let refused = table_match.report(table.dealer, &table.setup[0]).await;
    assert_not_yours(table.game, &refused, 0, json!([]));
    assert_ok(table.game, &table_match.report(None, &table.setup[0]).await);
    table_match.act(&table).await;
    let refused = table_match.report(Some(table.actor), &table.outcome).await;
    assert_not_yours(table.game, &refused, table.actor, json!([]));
    assert_ok(table.game, &table_match.report(None, &table.outcome).await);
}

every_pipeline!(with_any_seat_reporters_a_trusting_table_lets_any_seat_report);
async fn with_any_seat_reporters_a_trusting_table_lets_any_seat_report(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let table = tables().remove(0);
    let table_match = Match::create(&app, &table, Some("any_seat")).await;
    assert_ok(
        table.game,
        &table_match.report(Some(1), &table.setup[0]).await,
    );
    table_match.act(&table).await;
    let outsider = other(table.actor);
    let outcome = &table.outcome;
    assert_ok(
        table.game,
        &table_match.report(Some(outsider), outcome).await,
    );
}

every_pipeline!(an_unknown_chance_reporters_value_is_refused);
async fn an_unknown_chance_reporters_value_is_refused(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let body = json!({"game": "lucky-jack", "seats": [{"name": "Ann"}, {"name": "Ben"}],
        "randomness": "table", "chance_reporters": "everyone"});
    let refused = app.post("/v1/matches", &body, None).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.body);
}
