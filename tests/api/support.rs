//! Test harness: each test gets the app on a free port and a database of its own, taken from a
//! pool of databases cloned from a template that is migrated once per migrations content, and
//! emptied back to the template's contents before each test.

#[path = "../audit/mod.rs"]
mod audit;

use diesel_async::async_connection_wrapper::AsyncConnectionWrapper;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use referee::config::Settings;
use referee::store::Store;
use reqwest::StatusCode;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

/// The PostgreSQL server tests use; they create and drop their own databases on it.
pub fn server_url() -> String {
    std::env::var("TEST_DATABASE_SERVER")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432".to_owned())
}

async fn admin() -> AsyncPgConnection {
    AsyncPgConnection::establish(&format!("{}/postgres", server_url()))
        .await
        .expect("connect to PostgreSQL as postgres (is it running?)")
}

/// What a test database holds beside `public` (in the schema `referee_test`, made in the
/// template right after migrating it): the rows the migrations seeded, a fingerprint of the schema
/// they made, and `reset()`, which brings a used database back to the template's contents: every
/// table emptied, the seeded rows put back. It refuses (answers false) when the schema is no longer
/// the template's (a test altered a table or a trigger), and the database is then made anew.
const TEST_SCHEMA: &str = r#"
CREATE SCHEMA referee_test;

CREATE FUNCTION referee_test.fingerprint() RETURNS text LANGUAGE sql AS $fingerprint$
    SELECT md5(string_agg(line, E'\n' ORDER BY line)) FROM (
        SELECT 'relation ' || relname || ' ' || relkind::text AS line FROM pg_class
         WHERE relnamespace = 'public'::regnamespace
        UNION ALL
        SELECT 'column ' || c.relname || '.' || a.attname || ' '
            || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull::text || ' '
            || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
          FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
          LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
         WHERE c.relnamespace = 'public'::regnamespace AND a.attnum > 0 AND NOT a.attisdropped
        UNION ALL
        SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
        UNION ALL
        SELECT 'constraint ' || conrelid::regclass::text || ' ' || pg_get_constraintdef(oid)
          FROM pg_constraint WHERE connamespace = 'public'::regnamespace
        UNION ALL
        SELECT 'trigger ' || pg_get_triggerdef(oid) || ' ' || tgenabled::text
          FROM pg_trigger WHERE NOT tgisinternal
        UNION ALL
        SELECT 'function ' || pg_get_functiondef(oid) FROM pg_proc
         WHERE pronamespace = 'public'::regnamespace
        UNION ALL
        SELECT 'setting ' || array_to_string(setconfig, ',') FROM pg_db_role_setting
         WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
    ) AS schema
$fingerprint$;

CREATE TABLE referee_test.template AS SELECT referee_test.fingerprint() AS fingerprint;

-- The migrations' own rows (the name key and rating schemes...), to put back after a reset.
DO $seed$
DECLARE t text;
BEGIN
    FOR t IN SELECT tablename FROM pg_tables
              WHERE schemaname = 'public' AND tablename <> '__diesel_schema_migrations' LOOP
        EXECUTE format('CREATE TABLE referee_test.%I AS TABLE public.%I', t, t);
    END LOOP;
END
$seed$;

CREATE FUNCTION referee_test.reset() RETURNS boolean LANGUAGE plpgsql AS $reset$
DECLARE
    t text;
    columns text;
BEGIN
    IF referee_test.fingerprint() <> (SELECT fingerprint FROM referee_test.template) THEN
        RETURN false;
    END IF;
    EXECUTE (SELECT 'TRUNCATE ' || string_agg(format('public.%I', tablename), ', ')
                    || ' RESTART IDENTITY CASCADE'
               FROM pg_tables
              WHERE schemaname = 'public' AND tablename <> '__diesel_schema_migrations');
    FOR t IN SELECT tablename FROM pg_tables
              WHERE schemaname = 'referee_test' AND tablename <> 'template' LOOP
        SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) INTO columns
          FROM pg_attribute
         WHERE attrelid = format('public.%I', t)::regclass AND attnum > 0
           AND NOT attisdropped AND attgenerated = '';
        EXECUTE format('INSERT INTO public.%I (%s) SELECT %s FROM referee_test.%I',
                       t, columns, columns, t);
    END LOOP;
    RETURN true;
END
$reset$;
"#;

/// The template's name depends on the migrations and on [`TEST_SCHEMA`], so a changed migration
/// never reuses a stale one.
fn template_name() -> String {
    let mut hasher = Sha256::new();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/migrations");
    let mut files: Vec<_> = walk(std::path::Path::new(dir));
    files.sort();
    for file in files {
        hasher.update(file.to_string_lossy().as_bytes());
        hasher.update(std::fs::read(&file).unwrap());
    }
    hasher.update(TEST_SCHEMA.as_bytes());
    format!("referee_tmpl_{}", &hex::encode(hasher.finalize())[..16])
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .flat_map(|entry| {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path)
            } else {
                vec![path]
            }
        })
        .collect()
}

async fn database_exists(conn: &mut AsyncPgConnection, name: &str) -> bool {
    #[derive(diesel::QueryableByName)]
    struct Found {
        #[diesel(sql_type = diesel::sql_types::Integer)]
        #[allow(dead_code)]
        one: i32,
    }
    let found: Vec<Found> =
        diesel::sql_query("SELECT 1 AS one FROM pg_database WHERE datname = $1")
            .bind::<diesel::sql_types::Text, _>(name)
            .load(conn)
            .await
            .unwrap();
    !found.is_empty()
}

#[derive(diesel::QueryableByName)]
struct Answer {
    #[diesel(sql_type = diesel::sql_types::Bool)]
    yes: bool,
}

/// Creates the migrated template once, under an advisory lock (tests may run in parallel
/// processes); a new template's first maker drops the templates and pools of other migrations
/// that nothing uses.
async fn template() -> String {
    let name = template_name();
    let mut conn = admin().await;
    diesel::sql_query("SELECT pg_advisory_lock(8675309)")
        .execute(&mut conn)
        .await
        .unwrap();
    if !database_exists(&mut conn, &name).await {
        // Made under another name and renamed when whole: a maker that fails half-way leaves no
        // template that looks ready.
        let making = format!("{name}_making");
        let sql = format!("DROP DATABASE IF EXISTS {making} WITH (FORCE)");
        diesel::sql_query(sql).execute(&mut conn).await.unwrap();
        let url = format!("{}/{making}", server_url());
        Store::new(&url, 1)
            .prepare()
            .await
            .expect("migrate the template database");
        let mut template = AsyncPgConnection::establish(&url).await.unwrap();
        template.batch_execute(TEST_SCHEMA).await.unwrap();
        drop(template);
        let sql = format!("ALTER DATABASE {making} RENAME TO {name}");
        retry_while_in_use(&mut conn, &sql).await;
        drop_stale_databases(&mut conn, &name).await;
    }
    diesel::sql_query("SELECT pg_advisory_unlock(8675309)")
        .execute(&mut conn)
        .await
        .unwrap();
    name
}

/// Drops the test templates and pooled databases of other migrations, where nobody is connected
/// (another run of older code may still be using its own).
async fn drop_stale_databases(conn: &mut AsyncPgConnection, template: &str) {
    #[derive(diesel::QueryableByName)]
    struct Stale {
        #[diesel(sql_type = diesel::sql_types::Text)]
        datname: String,
    }
    let hash = template.trim_start_matches("referee_tmpl_");
    let stale: Vec<Stale> = diesel::sql_query(
        "SELECT datname::text FROM pg_database
          WHERE (datname LIKE 'referee\\_tmpl\\_%' OR datname LIKE 'referee\\_pool\\_%')
            AND datname NOT LIKE '%' || $1 || '%'",
    )
    .bind::<diesel::sql_types::Text, _>(hash)
    .load(conn)
    .await
    .unwrap();
    for database in stale {
        let sql = format!("DROP DATABASE IF EXISTS {}", database.datname);
        let _ = diesel::sql_query(sql).execute(conn).await;
    }
}

/// A database of the test pool, this test's until `claim` (the connection holding its advisory
/// lock) closes with the test.
struct Claimed {
    name: String,
    claim: AsyncPgConnection,
}

/// Claims a database from the pool: the first slot whose advisory lock is free, its database
/// emptied back to the template's contents, or made from the template if it has none yet (or
/// its schema was altered). Emptying a used database costs a tenth of cloning and dropping one
/// (docs/testing.md); a test's lock goes with its connection, however the test ends.
async fn claim_database() -> Claimed {
    let template = template().await;
    let pool = template.replace("referee_tmpl_", "referee_pool_");
    // The pool's lock space: the template's hash, so two migrations' pools never share locks.
    let key = i32::from_str_radix(&pool[pool.len() - 7..], 16).unwrap();
    let mut claim = admin().await;
    for slot in 0.. {
        let locked: Answer = diesel::sql_query("SELECT pg_try_advisory_lock($1, $2) AS yes")
            .bind::<diesel::sql_types::Integer, _>(key)
            .bind::<diesel::sql_types::Integer, _>(slot)
            .get_result(&mut claim)
            .await
            .unwrap();
        if !locked.yes {
            continue;
        }
        let name = format!("{pool}_{slot}");
        if !database_exists(&mut claim, &name).await || !reset(&mut claim, &name).await {
            let sql = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
            diesel::sql_query(sql).execute(&mut claim).await.unwrap();
            clone_template(&mut claim, &template, &name).await;
        }
        return Claimed { name, claim };
    }
    unreachable!("slots are endless")
}

/// Empties a used pool database; false if its schema is no longer the template's.
async fn reset(admin: &mut AsyncPgConnection, name: &str) -> bool {
    // Connections a previous test left behind (its service's pool) would hold locks.
    diesel::sql_query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = $1 AND pid <> pg_backend_pid()",
    )
    .bind::<diesel::sql_types::Text, _>(name)
    .execute(admin)
    .await
    .unwrap();
    let mut conn = AsyncPgConnection::establish(&format!("{}/{name}", server_url()))
        .await
        .unwrap();
    let reset: Answer = diesel::sql_query("SELECT referee_test.reset() AS yes")
        .get_result(&mut conn)
        .await
        .unwrap();
    reset.yes
}

async fn clone_template(admin: &mut AsyncPgConnection, template: &str, name: &str) {
    let sql = format!("CREATE DATABASE {name} TEMPLATE {template}");
    retry_while_in_use(admin, &sql).await;
}

/// Runs `sql` (a CREATE from or a rename of the template), which needs nobody connected to the
/// template: its last connection may take a moment to go away after migrating it.
async fn retry_while_in_use(admin: &mut AsyncPgConnection, sql: &str) {
    for attempt in 0.. {
        match diesel::sql_query(sql).execute(admin).await {
            Ok(_) => break,
            Err(e) if attempt < 50 && e.to_string().contains("accessed by other users") => {
                tokio::time::sleep(std::time::Duration::from_millis(100)).await
            }
            Err(e) => panic!("{sql}: {e}"),
        }
    }
}

/// The settings of the move pipeline a test runs under. A test of the pipeline says so with
/// [`every_pipeline!`] and runs once under each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pipeline {
    /// The environment's move settings (`MOVE_CACHE_MATCHES`, `MOVE_BATCH_MAX`,
    /// `SNAPSHOT_EVERY_PLIES`), by default the service's own: the cache on, moves batched.
    Configured,
    /// Every move read from and written to the database on its own: no move cache, one move per
    /// statement, and a snapshot every 3 plies, so reads replay from a snapshot often.
    Uncached,
}

impl Pipeline {
    fn settings(self) -> referee::config::MoveSettings {
        match self {
            Pipeline::Configured => {
                referee::config::MoveSettings::from_env().expect("move settings")
            }
            Pipeline::Uncached => referee::config::MoveSettings {
                cached_matches: 0,
                batch_max: 1,
                snapshot_every: 3,
            },
        }
    }
}

/// `every_pipeline!(name)` declares the tests `name::configured` and `name::uncached`, which run
/// `async fn name(pipeline: Pipeline)` under each [`Pipeline`]: a test of the move pipeline
/// starts its service with [`spawn_app_on`] (or [`spawn_app_tuned_on`]) and that pipeline.
macro_rules! every_pipeline {
    ($name:ident) => {
        mod $name {
            #[tokio::test]
            async fn configured() {
                super::$name($crate::support::Pipeline::Configured).await
            }

            #[tokio::test]
            async fn uncached() {
                super::$name($crate::support::Pipeline::Uncached).await
            }
        }
    };
}
pub(crate) use every_pipeline;

pub struct TestApp {
    pub base: String,
    pub client: reqwest::Client,
    database: Option<String>,
    /// The instance's live feeds, to count their reads.
    pub feeds: referee::matches::Feeds,
    /// The move pipeline this instance runs; a second instance runs the same.
    pipeline: Pipeline,
    /// The connection holding this test's claim on its pooled database: closed with the test.
    _claim: Option<std::sync::Mutex<AsyncPgConnection>>,
}

impl TestApp {
    /// Runs one SQL statement on this test's database (to set up what the API cannot).
    pub async fn sql(&self, statement: &str) {
        let name = self.database.as_ref().expect("a test database");
        let mut conn = AsyncPgConnection::establish(&format!("{}/{name}", server_url()))
            .await
            .unwrap();
        diesel::sql_query(statement)
            .execute(&mut conn)
            .await
            .unwrap();
    }

    /// The address of this test's database.
    pub fn database_url(&self) -> String {
        let name = self.database.as_ref().expect("a test database");
        format!("{}/{name}", server_url())
    }

    /// A connection to this test's database, to read what the service stored (the true state).
    pub async fn db(&self) -> AsyncPgConnection {
        let name = self.database.as_ref().expect("a test database");
        AsyncPgConnection::establish(&format!("{}/{name}", server_url()))
            .await
            .unwrap()
    }

    /// Another instance of the service on this test's database, as a second replica would be.
    pub async fn second_instance(&self) -> TestApp {
        self.second_instance_tuned(|_| {}).await
    }

    /// Another instance on this test's database with its settings adjusted (other invite keys...).
    pub async fn second_instance_tuned(&self, tweak: impl FnOnce(&mut Settings)) -> TestApp {
        let (base, feeds) = start(self.database_url(), true, self.pipeline, tweak).await;
        TestApp {
            base,
            client: test_client(),
            database: None,
            feeds,
            pipeline: self.pipeline,
            _claim: None,
        }
    }

    /// Checks every stored match: its snapshot equals the replay of its log from setup, and its
    /// version is the length of its log.
    pub async fn audit_snapshots(&self) {
        let name = self.database.as_ref().expect("a test database");
        audit::audit_snapshots(&format!("{}/{name}", server_url())).await;
    }

    /// Checks the players' running totals against the stored results, counted from scratch.
    pub async fn audit_totals(&self) {
        let name = self.database.as_ref().expect("a test database");
        audit::audit_totals(&format!("{}/{name}", server_url())).await;
    }
}

/// The settings every test starts from: this test's database, a free port, one worker, no rate
/// limit, and a CORS origin to check CORS answers against.
fn test_settings(database_url: String, pipeline: Pipeline) -> Settings {
    Settings {
        database_url,
        bind_address: "127.0.0.1:0".parse().unwrap(),
        pool_size: 4,
        // Generous: on a machine busy with other CI lanes a healthy statement can wait seconds
        // for the CPU, and a test must not fail on that. The timeouts themselves are tested
        // against a database in trouble in tests/processes.
        database_timeouts: referee::config::DatabaseTimeouts {
            lock: std::time::Duration::from_secs(30),
            statement: std::time::Duration::from_secs(60),
        },
        moves: pipeline.settings(),
        body_limit_bytes: 64 * 1024,
        workers: Some(1),
        rate_limit_refill: None,
        rate_limit_burst: 0,
        cors_allowed_origins: vec!["https://companion.example".to_owned()],
        body_timeout: std::time::Duration::from_secs(10),
        max_connections: 1024,
        trusted_proxies: Vec::new(),
        live: Default::default(),
        read_replica: None,
        shutdown_drain: std::time::Duration::ZERO,
        invites: Default::default(),
    }
}

/// Starts the service as the binary does ([`referee::startup::build`]) with the test settings
/// adjusted by `tweak`; waits until its database is ready when `ready` says it can be.
async fn start(
    database_url: String,
    ready: bool,
    pipeline: Pipeline,
    tweak: impl FnOnce(&mut Settings),
) -> (String, referee::matches::Feeds) {
    let mut settings = test_settings(database_url, pipeline);
    tweak(&mut settings);
    let app = referee::startup::build(settings).unwrap();
    let address = app.address();
    if ready {
        app.store().prepare().await.unwrap();
    }
    let feeds = app.feeds().clone();
    tokio::spawn(app.run());
    (format!("http://{address}"), feeds)
}

/// The app with its own fresh, migrated database.
pub async fn spawn_app() -> TestApp {
    spawn_app_on(Pipeline::Configured).await
}

/// The app with its own fresh, migrated database and its settings adjusted (stream caps...).
pub async fn spawn_app_tuned(tweak: impl FnOnce(&mut Settings)) -> TestApp {
    spawn_app_tuned_on(Pipeline::Configured, tweak).await
}

/// The app with its own fresh, migrated database, running `pipeline`.
pub async fn spawn_app_on(pipeline: Pipeline) -> TestApp {
    spawn_app_tuned_on(pipeline, |_| {}).await
}

/// The app with its own fresh, migrated database, running `pipeline`, its settings adjusted.
pub async fn spawn_app_tuned_on(pipeline: Pipeline, tweak: impl FnOnce(&mut Settings)) -> TestApp {
    let Claimed { name, claim } = claim_database().await;
    let url = format!("{}/{name}", server_url());
    let (base, feeds) = start(url, true, pipeline, tweak).await;
    TestApp {
        base,
        client: test_client(),
        database: Some(name),
        feeds,
        pipeline,
        _claim: Some(std::sync::Mutex::new(claim)),
    }
}

/// The app without a database, with its settings adjusted (rate limits, CORS...).
pub async fn spawn_app_with(tweak: impl FnOnce(&mut Settings)) -> TestApp {
    let pipeline = Pipeline::Configured;
    let (base, feeds) = start(NOWHERE.to_owned(), false, pipeline, tweak).await;
    TestApp {
        base,
        client: test_client(),
        database: None,
        feeds,
        pipeline,
        _claim: None,
    }
}

/// The tests' HTTP client. It drops an idle connection after a second, well before the
/// service's keep-alive (actix-web's default, 5 s) closes it from its side: a request sent on a
/// connection the server is closing at that moment fails (`IncompleteMessage`), which a test
/// that pauses (a `psql` call, a second instance starting) on a loaded machine would meet.
fn test_client() -> reqwest::Client {
    reqwest::Client::builder()
        .pool_idle_timeout(std::time::Duration::from_secs(1))
        .build()
        .expect("a client")
}

/// The app pointed at a database server that does not answer.
pub async fn spawn_app_without_database() -> TestApp {
    spawn_app_with(|_| {}).await
}

/// A database address where nothing answers.
const NOWHERE: &str = "postgres://postgres@127.0.0.1:9/nowhere";

#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
}

impl TestApp {
    pub async fn send(&self, request: reqwest::RequestBuilder) -> Reply {
        let response = request.send().await.expect("request reaches the app");
        let status = response.status();
        let headers = response.headers().clone();
        let text = response.text().await.unwrap();
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Reply {
            status,
            headers,
            body,
        }
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Reply {
        let mut request = self.client.get(format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        self.send(request).await
    }

    pub async fn post(&self, path: &str, body: &Value, token: Option<&str>) -> Reply {
        let mut request = self.client.post(format!("{}{path}", self.base)).json(body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        self.send(request).await
    }

    /// Creates a Lucky Jack match; returns the creation answer.
    pub async fn create_lucky_jack(
        &self,
        names: &[&str],
        options: Value,
        randomness: &str,
    ) -> Value {
        self.create_match("lucky-jack", names, options, randomness)
            .await
    }

    /// Creates a match of `game` (its slug) for seats with these names; returns the creation
    /// answer (see [`match_id`], [`seat_token`], [`owner_token`]).
    pub async fn create_match(
        &self,
        game: &str,
        names: &[&str],
        options: Value,
        randomness: &str,
    ) -> Value {
        let seats: Vec<Value> = names.iter().map(|n| json!({ "name": n })).collect();
        let reply = self
            .post(
                "/v1/matches",
                &json!({"game": game, "seats": seats, "options": options, "randomness": randomness}),
                None,
            )
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
        reply.body
    }

    /// A match as `token` sees it.
    pub async fn read_match(&self, id: &str, token: Option<&str>) -> Reply {
        self.get(&format!("/v1/matches/{id}"), token).await
    }

    /// Posts a move to a match, with `expected_version` when given.
    pub async fn post_move(
        &self,
        id: &str,
        token: Option<&str>,
        expected_version: Option<Value>,
        mv: &Value,
    ) -> Reply {
        let body = versioned(expected_version, "move", mv);
        self.post(&format!("/v1/matches/{id}/moves"), &body, token)
            .await
    }

    /// Reports a chance outcome to a match, with `expected_version` when given.
    pub async fn post_chance(
        &self,
        id: &str,
        token: Option<&str>,
        expected_version: Option<Value>,
        outcome: &Value,
    ) -> Reply {
        let body = versioned(expected_version, "outcome", outcome);
        self.post(&format!("/v1/matches/{id}/chance"), &body, token)
            .await
    }
}

/// `{key: value}`, with `expected_version` when given (absent is not the same as null).
fn versioned(expected_version: Option<Value>, key: &str, value: &Value) -> Value {
    let mut body = json!({ key: value });
    if let Some(version) = expected_version {
        body["expected_version"] = version;
    }
    body
}

/// The match id in a creation answer.
/// A Lucky Jack match whose seats are open, each with an invite code instead of a token.
pub async fn create_with_invites(app: &TestApp, names: &[&str]) -> Value {
    let seats: Vec<Value> = names.iter().map(|n| json!({ "name": n })).collect();
    let reply = app
        .post(
            "/v1/matches",
            &json!({"game": "lucky-jack", "seats": seats, "invites": true}),
            None,
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    reply.body
}

pub fn invite_code(created: &Value, seat: usize) -> String {
    created["invites"][seat]["code"]
        .as_str()
        .unwrap()
        .to_owned()
}

pub fn match_id(created: &Value) -> String {
    created["match"]["id"].as_str().unwrap().to_owned()
}

/// The token of `seat` in a creation answer.
pub fn seat_token(created: &Value, seat: usize) -> String {
    created["seat_tokens"][seat]["token"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Every seat's token in a creation answer, in seat order.
pub fn seat_tokens(created: &Value) -> Vec<String> {
    created["seat_tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["token"].as_str().unwrap().to_owned())
        .collect()
}

/// The owner's token in a creation answer.
pub fn owner_token(created: &Value) -> String {
    created["owner_token"].as_str().unwrap().to_owned()
}

/// Plays a server-seeded match to its end, each turn taking one of the acting seat's legal moves
/// (chosen by a fixed pseudo-random sequence) and checking the version every time.
pub async fn play_to_end(app: &TestApp, created: &Value) -> Value {
    let id = match_id(created);
    let tokens = seat_tokens(created);
    let mut pick: u64 = 0x2545_F491_4F6C_DD1D;
    for _ in 0..20_000 {
        let owner_view = app.read_match(&id, None).await.body;
        if owner_view["status"] == "finished" {
            return owner_view;
        }
        let seat = owner_view["to_act"][0].as_u64().expect("someone may act") as usize;
        let mine = app.read_match(&id, Some(&tokens[seat])).await.body;
        let moves = mine["view"]["legal_moves"].as_array().unwrap();
        assert!(
            !moves.is_empty(),
            "seat {seat} may act but has no legal move"
        );
        pick ^= pick << 13;
        pick ^= pick >> 7;
        pick ^= pick << 17;
        let chosen = &moves[(pick % moves.len() as u64) as usize];
        let version = Some(mine["version"].clone());
        let reply = app
            .post_move(&id, Some(&tokens[seat]), version, chosen)
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{chosen}: {}", reply.body);
    }
    panic!("the match did not end");
}

/// One event read from a live stream: SSE (`id`, `event`, `data`) or an NDJSON line (its `type`
/// and `version`). An SSE comment (a heartbeat) reads as `kind` "heartbeat" with no data.
#[derive(Debug, Clone)]
pub struct StreamEvent {
    pub id: Option<i64>,
    pub kind: String,
    pub data: Value,
}

/// A live stream's body, read event by event.
pub struct EventStream {
    body: std::pin::Pin<
        Box<dyn futures_util::Stream<Item = reqwest::Result<actix_web::web::Bytes>> + Send>,
    >,
    buffer: String,
    sse: bool,
    /// Everything received, to check for what must not be there.
    pub text: String,
}

/// Long enough for any machine; nothing waits for it unless a stream stalls.
const STREAM_PATIENCE: std::time::Duration = std::time::Duration::from_secs(30);

impl EventStream {
    /// The next event, or `None` once the server has closed the stream.
    pub async fn next(&mut self) -> Option<StreamEvent> {
        use futures_util::StreamExt;
        let separator = if self.sse { "\n\n" } else { "\n" };
        loop {
            if let Some(end) = self.buffer.find(separator) {
                let frame: String = self.buffer.drain(..end + separator.len()).collect();
                return Some(self.parse(frame.trim_end()));
            }
            let chunk = tokio::time::timeout(STREAM_PATIENCE, self.body.next())
                .await
                .expect("the stream sends something within 30 s");
            match chunk {
                None => {
                    assert!(self.buffer.is_empty(), "a cut frame: {:?}", self.buffer);
                    return None;
                }
                Some(chunk) => {
                    let text = String::from_utf8(chunk.unwrap().to_vec()).unwrap();
                    self.text.push_str(&text);
                    self.buffer.push_str(&text);
                }
            }
        }
    }

    fn parse(&self, frame: &str) -> StreamEvent {
        if !self.sse {
            let data: Value = serde_json::from_str(frame).unwrap();
            return StreamEvent {
                id: data["version"].as_i64(),
                kind: data["type"].as_str().unwrap().to_owned(),
                data,
            };
        }
        let mut event = StreamEvent {
            id: None,
            kind: "heartbeat".to_owned(),
            data: Value::Null,
        };
        for line in frame.lines() {
            if let Some(id) = line.strip_prefix("id: ") {
                event.id = Some(id.parse().unwrap());
            } else if let Some(kind) = line.strip_prefix("event: ") {
                event.kind = kind.to_owned();
            } else if let Some(data) = line.strip_prefix("data: ") {
                event.data = serde_json::from_str(data).unwrap();
                assert_eq!(event.data["type"], event.kind.as_str(), "{frame}");
            } else {
                assert!(line.starts_with(':'), "an unknown SSE line: {line}");
            }
        }
        event
    }

    /// Events up to and including the first `view` of `version` or later (heartbeats left out).
    pub async fn until_view(&mut self, version: i64) -> Vec<StreamEvent> {
        let mut events = Vec::new();
        loop {
            let event = self.next().await.expect("the stream is still open");
            if event.kind == "heartbeat" {
                continue;
            }
            let done = event.kind == "view" && event.id.unwrap() >= version;
            events.push(event);
            if done {
                return events;
            }
        }
    }

    /// Every event until the server closes the stream (heartbeats left out).
    pub async fn until_closed(&mut self) -> Vec<StreamEvent> {
        let mut events = Vec::new();
        while let Some(event) = self.next().await {
            if event.kind != "heartbeat" {
                events.push(event);
            }
        }
        events
    }
}

impl TestApp {
    /// Opens a live stream at `path` (with its query); a refusal is returned as the reply.
    pub async fn stream(
        &self,
        path: &str,
        token: Option<&str>,
        headers: &[(&str, &str)],
    ) -> Result<EventStream, Reply> {
        let mut request = self.client.get(format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = request.send().await.expect("request reaches the app");
        if response.status() != StatusCode::OK {
            let status = response.status();
            let headers = response.headers().clone();
            let text = response.text().await.unwrap();
            let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
            return Err(Reply {
                status,
                headers,
                body,
            });
        }
        let content_type = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_owned();
        let sse = content_type.starts_with("text/event-stream");
        assert!(
            sse || content_type.starts_with("application/x-ndjson"),
            "{content_type}"
        );
        Ok(EventStream {
            body: Box::pin(response.bytes_stream()),
            buffer: String::new(),
            sse,
            text: String::new(),
        })
    }
}

/// The migration harness is synchronous: it drives the async connection through the wrapper the
/// service itself migrates with.
pub type Sync = AsyncConnectionWrapper<AsyncPgConnection>;

/// An empty database of the test's own (not migrated), dropped when it ends (even by a failure).
pub struct Scratch {
    name: String,
}

impl Scratch {
    pub fn new(prefix: &str) -> Self {
        let name = format!("{prefix}_{}", uuid::Uuid::new_v4().simple());
        diesel::RunQueryDsl::execute(
            diesel::sql_query(format!("CREATE DATABASE {name}")),
            &mut Self::admin(),
        )
        .unwrap();
        Self { name }
    }

    fn admin() -> Sync {
        <Sync as diesel::Connection>::establish(&format!("{}/postgres", server_url())).unwrap()
    }

    pub fn connect(&self) -> Sync {
        <Sync as diesel::Connection>::establish(&format!("{}/{}", server_url(), self.name)).unwrap()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let sql = format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name);
        let _ = diesel::RunQueryDsl::execute(diesel::sql_query(sql), &mut Self::admin());
    }
}
