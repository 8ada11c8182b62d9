//! The committed OpenAPI document is the one the code generates, so clients generating code from
//! `openapi/openapi.json` always match the service.

use serde_json::{json, Value};

use crate::support::spawn_app;

#[test]
fn the_committed_openapi_document_matches_the_code() {
    let generated = referee::http::openapi_text();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        generated == committed,
        "openapi/openapi.json is out of date: run `cargo run --bin gen-openapi` and commit it"
    );
}

/// Every example the spec shows for a game's moves, chance outcomes, tallies and options parses as
/// that game's type: clients copying an example get a well-formed request.
#[test]
fn every_reference_in_the_document_names_a_schema_it_holds() {
    // Generated clients refuse a document with a dangling `$ref` (a path parameter's enum that
    // no body uses is not collected into the components by itself).
    fn refs(value: &Value, found: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                for (key, inner) in map {
                    match (key.as_str(), inner) {
                        ("$ref", Value::String(target)) => found.push(target.clone()),
                        _ => refs(inner, found),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|item| refs(item, found)),
            _ => {}
        }
    }
    let spec = referee::http::openapi();
    let mut found = Vec::new();
    refs(&spec, &mut found);
    let dangling: Vec<&String> = found
        .iter()
        .filter(|target| {
            let name = target.trim_start_matches("#/components/schemas/");
            spec["components"]["schemas"].get(name).is_none()
        })
        .collect();
    assert!(!found.is_empty());
    assert!(dangling.is_empty(), "references to no schema: {dangling:?}");
}

#[test]
fn every_game_example_in_the_spec_parses_as_the_games_type() {
    use referee::games::{Game, GameKind};
    use referee::referee::{parse, What};
    let spec = referee::http::openapi();
    let schemas = &spec["components"]["schemas"];
    for &kind in GameKind::ALL {
        let prefix: String = kind
            .title()
            .chars()
            .filter(|c| c.is_alphanumeric())
            .collect();
        let examples = |name: &str| -> Vec<serde_json::Value> {
            let schema = &schemas[format!("{prefix}{name}")];
            assert!(schema.is_object(), "{prefix}{name} is in the spec");
            let mut all: Vec<serde_json::Value> =
                schema["examples"].as_array().cloned().unwrap_or_default();
            all.extend(schema.get("example").cloned());
            all
        };
        referee::with_game!(kind, G => {
            let moves = examples("Move");
            assert!(moves.len() >= 2, "{prefix}: an example for every kind of move");
            for example in moves {
                parse::<<G as Game>::Move>(What::Move, example.clone())
                    .unwrap_or_else(|e| panic!("{prefix} move example {example}: {e}"));
            }
            for example in examples("Chance") {
                parse::<<G as Game>::Chance>(What::Chance, example.clone())
                    .unwrap_or_else(|e| panic!("{prefix} chance example {example}: {e}"));
            }
            for example in examples("Tally") {
                parse::<<G as Game>::Tally>(What::Tally, example.clone())
                    .unwrap_or_else(|e| panic!("{prefix} tally example {example}: {e}"));
            }
        });
    }
}

/// Every operation that takes a body documents a working example of it, and the examples tell a
/// story a fresh service accepts in order (issue 13: "a test checks that each example request,
/// sent to a fresh service, gets its documented status"): a table match is created, its deal
/// reported and corrected, its first move made and taken back; a sheet is started and its first round entered; every
/// stateless example is answered. Ids and owner tokens come from the story's own replies, as a
/// person on the docs page would paste them.
#[tokio::test]
async fn every_documented_request_example_gets_its_documented_success() {
    use crate::support::{match_id, owner_token, spawn_app};
    let app = spawn_app().await;
    let spec = referee::http::openapi();
    // The story's order; the other operations with a body (the stateless ones) stand alone.
    const STORY: [&str; 7] = [
        "/v1/matches",
        "/v1/matches/{id}/chance",
        "/v1/matches/{id}/corrections",
        "/v1/matches/{id}/moves",
        "/v1/matches/{id}/take-backs",
        "/v1/sheets",
        "/v1/sheets/{id}/entries",
    ];
    // A sheet's owner's other writes (removing its last round, renaming a player, finishing it
    // early) each run on a sheet of their own, made from the story's sheet examples.
    let mut operations: Vec<(String, &str, serde_json::Value)> = Vec::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for method in ["post", "patch"] {
            let Some(operation) = item
                .get(method)
                .filter(|op| op.get("requestBody").is_some())
            else {
                continue;
            };
            if method == "post" || path.starts_with("/v1/sheets/") {
                operations.push((path.clone(), method, operation.clone()));
            }
        }
    }
    let mends = |path: &str| path.starts_with("/v1/sheets/{id}/") && !STORY.contains(&path);
    operations.sort_by_key(|(path, _, _)| {
        STORY
            .iter()
            .position(|p| p == path)
            .unwrap_or(if mends(path) { STORY.len() } else { 0 })
    });
    assert!(
        operations.len() >= STORY.len() + 7,
        "the stateless operations take bodies too"
    );
    // The match's and the sheet's (id, owner token), once created.
    let mut hosted: Option<(String, String)> = None;
    let mut sheet: Option<(String, String)> = None;
    for (path, method, operation) in operations {
        let example = &operation["requestBody"]["content"]["application/json"]["example"];
        assert!(example.is_object(), "{path} documents an example body");
        let success: u16 = operation["responses"]
            .as_object()
            .unwrap()
            .keys()
            .find_map(|status| status.parse().ok().filter(|s| (200..300).contains(s)))
            .unwrap_or_else(|| panic!("{path} documents its success"));
        if mends(&path) {
            let created = app
                .post("/v1/sheets", &spec_example(&spec, "/v1/sheets"), None)
                .await;
            let id = created.body["sheet"]["id"].as_str().unwrap().to_owned();
            let token = owner_token(&created.body);
            let entry = spec_example(&spec, "/v1/sheets/{id}/entries");
            let entered = app
                .post(&format!("/v1/sheets/{id}/entries"), &entry, Some(&token))
                .await;
            assert_eq!(entered.status, 200, "{}", entered.body);
            sheet = Some((id, token));
        }
        let fixture = if path.starts_with("/v1/matches/") {
            hosted.as_ref()
        } else if path.starts_with("/v1/sheets/") {
            sheet.as_ref()
        } else {
            None
        };
        // A household's operations work on a new household, with its owner key.
        let household = if path.starts_with("/v1/households/{id}/") {
            let made = app
                .post(
                    "/v1/households",
                    &spec_example(&spec, "/v1/households"),
                    None,
                )
                .await;
            let id = made.body["household"]["id"].as_str().unwrap().to_owned();
            Some((id, made.body["owner_key"].as_str().unwrap().to_owned()))
        } else {
            None
        };
        let url = match fixture.or(household.as_ref()) {
            Some((id, _)) => path.replace("{id}", id).replace("{seat}", "1"),
            None => path.clone(),
        };
        let mut request = match method {
            "patch" => app.client.patch(format!("{}{url}", app.base)),
            _ => app.client.post(format!("{}{url}", app.base)),
        }
        .json(example);
        if let Some((_, token)) = fixture {
            request = request.bearer_auth(token);
        }
        if let Some((_, key)) = &household {
            request = request.header("Household-Key", key);
        }
        let reply = app.send(request).await;
        assert_eq!(
            reply.status.as_u16(),
            success,
            "{path} with its documented example {example}: {}",
            reply.body
        );
        match path.as_str() {
            "/v1/matches" => hosted = Some((match_id(&reply.body), owner_token(&reply.body))),
            "/v1/sheets" => {
                let id = reply.body["sheet"]["id"].as_str().unwrap().to_owned();
                sheet = Some((id, owner_token(&reply.body)));
            }
            _ => {}
        }
    }
}

/// The example body an operation documents (its `post`).
fn spec_example(spec: &serde_json::Value, path: &str) -> serde_json::Value {
    spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]["example"].clone()
}

/// Each game's example of a match or a sheet to create (on its own schema) is one the service
/// creates: a client starting from any game's example gets a 201.
#[tokio::test]
async fn every_games_create_example_creates() {
    let app = crate::support::spawn_app().await;
    let spec = referee::http::openapi();
    let mut created = 0;
    for (name, schema) in spec["components"]["schemas"].as_object().unwrap() {
        let path = if name.ends_with("CreateMatch") {
            "/v1/matches"
        } else if name.ends_with("CreateSheet") {
            "/v1/sheets"
        } else {
            continue;
        };
        for example in schema["examples"].as_array().into_iter().flatten() {
            let reply = app.post(path, example, None).await;
            assert_eq!(
                reply.status, 201,
                "{name} example {example}: {}",
                reply.body
            );
            created += 1;
        }
    }
    assert_eq!(created, 10, "one match and one sheet example per game");
}

/// The example problems the document shows are real ones: each has the title, type and status
/// the service gives its code.
#[test]
fn every_documented_problem_example_is_a_real_problem() {
    let spec = referee::http::openapi();
    let mut seen = 0;
    for item in spec["paths"].as_object().unwrap().values() {
        for operation in item.as_object().unwrap().values() {
            for (status, answer) in operation["responses"].as_object().unwrap() {
                let example = &answer["content"]["application/problem+json"]["example"];
                let Some(code) = example["code"].as_str() else {
                    continue;
                };
                assert_eq!(example["title"], referee::problem::title(code), "{code}");
                assert_eq!(example["type"], format!("urn:referee:problem:{code}"));
                if let Ok(status) = status.parse::<u64>() {
                    assert_eq!(example["status"], status, "{code}");
                }
                seen += 1;
            }
        }
    }
    assert!(
        seen > 50,
        "the operations document their problems ({seen} examples)"
    );
}

/// Issue 25, item 15: a stateless client's state names its table size, and the service refuses
/// a size its game does not seat (`inconsistent_state`), so each game's state schema bounds
/// `players` by the game's own range, as the catalogue states it (a fuzzer found `players: 0`
/// schema-valid).
#[tokio::test]
async fn each_games_state_schema_bounds_players_by_the_seats_the_game_has() {
    let app = spawn_app().await;
    let spec: Value = serde_json::from_str(&referee::http::openapi_text()).unwrap();
    let catalogue = app.get("/v1/games", None).await.body;
    let games = catalogue.as_array().unwrap();
    assert_eq!(games.len(), 5);
    for game in games {
        let title: String = game["title"]
            .as_str()
            .unwrap()
            .split([' ', '&'])
            .filter(|word| !word.is_empty())
            .collect();
        let players =
            &spec["components"]["schemas"][format!("{title}State")]["properties"]["players"];
        assert_eq!(
            players["minimum"], game["min_players"],
            "{title}: {players}"
        );
        assert_eq!(
            players["maximum"], game["max_players"],
            "{title}: {players}"
        );
        let slug = game["slug"].as_str().unwrap();
        let path = format!("/v1/games/{slug}/view");
        let refused = app
            .post(
                &path,
                &json!({"state": {"players": 0}, "viewer": "full"}),
                None,
            )
            .await;
        assert!(refused.status.is_client_error(), "{path}: {}", refused.body);
    }
}

/// Issue 25, item 15: a header is sent or not, never `null`; a schema that allowed `null` let a
/// fuzzer send `Last-Event-ID: null`, which the service refuses.
#[test]
fn no_header_parameter_admits_null() {
    let spec: Value = serde_json::from_str(&referee::http::openapi_text()).unwrap();
    let mut headers = 0;
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let parameters = operation["parameters"].as_array().into_iter().flatten();
            for parameter in parameters.filter(|p| p["in"] == "header") {
                headers += 1;
                let kind = &parameter["schema"]["type"];
                assert!(
                    kind.is_string() && kind != "null",
                    "{method} {path}: {} is {kind}",
                    parameter["name"]
                );
            }
        }
    }
    assert!(headers > 10, "only {headers} header parameters found");
}

/// Strings the schema's `pattern` allows: `count` of them, drawn deterministically (the pattern's
/// anchors dropped, as the generator cannot draw them; they hold for the whole string anyway).
fn drawn_from(pattern: &str, count: usize) -> Vec<String> {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;
    let unanchored = pattern
        .strip_prefix('^')
        .and_then(|p| p.strip_suffix('$'))
        .unwrap_or(pattern);
    let strategy = proptest::string::string_regex(unanchored).unwrap();
    let mut runner = TestRunner::deterministic();
    (0..count)
        .map(|_| strategy.new_tree(&mut runner).unwrap().current())
        .collect()
}

/// Every parameter named `name` of every operation, with its operation.
fn parameters_named(spec: &Value, name: &str) -> Vec<(String, Value)> {
    let mut found = Vec::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            for parameter in operation["parameters"].as_array().into_iter().flatten() {
                if parameter["name"] == name {
                    found.push((format!("{method} {path}"), parameter.clone()));
                }
            }
        }
    }
    found
}

/// Hardening round 4 (schema-valid requests answered 400): the invite link's `{code}` states the
/// shape the service reads, so every code the schema allows is read as a code (a wrong one is a
/// 404, never `400 invalid_invite_code`), and codes of another shape or length are outside it.
#[tokio::test]
async fn the_invite_code_parameter_states_the_shape_of_code_the_service_reads() {
    use referee::tokens::{canonical_invite_code, INVITE_CODE_LEN, INVITE_CODE_TYPED_MAX};
    let spec = referee::http::openapi();
    let codes = parameters_named(&spec, "code");
    assert_eq!(codes.len(), 2, "get and redeem: {codes:?}");
    let schema = &codes[0].1["schema"];
    for (operation, parameter) in &codes {
        assert_eq!(&parameter["schema"], schema, "{operation}");
    }
    let pattern = schema["pattern"].as_str().expect("a pattern");
    let (min, max) = (
        schema["minLength"].as_u64().unwrap() as usize,
        schema["maxLength"].as_u64().unwrap() as usize,
    );
    assert_eq!((min, max), (INVITE_CODE_LEN, INVITE_CODE_TYPED_MAX));
    // The generator draws long runs for `*`: draw runs of up to 3 separators, which keeps most
    // codes within `maxLength` (the schema's language, but for the longest separator runs).
    let drawn: Vec<String> = drawn_from(&pattern.replace("[ -]*", "[ -]{0,3}"), 2_000)
        .into_iter()
        .filter(|code| (min..=max).contains(&code.chars().count()))
        .collect();
    assert!(drawn.len() > 500, "only {} codes drawn", drawn.len());
    for code in &drawn {
        assert!(canonical_invite_code(code).is_some(), "{code:?}");
    }
    // What the service refuses is outside the schema: a symbol it does not use (`U`), a
    // letter of another script, too few or too many symbols, too long with separators.
    for refused in [
        "ABCDEFGHJU",
        "ABCDEFGHJ\u{3A4}",
        "ABCDEFGHJ",
        "ABCDEFGHJKM",
        &format!("{}7KQ2M9XW4D", "-".repeat(31)),
    ] {
        assert!(canonical_invite_code(refused).is_none(), "{refused:?}");
    }
    let app = spawn_app().await;
    for code in drawn.iter().take(5) {
        let path = format!("/v1/invites/{}", code.replace(' ', "%20"));
        let reply = app.get(&path, None).await;
        assert_eq!(reply.status.as_u16(), 404, "{code:?}: {}", reply.body);
        assert_eq!(reply.body["code"], "unknown_invite");
    }
    let long = format!("/v1/invites/{}7KQ2M9XW4D", "-".repeat(31));
    let reply = app.get(&long, None).await;
    assert_eq!(reply.body["code"], "invalid_invite_code", "{}", reply.body);
}

/// Hardening round 4: `If-Match: EQJ` was schema-valid and answered 412. On every write that
/// reads it, the header's pattern is one quoted (strong) entity tag or `*`, and no value the
/// pattern allows is refused as a malformed header (400): it is ours and current, or a 412.
#[tokio::test]
async fn every_write_that_reads_if_match_declares_it_as_one_quoted_entity_tag_or_a_star() {
    let spec = referee::http::openapi();
    let headers = parameters_named(&spec, "If-Match");
    assert_eq!(headers.len(), 8, "four match writes, four sheet writes");
    for (operation, parameter) in &headers {
        assert_eq!(
            parameter["schema"]["pattern"], "^(\\*|\"[!#-+\\--~]*\")$",
            "{operation}"
        );
    }
    let pattern = headers[0].1["schema"]["pattern"].as_str().unwrap();
    let app = spawn_app().await;
    let created = app
        .post(
            "/v1/sheets",
            &json!({"game": "lucky-jack", "players": [{"name": "Ann"}, {"name": "Ben"}]}),
            None,
        )
        .await;
    let id = created.body["sheet"]["id"].as_str().unwrap().to_owned();
    let token = created.body["owner_token"].as_str().unwrap().to_owned();
    let mut values = drawn_from(pattern, 20);
    values.extend(["*".to_owned(), "\"v0\"".to_owned(), "\"\"".to_owned()]);
    for value in values {
        let reply = app
            .send(
                app.client
                    .post(format!("{}/v1/sheets/{id}/entries", app.base))
                    .bearer_auth(&token)
                    .header("If-Match", &value)
                    // Not a round of the game: a write that gets past its guard is refused
                    // by the rules, so the sheet stays at version 0.
                    .json(&json!({"tally": {"jackpot": {"seat": 9, "symbol": "jack", "size": 3}}})),
            )
            .await;
        assert_ne!(reply.status.as_u16(), 400, "{value:?}: {}", reply.body);
        assert!(
            [412, 422].contains(&reply.status.as_u16()),
            "{value:?}: {}",
            reply.body
        );
    }
}

/// The schema a `$ref` names, or the schema itself.
fn resolved<'a>(spec: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(reference) => {
            let name = reference.trim_start_matches("#/components/schemas/");
            &spec["components"]["schemas"][name]
        }
        None => schema,
    }
}

/// Every number and integer schema reachable from `schema`, with the path to it.
fn numbers_within(
    spec: &Value,
    schema: &Value,
    at: String,
    seen: &mut Vec<String>,
    found: &mut Vec<(String, Value)>,
) {
    if let Some(reference) = schema["$ref"].as_str() {
        if seen.iter().any(|s| s == reference) {
            return;
        }
        seen.push(reference.to_owned());
    }
    let schema = resolved(spec, schema);
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    if types.iter().any(|t| *t == "number" || *t == "integer") {
        found.push((at.clone(), schema.clone()));
    }
    for (key, inner) in schema.as_object().into_iter().flatten() {
        match (key.as_str(), inner) {
            ("properties", Value::Object(properties)) => {
                for (name, property) in properties {
                    numbers_within(spec, property, format!("{at}.{name}"), seen, found);
                }
            }
            ("items" | "additionalProperties", Value::Object(_)) => {
                numbers_within(spec, inner, format!("{at}[]"), seen, found);
            }
            ("anyOf" | "oneOf" | "allOf", Value::Array(parts)) => {
                for part in parts {
                    numbers_within(spec, part, at.clone(), seen, found);
                }
            }
            _ => {}
        }
    }
}

/// Hardening round 4 (a number out of range inside an import answered `400 malformed_body`):
/// every number an import file can carry states the bounds the body reader holds every number
/// to, ±(2^53 − 1); a rating's figures, a `double` the derived schema left unbounded, among them.
/// At the bound a file is read; one past it is the reader's 400.
#[tokio::test]
async fn every_number_an_import_file_carries_states_the_bounds_the_body_reader_holds_it_to() {
    const MAX: i64 = (1 << 53) - 1;
    let spec = referee::http::openapi();
    let body = &spec["paths"]["/v1/imports/bgstats"]["post"]["requestBody"]["content"]
        ["application/json"]["schema"];
    let mut found = Vec::new();
    numbers_within(&spec, body, "file".into(), &mut Vec::new(), &mut found);
    let ratings: Vec<&String> = found
        .iter()
        .map(|(at, _)| at)
        .filter(|at| at.contains(".rating.before."))
        .collect();
    // The figures are SkillRating's, as the rating reads answer them.
    let figures: Vec<String> = spec["components"]["schemas"]["SkillRating"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(|figure| format!("file.plays[].referee.seats[].rating.before.{figure}"))
        .collect();
    assert_eq!(ratings, figures.iter().collect::<Vec<_>>());
    for (at, number) in &found {
        let (low, high) = (number["minimum"].as_f64(), number["maximum"].as_f64());
        assert!(
            low.is_some_and(|low| low >= -(MAX as f64))
                && high.is_some_and(|high| high <= MAX as f64),
            "{at}: {number}"
        );
    }
    assert!(found.len() > 15, "only {} numbers found", found.len());

    let app = spawn_app().await;
    let file = |mu: Value| {
        let rating = json!({"mu": mu, "sigma": 8.3, "rating": 0.0});
        json!({
            "players": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Ben"}],
            "games": [{"id": 1, "name": "Lucky Dice"}],
            "plays": [{
                "uuid": "0b5e3c1a-2d4f-4e6a-8b7c-9d0e1f2a3b4c", "gameRefId": 1,
                "playDate": "2026-01-01 20:00:00",
                "playerScores": [{"playerRefId": 1, "score": "3", "winner": true, "rank": 1},
                                 {"playerRefId": 2, "score": "1", "rank": 2}],
                "referee": {"kind": "sheet", "game": "lucky-dice", "options": {},
                            "createdAt": "2026-01-01T19:00:00Z", "endedAt": "2026-01-01T20:00:00Z",
                            "seats": [{"rating": {"before": rating, "after": rating}}, {}]}
            }]
        })
    };
    let at_the_bound = app
        .post("/v1/imports/bgstats", &file(json!(MAX)), None)
        .await;
    assert_eq!(at_the_bound.status, 200, "{}", at_the_bound.body);
    let past_it = app
        .post("/v1/imports/bgstats", &file(json!(MAX + 1)), None)
        .await;
    assert_eq!(past_it.status, 400, "{}", past_it.body);
    assert_eq!(past_it.body["code"], "malformed_body", "{}", past_it.body);
}
