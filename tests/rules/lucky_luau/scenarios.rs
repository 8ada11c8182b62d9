//! Data-driven Lucky Luau scenarios: every `tests/data/lucky_luau/*.json` file holds a `source`
//! (rulebook passage or RULINGS id) and cases of two kinds. A `scoring` case types a lei as a
//! person would and checks each card's points (and, where given, the reasons) and the total. A
//! `play` case starts from setup or a `table`, runs `steps` (a seat's move or a chance outcome,
//! each expecting `ok` or a violation code) and checks the final `expect`ations.

use std::path::Path;

use referee::games::lucky_luau::{
    scoring, words, Chance, Counts, LeiText, LuckyLuau, Move, Options, Phase, Slot, State, Tally,
};
use referee::games::{Game, Seat, Violation};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    source: String,
    #[serde(default)]
    scoring: Vec<ScoringCase>,
    #[serde(default)]
    tally: Vec<TallyCase>,
    #[serde(default)]
    play: Vec<PlayCase>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScoringCase {
    name: String,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    options: Options,
    lei: String,
    points: Vec<i64>,
    total: i64,
    #[serde(default)]
    reasons: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TallyCase {
    name: String,
    #[serde(default)]
    options: Options,
    tally: Tally,
    #[serde(default)]
    totals: Option<Vec<i64>>,
    #[serde(default)]
    winners: Option<Vec<Seat>>,
    #[serde(default)]
    lines: Option<Vec<Vec<String>>>,
    /// A violation code instead of a score.
    #[serde(default)]
    refused: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayCase {
    name: String,
    #[serde(default)]
    source: Option<String>,
    players: usize,
    #[serde(default)]
    options: Options,
    #[serde(default)]
    table: Option<Table>,
    #[serde(default)]
    steps: Vec<Step>,
    #[serde(default)]
    expect: Expect,
}

/// A table in play: each seat's lei as words (a Hook or Spacer on it marks that tool used), the
/// face-up and face-down cards; every card not listed is appended to the lei of `rest_to`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    leis: Vec<String>,
    #[serde(default)]
    face_down: Vec<String>,
    #[serde(default)]
    face_up: Vec<String>,
    rest_to: Seat,
    turn: Seat,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Step {
    #[serde(default)]
    seat: Option<Seat>,
    #[serde(default, rename = "move")]
    mv: Option<Move>,
    #[serde(default)]
    chance: Option<Chance>,
    /// `ok` (default) or the violation code.
    #[serde(default = "ok")]
    expect: String,
}

fn ok() -> String {
    "ok".into()
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Expect {
    phase: Option<Phase>,
    turn: Option<Seat>,
    to_act: Option<Vec<Seat>>,
    leis: Option<Vec<String>>,
    face_up: Option<Vec<String>>,
    face_down_count: Option<usize>,
    lei_points: Option<Vec<i64>>,
    totals: Option<Vec<i64>>,
    winners: Option<Vec<Seat>>,
    over: Option<bool>,
    events: Option<Vec<serde_json::Value>>,
}

fn slots(seat: Seat, text: &str) -> Vec<Slot> {
    words::parse_lei(seat, &LeiText::Words(text.into()))
        .expect("scenario lei words")
        .lei
}

fn cards(list: &[String]) -> Counts {
    Counts::of(
        list.iter()
            .flat_map(|w| slots(0, w))
            .map(|s| s.card().expect("a pile card")),
    )
}

fn start(case: &PlayCase) -> State {
    let valid = LuckyLuau::validate_options(&case.options, case.players).expect("valid options");
    let mut state = LuckyLuau::setup(valid);
    let Some(table) = &case.table else {
        return state;
    };
    assert_eq!(table.leis.len(), case.players, "table leis");
    let mut rest = Counts::full_pile();
    for (seat, text) in table.leis.iter().enumerate() {
        let lei = slots(seat, text);
        let player = &mut state.seats[seat];
        player.hook_used = lei.contains(&Slot::Hook);
        player.spacer_used = lei.contains(&Slot::Spacer);
        for card in lei.iter().filter_map(|s| s.card()) {
            assert!(rest.take(card), "too many {card:?}");
        }
        player.lei = lei;
    }
    state.face_down = cards(&table.face_down);
    state.face_up = cards(&table.face_up);
    for card in state
        .face_down
        .canonical()
        .into_iter()
        .chain(state.face_up.canonical())
    {
        assert!(rest.take(card), "too many {card:?}");
    }
    state.seats[table.rest_to]
        .lei
        .extend(rest.canonical().into_iter().map(Slot::from));
    state.turn = table.turn;
    LuckyLuau::check_state(&state).expect("scenario table is consistent");
    state
}

fn run_play(case: &PlayCase) -> Result<(), String> {
    let mut state = referee::games::Consistent::<LuckyLuau>::check(start(case))
        .expect("a scenario starts from a consistent table");
    let mut events = Vec::new();
    for (i, step) in case.steps.iter().enumerate() {
        let result = match (&step.mv, &step.chance) {
            (Some(mv), None) => {
                let seat = step.seat.ok_or(format!("step {i}: a move needs a seat"))?;
                referee::referee::play_move::<LuckyLuau>(&mut state, seat, mv)
                    .map_err(|e| e.code().to_owned())
            }
            (None, Some(outcome)) => {
                referee::referee::play_chance::<LuckyLuau>(&mut state, outcome)
                    .map_err(|e| e.code().to_owned())
            }
            _ => return Err(format!("step {i}: exactly one of move / chance")),
        };
        match (result, step.expect.as_str()) {
            (Ok(evs), "ok") => events = evs,
            (Err(code), want) if code == want => {}
            (Ok(_), want) => return Err(format!("step {i}: accepted, expected {want}")),
            (Err(code), want) => return Err(format!("step {i}: refused {code}, expected {want}")),
        }
        LuckyLuau::check_state(&state).map_err(|e| format!("step {i}: {e}"))?;
    }
    let e = &case.expect;
    let score = LuckyLuau::score(&state);
    let mismatch =
        |what: &str, got: String, want: String| Err(format!("{what}: got {got}, expected {want}"));
    macro_rules! check {
        ($field:ident, $got:expr) => {
            if let Some(want) = &e.$field {
                let got = $got;
                if &got != want {
                    return mismatch(stringify!($field), format!("{got:?}"), format!("{want:?}"));
                }
            }
        };
    }
    check!(phase, state.phase);
    check!(turn, state.turn);
    check!(to_act, LuckyLuau::to_act(&state));
    if let Some(want) = &e.leis {
        for (seat, text) in want.iter().enumerate() {
            if state.seats[seat].lei != slots(seat, text) {
                return mismatch("lei", format!("{:?}", state.seats[seat].lei), text.clone());
            }
        }
    }
    if let Some(want) = &e.face_up {
        if state.face_up != cards(want) {
            return mismatch("face_up", format!("{:?}", state.face_up), want.join(" "));
        }
    }
    check!(face_down_count, state.face_down.total());
    // Lei points and totals are checked for the first seats listed (a table's `rest_to` lei
    // holds whatever the scenario did not place).
    let prefix = |all: Vec<i64>, want: &Option<Vec<i64>>| {
        want.as_ref()
            .map(|w| all.into_iter().take(w.len()).collect::<Vec<_>>())
    };
    if let Some(got) = prefix(
        score.seats.iter().map(|s| s.lei_points).collect(),
        &e.lei_points,
    ) {
        if Some(&got) != e.lei_points.as_ref() {
            return mismatch(
                "lei_points",
                format!("{got:?}"),
                format!("{:?}", e.lei_points),
            );
        }
    }
    if let Some(got) = prefix(score.totals.clone(), &e.totals) {
        if Some(&got) != e.totals.as_ref() {
            return mismatch("totals", format!("{got:?}"), format!("{:?}", e.totals));
        }
    }
    check!(winners, LuckyLuau::standings(&state).winners);
    check!(over, LuckyLuau::is_over(&state));
    check!(
        events,
        events
            .iter()
            .map(|ev| serde_json::to_value(ev).unwrap())
            .collect::<Vec<_>>()
    );
    Ok(())
}

fn run_scoring(case: &ScoringCase) -> Result<(), String> {
    let parsed =
        words::parse_lei(0, &LeiText::Words(case.lei.clone())).map_err(|e| e.to_string())?;
    let scored = scoring::score_lei(&case.options, &parsed.lei, &parsed.declared)
        .map_err(|e| e.to_string())?;
    let points: Vec<i64> = scored.slots.iter().map(|s| s.points).collect();
    if points != case.points || scored.points != case.total {
        return Err(format!(
            "points {points:?} = {}, expected {:?} = {}",
            scored.points, case.points, case.total
        ));
    }
    if let Some(reasons) = &case.reasons {
        let got: Vec<&String> = scored.slots.iter().map(|s| &s.reason).collect();
        if got.iter().zip(reasons).any(|(g, w)| *g != w) || got.len() != reasons.len() {
            return Err(format!("reasons {got:#?}"));
        }
    }
    Ok(())
}

fn run_tally(case: &TallyCase) -> Result<(), String> {
    let players = case.tally.leis.len();
    let result = LuckyLuau::score_tally(&case.options, players, 1, &case.tally);
    match (&case.refused, result) {
        (Some(code), Err(v)) if v.code() == code => Ok(()),
        (Some(code), other) => Err(format!("expected {code}, got {other:?}")),
        (None, Err(v)) => Err(format!("refused: {v}")),
        (None, Ok(score)) => {
            if let Some(totals) = &case.totals {
                if &score.totals != totals {
                    return Err(format!("totals {:?}", score.totals));
                }
            }
            if let Some(winners) = &case.winners {
                if &score.winners != winners {
                    return Err(format!("winners {:?}", score.winners));
                }
            }
            if let Some(lines) = &case.lines {
                for (seat, want) in lines.iter().enumerate() {
                    if &score.seats[seat].lines != want {
                        return Err(format!("lines {:#?}", score.seats[seat].lines));
                    }
                }
            }
            Ok(())
        }
    }
}

#[test]
fn every_scenario_file_plays_as_its_rulebook_passage_says() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lucky_luau");
    let mut failures = Vec::new();
    let mut count = 0;
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let file: File =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(!file.source.is_empty(), "{}: a source", path.display());
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for case in &file.scoring {
            count += 1;
            let _ = &case.source;
            if let Err(e) = run_scoring(case) {
                failures.push(format!("{name} / {}: {e}", case.name));
            }
        }
        for case in &file.tally {
            count += 1;
            if let Err(e) = run_tally(case) {
                failures.push(format!("{name} / {}: {e}", case.name));
            }
        }
        for case in &file.play {
            count += 1;
            let _ = &case.source;
            if let Err(e) = run_play(case) {
                failures.push(format!("{name} / {}: {e}", case.name));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(count >= 10, "only {count} cases");
}
