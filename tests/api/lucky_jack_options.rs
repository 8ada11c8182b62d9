//! How Lucky Jack's options combine (docs/rules/lucky-jack.md, "How the options combine"), each
//! through the stateless referee path a companion app uses: a table set up by the test, then
//! `/check` and `/chance` exactly as the app would send them.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::TestApp;
use crate::support::{every_pipeline, spawn_app_on, Pipeline};

const GAME: &str = "/v1/games/lucky-jack";

/// A table in the middle of round 1 under `options`: each seat's hand, the discard pile (top
/// last), `turn` to act with its turn just begun, and the other cards in the draw pile.
async fn table(
    app: &TestApp,
    options: Value,
    hands: &[&[&str]],
    discard: &[&str],
    turn: usize,
) -> Value {
    let empty = app
        .post(
            &format!("{GAME}/states"),
            &json!({"players": hands.len(), "options": options}),
            None,
        )
        .await;
    assert_eq!(empty.status, StatusCode::OK, "{}", empty.body);
    let mut state = empty.body["state"].clone();
    for card in hands.iter().flat_map(|hand| hand.iter()).chain(discard) {
        let left = &mut state["draw_pile"][*card];
        *left = json!(left.as_i64().unwrap() - 1);
    }
    state["hands"] = json!(hands);
    state["discard"] = json!(discard);
    state["phase"] = json!("turn");
    state["chance"] = Value::Null;
    state["turn"] = json!(turn);
    state["turn_start_hand"] = json!(hands[turn].len());
    state
}

/// Plays `mv` for `seat`, which must be legal; returns the events and moves `state` on.
async fn play(app: &TestApp, state: &mut Value, seat: usize, mv: Value) -> Value {
    let reply = app
        .post(
            &format!("{GAME}/check"),
            &json!({"state": state, "seat": seat, "move": mv}),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.body["legal"], true, "{mv}: {}", reply.body);
    *state = reply.body["next"]["state"].clone();
    reply.body["next"]["events"].clone()
}

/// Reports the cards drawn at the table.
async fn drawn(app: &TestApp, state: &mut Value, cards: &[&str]) {
    report(app, state, json!({"kind": "draw", "cards": cards})).await;
}

/// Reports a chance outcome, which must be possible; returns the events and moves `state` on.
async fn report(app: &TestApp, state: &mut Value, outcome: Value) -> Value {
    let reply = app
        .post(
            &format!("{GAME}/chance"),
            &json!({"state": state, "outcome": outcome}),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{outcome}: {}", reply.body);
    *state = reply.body["state"].clone();
    reply.body["events"].clone()
}

/// The code `/check` refuses `mv` by `seat` with.
async fn refused(app: &TestApp, state: &Value, seat: usize, mv: Value) -> Value {
    let reply = app
        .post(
            &format!("{GAME}/check"),
            &json!({"state": state, "seat": seat, "move": mv}),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.body["legal"], false, "{mv}: {}", reply.body);
    reply.body["refusal"]["code"].clone()
}

/// A new match of `players` under `options`, waiting for its first deal.
async fn new_match(app: &TestApp, players: usize, options: Value) -> Value {
    let reply = app
        .post(
            &format!("{GAME}/states"),
            &json!({"players": players, "options": options}),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body["state"].clone()
}

/// Deals every seat one card of each symbol and flips a lemon; returns the events.
async fn deal(app: &TestApp, state: &mut Value) -> Value {
    let players = state["players"].as_u64().unwrap() as usize;
    let hand = [
        "lemon", "cherry", "grape", "clover", "bell", "seven", "jack",
    ];
    let outcome = json!({"kind": "deal", "hands": vec![hand; players], "flip": "lemon"});
    report(app, state, outcome).await
}

/// Makes the discard top the drawn card the seat before `turn` has just discarded, takeable.
fn takeable(state: &mut Value) {
    let players = state["players"].as_u64().unwrap();
    let by = state["turn"].as_u64().unwrap();
    let card = state["discard"].as_array().unwrap().last().unwrap().clone();
    state["takeable"] = json!({"card": card, "from": (by + players - 1) % players, "by": by});
}

/// Leaves only `cards` in the draw pile; the other cards go under the discard pile's top.
fn leave_in_draw_pile(state: &mut Value, cards: &[&str]) {
    let mut under = Vec::new();
    for (symbol, count) in state["draw_pile"].as_object_mut().unwrap() {
        let kept = cards.iter().filter(|card| *card == symbol).count() as i64;
        let had = count.as_i64().unwrap();
        assert!(kept <= had, "{symbol}: {kept} of {had}");
        under.extend((kept..had).map(|_| json!(symbol)));
        *count = json!(kept);
    }
    state["discard"].as_array_mut().unwrap().splice(0..0, under);
}

/// The events' types, in order.
fn kinds(events: &Value) -> Vec<&str> {
    events
        .as_array()
        .unwrap()
        .iter()
        .map(|event| event["type"].as_str().unwrap())
        .collect()
}

/// The round results so far: each round's points per seat.
fn points(state: &Value) -> Vec<Value> {
    state["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|round| round["points"].clone())
        .collect()
}

every_pipeline!(with_the_symbol_rule_and_lower_wins_a_lower_drawn_discard_wins_before_its_penalty);
/// Options `drawn_discard_follows_symbol_rule` and `lower_discard_can_win` together: a drawn
/// discard lower than the top is a regular lower discard, whose jackpot check comes before its
/// penalty draw, so four identical cards left in hand win the 4-card jackpot (issue 26).
async fn with_the_symbol_rule_and_lower_wins_a_lower_drawn_discard_wins_before_its_penalty(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let options = json!({"drawn_discard_follows_symbol_rule": true, "lower_discard_can_win": true});
    let mut state = table(&app, options, &[&["lemon"; 7], &["bell"; 4]], &["seven"], 1).await;
    play(&app, &mut state, 1, json!({"type": "draw"})).await;
    drawn(&app, &mut state, &["cherry"]).await;
    let events = play(&app, &mut state, 1, json!({"type": "discard_drawn"})).await;
    assert_eq!(
        events[0],
        json!({"type": "discarded_drawn", "seat": 1, "card": "cherry", "option": "lower"})
    );
    assert_eq!(points(&state), vec![json!([0, 7000])], "{events}");
}

every_pipeline!(with_the_symbol_rule_alone_a_lower_drawn_discard_draws_two_and_wins_nothing);
/// The symbol rule alone: the same lower drawn discard draws its two penalty cards and wins
/// nothing, as a lower `discard` does without `lower_discard_can_win`.
async fn with_the_symbol_rule_alone_a_lower_drawn_discard_draws_two_and_wins_nothing(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let options = json!({"drawn_discard_follows_symbol_rule": true});
    let mut state = table(&app, options, &[&["lemon"; 7], &["bell"; 4]], &["seven"], 1).await;
    play(&app, &mut state, 1, json!({"type": "draw"})).await;
    drawn(&app, &mut state, &["cherry"]).await;
    play(&app, &mut state, 1, json!({"type": "discard_drawn"})).await;
    assert!(points(&state).is_empty());
    assert_eq!(state["chance"]["kind"], "draw", "{state}");
    assert_eq!(state["chance"]["count"], 2, "{state}");
}

every_pipeline!(lower_wins_alone_leaves_a_drawn_discard_without_a_symbol_check);
/// `lower_discard_can_win` alone: a drawn discard has no symbol check (RULINGS J5), so it never
/// wins, whatever the other option says.
async fn lower_wins_alone_leaves_a_drawn_discard_without_a_symbol_check(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    let options = json!({"lower_discard_can_win": true});
    let mut state = table(&app, options, &[&["lemon"; 7], &["bell"; 4]], &["seven"], 1).await;
    play(&app, &mut state, 1, json!({"type": "draw"})).await;
    drawn(&app, &mut state, &["cherry"]).await;
    let events = play(&app, &mut state, 1, json!({"type": "discard_drawn"})).await;
    assert_eq!(events[0]["option"], Value::Null, "{events}");
    assert!(points(&state).is_empty());
    assert!(state["chance"].is_null(), "no penalty: {state}");
}

every_pipeline!(
    a_lower_drawn_discard_is_takeable_at_once_without_the_symbol_rule_and_after_its_penalty_with_it
);
/// `drawn_discard_follows_symbol_rule` and "I take it!": a drawn card discarded lower than the
/// top is the next seat's to take (rulebook, option 4: "If he chooses to discard it, and only
/// then, the next player can take it by announcing ITAKEIT!"; RULINGS J6). Without the symbol
/// rule it costs nothing (J5) and is takeable at once; with it, once its 2 penalty cards are in.
async fn a_lower_drawn_discard_is_takeable_at_once_without_the_symbol_rule_and_after_its_penalty_with_it(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    for symbol_rule in [false, true] {
        let options = json!({"drawn_discard_follows_symbol_rule": symbol_rule});
        let hands: &[&[&str]] = &[&["lemon"; 7], &["cherry", "grape", "clover", "bell"]];
        let mut state = table(&app, options, hands, &["seven"], 1).await;
        play(&app, &mut state, 1, json!({"type": "draw"})).await;
        drawn(&app, &mut state, &["cherry"]).await;
        play(&app, &mut state, 1, json!({"type": "discard_drawn"})).await;
        if symbol_rule {
            assert_eq!(state["chance"]["count"], 2, "{state}");
            drawn(&app, &mut state, &["lemon", "jack"]).await;
        }
        assert!(state["chance"].is_null(), "{state}");
        assert_eq!(state["turn"], 0, "{state}");
        let held = state["hands"][1].as_array().unwrap().len();
        assert_eq!(held, if symbol_rule { 6 } else { 4 }, "{state}");
        let events = play(&app, &mut state, 0, json!({"type": "take_it"})).await;
        assert_eq!(
            events[0],
            json!({"type": "took_it", "seat": 0, "card": "cherry"})
        );
        assert_eq!(state["discard"], json!(["seven"]), "the top reverts");
    }
}

every_pipeline!(
    under_the_symbol_rule_a_penalty_that_reshuffles_the_discard_pile_leaves_nothing_to_take
);
/// `drawn_discard_follows_symbol_rule`, "I take it!" and an empty draw pile: a penalty that has
/// to reshuffle turns the whole discard pile, the takeable card with it, into the draw pile, and
/// "`takeable` is cleared" (RULINGS 2.6, J9).
async fn under_the_symbol_rule_a_penalty_that_reshuffles_the_discard_pile_leaves_nothing_to_take(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let options = json!({"drawn_discard_follows_symbol_rule": true});
    let hands: &[&[&str]] = &[&["lemon"; 7], &["cherry", "grape", "clover", "bell"]];
    let mut state = table(&app, options, hands, &["seven"], 1).await;
    leave_in_draw_pile(&mut state, &["cherry", "lemon"]);
    play(&app, &mut state, 1, json!({"type": "draw"})).await;
    drawn(&app, &mut state, &["cherry"]).await;
    play(&app, &mut state, 1, json!({"type": "discard_drawn"})).await;
    assert_eq!(state["takeable"]["card"], "cherry", "{state}");
    assert_eq!(state["chance"]["count"], 1, "one card left: {state}");
    let events = report(
        &app,
        &mut state,
        json!({"kind": "draw", "cards": ["lemon"]}),
    )
    .await;
    assert_eq!(kinds(&events), ["drew", "reshuffled"]);
    assert!(state["takeable"].is_null(), "{state}");
    report(&app, &mut state, json!({"kind": "flip", "card": "seven"})).await;
    drawn(&app, &mut state, &["jack"]).await;
    assert_eq!(state["turn"], 0, "{state}");
    let code = refused(&app, &state, 0, json!({"type": "take_it"})).await;
    assert_eq!(code, "nothing_to_take");
}

every_pipeline!(
    under_the_symbol_rule_a_drawn_discard_leaving_four_alike_wins_only_with_auto_declare
);
/// `drawn_discard_follows_symbol_rule` and `jackpot_auto_declare`: under the symbol rule a drawn
/// discard same as or higher than the top is checked for a jackpot, as a regular discard is
/// (rulebook, options 1 and 2, and "End of the Round"), which is declared for the seat (RULINGS
/// J8). With auto-declare off a jackpot counts only when announced, and a drawn discard has no
/// way to announce (docs/rules/lucky-jack.md, "Where we differ" 4): it never wins, and is
/// takeable like any other.
async fn under_the_symbol_rule_a_drawn_discard_leaving_four_alike_wins_only_with_auto_declare(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    for auto in [true, false] {
        let options =
            json!({"drawn_discard_follows_symbol_rule": true, "jackpot_auto_declare": auto});
        let mut state = table(&app, options, &[&["lemon"; 7], &["bell"; 4]], &["grape"], 1).await;
        play(&app, &mut state, 1, json!({"type": "draw"})).await;
        drawn(&app, &mut state, &["jack"]).await;
        let announced = app
            .post(
                &format!("{GAME}/check"),
                &json!({
                    "state": state,
                    "seat": 1,
                    "move": {"type": "discard_drawn", "jackpot": true}
                }),
                None,
            )
            .await;
        assert_eq!(
            announced.status,
            StatusCode::BAD_REQUEST,
            "{}",
            announced.body
        );
        assert_eq!(
            announced.body["code"], "invalid_move",
            "no announcing a drawn discard"
        );
        let events = play(&app, &mut state, 1, json!({"type": "discard_drawn"})).await;
        assert_eq!(events[0]["option"], "higher", "{events}");
        if auto {
            assert_eq!(points(&state), vec![json!([0, 7000])], "{events}");
        } else {
            assert!(points(&state).is_empty(), "{events}");
            assert_eq!(state["turn"], 0, "{state}");
            assert_eq!(state["takeable"]["card"], "jack", "{state}");
        }
    }
}

every_pipeline!(without_auto_declare_a_discard_that_leaves_a_jackpot_wins_only_when_announced);
/// `jackpot_auto_declare` off and a regular discard that leaves a jackpot: the rulebook has the
/// player "say out loud JACKPOT" ("End of the Round"); RULINGS J8 declares it for them, and with
/// that ruling switched off only the announced discard wins. Unannounced, it is a plain discard
/// and the turn passes.
async fn without_auto_declare_a_discard_that_leaves_a_jackpot_wins_only_when_announced(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let options = json!({"jackpot_auto_declare": false});
    let hands: &[&[&str]] = &[&["lemon"; 7], &["grape", "bell", "bell", "bell"]];
    let start = table(&app, options, hands, &["cherry"], 1).await;
    let mut state = start.clone();
    play(
        &app,
        &mut state,
        1,
        json!({"type": "discard", "card": "grape"}),
    )
    .await;
    assert!(points(&state).is_empty(), "{state}");
    assert_eq!(state["turn"], 0, "{state}");
    assert_eq!(state["hands"][1], json!(["bell", "bell", "bell"]));
    let mut state = start;
    let announce = json!({"type": "discard", "card": "grape", "jackpot": true});
    play(&app, &mut state, 1, announce).await;
    assert_eq!(points(&state), vec![json!([0, 5000])], "{state}");
}

every_pipeline!(
    lower_wins_lets_a_lower_discard_win_before_its_penalty_announced_when_auto_declare_is_off
);
/// `lower_discard_can_win` and `jackpot_auto_declare`: a lower discard wins nothing by default,
/// since its 2 cards are drawn first (RULINGS J7, and announcing it is `not_a_jackpot`); with
/// lower wins its jackpot check comes before the penalty, declared for the seat (J8), or, with
/// auto-declare off, only when announced, the unannounced discard drawing its 2 cards.
async fn lower_wins_lets_a_lower_discard_win_before_its_penalty_announced_when_auto_declare_is_off(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let hands: &[&[&str]] = &[&["lemon"; 7], &["cherry", "bell", "bell", "bell"]];
    let plain = json!({"type": "discard", "card": "cherry"});
    let announce = json!({"type": "discard", "card": "cherry", "jackpot": true});

    let mut state = table(&app, json!({}), hands, &["seven"], 1).await;
    let code = refused(&app, &state, 1, announce.clone()).await;
    assert_eq!(code, "not_a_jackpot");
    play(&app, &mut state, 1, plain.clone()).await;
    assert!(points(&state).is_empty(), "{state}");
    assert_eq!(state["chance"]["count"], 2, "{state}");

    let options = json!({"lower_discard_can_win": true});
    let mut state = table(&app, options, hands, &["seven"], 1).await;
    play(&app, &mut state, 1, plain.clone()).await;
    assert_eq!(points(&state), vec![json!([0, 5000])], "{state}");

    let options = json!({"lower_discard_can_win": true, "jackpot_auto_declare": false});
    let start = table(&app, options, hands, &["seven"], 1).await;
    let mut state = start.clone();
    play(&app, &mut state, 1, plain).await;
    assert!(points(&state).is_empty(), "{state}");
    assert_eq!(state["chance"]["count"], 2, "{state}");
    let mut state = start;
    play(&app, &mut state, 1, announce).await;
    assert_eq!(points(&state), vec![json!([0, 5000])], "{state}");
}

every_pipeline!(
    a_take_that_makes_a_jackpot_hand_wins_on_the_same_turn_only_when_taking_does_not_end_it
);
/// `i_take_it_ends_turn` and a take that makes a jackpot hand: a jackpot is won by discarding
/// ("they discard the 4th card and say out loud JACKPOT", rulebook "End of the Round"), so the
/// take itself wins nothing. By default the taker then "plays a normal turn" (RULINGS J6), its
/// hand counted after the take (docs "Where we differ" 1), and may discard to win at once;
/// when taking ends the turn, the hand waits for the taker's next turn.
async fn a_take_that_makes_a_jackpot_hand_wins_on_the_same_turn_only_when_taking_does_not_end_it(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    for ends in [false, true] {
        let options = json!({"i_take_it_ends_turn": ends});
        let hands: &[&[&str]] = &[&["cherry"; 4], &["lemon", "bell", "bell"]];
        let mut state = table(&app, options, hands, &["lemon", "bell"], 1).await;
        takeable(&mut state);
        play(&app, &mut state, 1, json!({"type": "take_it"})).await;
        assert_eq!(state["hands"][1], json!(["lemon", "bell", "bell", "bell"]));
        assert!(points(&state).is_empty(), "{state}");
        let discard = json!({"type": "discard", "card": "lemon"});
        if ends {
            assert_eq!(state["turn"], 0, "{state}");
            assert_eq!(refused(&app, &state, 1, discard).await, "not_your_turn");
        } else {
            assert_eq!(state["turn_start_hand"], 4, "{state}");
            play(&app, &mut state, 1, discard).await;
            assert_eq!(points(&state), vec![json!([0, 5000])], "{state}");
        }
    }
}

every_pipeline!(on_the_caps_last_turn_a_jackpot_wins_and_any_other_turn_ends_the_round_unscored_after_its_penalty);
/// `max_turns_per_round` and a jackpot on the cap's last turn: the cap is RULINGS 2.7's "safety
/// cap (round ends with no score)", for a round the text gives no other end (J12); a jackpot
/// ends the round "immediately" (2.5), before the turn is counted, so it wins. Any other last
/// turn ends the round unscored once it is complete, after its penalty cards.
async fn on_the_caps_last_turn_a_jackpot_wins_and_any_other_turn_ends_the_round_unscored_after_its_penalty(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let options = json!({"max_turns_per_round": 3});
    let hands: &[&[&str]] = &[&["lemon"; 7], &["grape", "bell", "bell", "bell"]];
    let last_turn = |mut state: Value| {
        state["turns_this_round"] = json!(2);
        state
    };

    let mut state = last_turn(table(&app, options.clone(), hands, &["cherry"], 1).await);
    play(
        &app,
        &mut state,
        1,
        json!({"type": "discard", "card": "grape"}),
    )
    .await;
    assert_eq!(
        state["results"][0]["result"]["result"], "jackpot",
        "{state}"
    );
    assert_eq!(points(&state), vec![json!([0, 5000])]);

    let mut state = last_turn(table(&app, options.clone(), hands, &["cherry"], 1).await);
    play(
        &app,
        &mut state,
        1,
        json!({"type": "discard", "card": "bell"}),
    )
    .await;
    let turn_limit = json!({"result": "no_jackpot", "reason": "turn_limit"});
    assert_eq!(state["results"][0]["result"], turn_limit, "{state}");
    assert_eq!(points(&state), vec![json!([0, 0])]);

    let mut state = last_turn(table(&app, options, hands, &["seven"], 1).await);
    play(
        &app,
        &mut state,
        1,
        json!({"type": "discard", "card": "grape"}),
    )
    .await;
    assert!(
        points(&state).is_empty(),
        "the penalty is still owed: {state}"
    );
    drawn(&app, &mut state, &["lemon", "jack"]).await;
    assert_eq!(state["results"][0]["result"], turn_limit, "{state}");
}

every_pipeline!(with_a_turn_cap_a_take_that_ends_the_turn_is_one_of_the_capped_turns);
/// `max_turns_per_round` and `i_take_it_ends_turn`: when "I take it!" is the taker's whole turn
/// (RULINGS 2.4, its option), it is a completed turn and counts toward the cap (2.7); by
/// default the take only opens the taker's turn (J6) and counts for nothing by itself.
async fn with_a_turn_cap_a_take_that_ends_the_turn_is_one_of_the_capped_turns(pipeline: Pipeline) {
    let app = spawn_app_on(pipeline).await;
    for ends in [false, true] {
        let options = json!({"max_turns_per_round": 3, "i_take_it_ends_turn": ends});
        let hands: &[&[&str]] = &[&["cherry"; 4], &["lemon", "grape", "bell"]];
        let mut state = table(&app, options, hands, &["lemon", "bell"], 1).await;
        takeable(&mut state);
        state["turns_this_round"] = json!(2);
        play(&app, &mut state, 1, json!({"type": "take_it"})).await;
        if ends {
            let turn_limit = json!({"result": "no_jackpot", "reason": "turn_limit"});
            assert_eq!(state["results"][0]["result"], turn_limit, "{state}");
            assert_eq!(state["round"], 2, "{state}");
        } else {
            assert!(points(&state).is_empty(), "{state}");
            assert_eq!(state["turn"], 1, "{state}");
            assert_eq!(state["turns_this_round"], 2, "{state}");
        }
    }
}

every_pipeline!(
    each_rounds_first_turn_moves_left_from_the_dealer_and_passes_the_starter_when_it_only_flips
);
/// `dealer`, `starter_plays_after_flip` and the round number: "For the first round, the player
/// seated to the left of the player who dealt the cards will begin. For the following round,
/// the player seated to the left of the player who started the first hand will begin"
/// (rulebook "Setup", RULINGS 2.2); the starter flips and plays first (J3), or, with that
/// ruling off, the seat on its left plays first.
async fn each_rounds_first_turn_moves_left_from_the_dealer_and_passes_the_starter_when_it_only_flips(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    for plays in [true, false] {
        let options =
            json!({"dealer": 1, "starter_plays_after_flip": plays, "max_turns_per_round": 1});
        let mut state = new_match(&app, 3, options).await;
        for round in 1..=3u64 {
            let starter = (1 + round) % 3;
            let first = if plays { starter } else { (starter + 1) % 3 };
            let events = deal(&app, &mut state).await;
            let started = json!({
                "type": "round_started", "round": round, "starter": starter, "first": first
            });
            assert_eq!(events[0], started, "{events}");
            assert_eq!(state["turn"], first, "{state}");
            let first = first as usize;
            play(
                &app,
                &mut state,
                first,
                json!({"type": "discard", "card": "jack"}),
            )
            .await;
        }
        assert_eq!(state["phase"], "over", "{state}");
    }
}

every_pipeline!(at_a_rounds_start_nothing_is_takeable_neither_the_flip_nor_a_card_discarded_as_the_cap_ended_the_round);
/// `starter_plays_after_flip` (and `max_turns_per_round`) and "I take it!" at a round's start:
/// only a drawn card just discarded may be taken ("If he chooses to discard it, and only then",
/// rulebook option 4), so not the starter's flip, even by the seat on its left that plays first
/// when the starter does not; and a round's end gathers every card for the next shuffle
/// ("Shuffle the cards several times between each round"), so a drawn card discarded on the
/// turn the cap ended a round is not the next round's either.
async fn at_a_rounds_start_nothing_is_takeable_neither_the_flip_nor_a_card_discarded_as_the_cap_ended_the_round(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let take = json!({"type": "take_it"});

    let mut state = new_match(&app, 2, json!({"starter_plays_after_flip": false})).await;
    deal(&app, &mut state).await;
    assert_eq!(state["starter"], 1, "{state}");
    assert_eq!(state["turn"], 0, "{state}");
    assert_eq!(
        refused(&app, &state, 0, take.clone()).await,
        "nothing_to_take"
    );

    let mut state = new_match(&app, 2, json!({"max_turns_per_round": 1})).await;
    deal(&app, &mut state).await;
    play(&app, &mut state, 1, json!({"type": "draw"})).await;
    drawn(&app, &mut state, &["jack"]).await;
    let events = play(&app, &mut state, 1, json!({"type": "discard_drawn"})).await;
    assert!(kinds(&events).contains(&"round_ended"), "{events}");
    deal(&app, &mut state).await;
    assert_eq!(
        state["turn"], 0,
        "seat 0 would have taken the jack: {state}"
    );
    assert_eq!(refused(&app, &state, 0, take).await, "nothing_to_take");
}

every_pipeline!(rounds_the_cap_ends_count_among_the_rounds_and_the_last_one_ends_the_game);
/// `rounds` and `max_turns_per_round`: a round the cap ends is played and scores nobody (RULINGS
/// 2.7), so it counts among the 3 or 5 rounds ("The players decide in the beginning of the game
/// to play 3 or 5 rounds", rulebook "End of the Game"); after the last the game is over, equal
/// totals sharing the win (J12).
async fn rounds_the_cap_ends_count_among_the_rounds_and_the_last_one_ends_the_game(
    pipeline: Pipeline,
) {
    let app = spawn_app_on(pipeline).await;
    let options = json!({"rounds": 5, "max_turns_per_round": 1});
    let mut state = new_match(&app, 2, options).await;
    for round in 1..=5 {
        assert_eq!(state["phase"], "deal", "{state}");
        assert_eq!(state["round"], round, "{state}");
        deal(&app, &mut state).await;
        let first = state["turn"].as_u64().unwrap() as usize;
        let events = play(
            &app,
            &mut state,
            first,
            json!({"type": "discard", "card": "jack"}),
        )
        .await;
        let last = events.as_array().unwrap().last().unwrap();
        if round < 5 {
            assert_eq!(last["type"], "round_ended", "{events}");
        } else {
            let ended = json!({"type": "game_ended", "winners": [0, 1], "totals": [0, 0]});
            assert_eq!(*last, ended, "{events}");
        }
    }
    assert_eq!(state["phase"], "over", "{state}");
    assert_eq!(state["results"].as_array().unwrap().len(), 5, "{state}");
}
