//! The schema stays one a distributed PostgreSQL (Citus) accepts when sharded by match id.
//!
//! The plan below says, once, where every table goes: sharded on a column (tables of one group
//! share shards, value for value), copied whole to every node (reference), or kept on the
//! coordinator (local). The checker reads the migrated database's catalog and lists everything
//! Citus would refuse under that plan; `docs/scaling.md` explains the plan and how to apply it.
//! A second test runs the checker on a deliberately bad schema, so it is known to be able to fail.

use std::collections::BTreeMap;
use std::fmt;

use diesel::connection::SimpleConnection;
use diesel::RunQueryDsl;
use diesel_migrations::MigrationHarness;
use referee::store::MIGRATIONS;

use crate::support::{Scratch, Sync};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Placement {
    /// Sharded on `column`; tables of the same `group` are co-located.
    Distributed {
        column: &'static str,
        group: &'static str,
    },
    /// A full copy on every node.
    Reference,
    /// Only on the coordinator.
    Local,
}

use Placement::{Distributed, Local, Reference};

const fn by(column: &'static str, group: &'static str) -> Placement {
    Distributed { column, group }
}

/// The distribution plan of the service's schema (see docs/scaling.md).
const PLAN: &[(&str, Placement)] = &[
    ("matches", by("id", "match")),
    ("match_seats", by("match_id", "match")),
    ("match_events", by("match_id", "match")),
    ("match_hands", by("match_id", "match")),
    ("match_snapshots", by("match_id", "match")),
    ("sheet_entries", by("match_id", "match")),
    ("match_invites", by("match_id", "match")),
    ("match_rematch_links", by("match_id", "match")),
    ("match_abandons", by("match_id", "match")),
    // A followed match's lease, read by its events' trigger: beside the match.
    ("match_watches", by("match_id", "match")),
    // A rated result's changes live with its match (they cascade with it).
    ("rating_changes", by("match_id", "match")),
    // Looked up before the match is known: by the code, or by the create's key.
    ("invite_codes", by("code_hash", "invite_code")),
    ("idempotent_creates", by("key_hash", "create_key")),
    // A household is read by its id; a presented key is looked up by its hash first.
    ("households", by("id", "household")),
    ("household_keys", by("key_hash", "household_key")),
    // Written at every finish, one row per seat: sharded, not copied to every node.
    ("player_game_stats", by("player_key", "player")),
    // Each player's current rating per game, written with the changes: beside their totals.
    ("player_ratings", by("player_key", "player")),
    // One row, read and locked once at start-up by the instance re-keying names: never joined.
    ("name_key_scheme", Local),
    // The same for the rating scheme, at start-up by the instance rating older results.
    ("rating_scheme", Local),
];

/// Something Citus would refuse, with the object that causes it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Refusal {
    NotInPlan(String),
    PlannedButMissing(String),
    NoDistributionColumn { table: String, column: String },
    NullableDistributionColumn { table: String, column: String },
    GroupTypesDiffer { group: String, table: String },
    NoPrimaryKey(String),
    UniqueWithoutDistributionColumn { table: String, index: String },
    ExclusionWithoutDistributionColumn { table: String, constraint: String },
    ForeignKeyOffDistributionColumns { constraint: String },
    ForeignKeyNotColocated { constraint: String },
    ForeignKeyFromReferenceToDistributed { constraint: String },
    ForeignKeyBetweenLocalAndDistributed { constraint: String },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotInPlan(t) => write!(f, "table {t} is not in the distribution plan"),
            Self::PlannedButMissing(t) => write!(f, "planned table {t} does not exist"),
            Self::NoDistributionColumn { table, column } => {
                write!(f, "{table} has no column {column} to be distributed on")
            }
            Self::NullableDistributionColumn { table, column } => {
                write!(
                    f,
                    "{table}.{column} is a distribution column but may be NULL"
                )
            }
            Self::GroupTypesDiffer { group, table } => write!(
                f,
                "{table}'s distribution column has another type than the rest of group {group}"
            ),
            Self::NoPrimaryKey(t) => write!(f, "distributed table {t} has no primary key"),
            Self::UniqueWithoutDistributionColumn { table, index } => write!(
                f,
                "unique index {index} on {table} does not contain the distribution column"
            ),
            Self::ExclusionWithoutDistributionColumn { table, constraint } => write!(
                f,
                "exclusion constraint {constraint} on {table} does not contain the \
                 distribution column"
            ),
            Self::ForeignKeyOffDistributionColumns { constraint } => write!(
                f,
                "foreign key {constraint} does not pair the two tables' distribution columns"
            ),
            Self::ForeignKeyNotColocated { constraint } => write!(
                f,
                "foreign key {constraint} joins distributed tables that are not co-located"
            ),
            Self::ForeignKeyFromReferenceToDistributed { constraint } => write!(
                f,
                "foreign key {constraint} goes from a reference table to a distributed one"
            ),
            Self::ForeignKeyBetweenLocalAndDistributed { constraint } => write!(
                f,
                "foreign key {constraint} joins a local table and a distributed one"
            ),
        }
    }
}

#[derive(diesel::QueryableByName)]
struct Table {
    #[diesel(sql_type = diesel::sql_types::Text)]
    name: String,
}

#[derive(diesel::QueryableByName)]
struct Column {
    #[diesel(sql_type = diesel::sql_types::Text)]
    table: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    column: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    type_: String,
    #[diesel(sql_type = diesel::sql_types::Bool)]
    not_null: bool,
}

/// A unique index (primary keys and unique constraints included) or an exclusion constraint.
#[derive(diesel::QueryableByName)]
struct Unique {
    #[diesel(sql_type = diesel::sql_types::Text)]
    table: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    name: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    kind: String,
    /// Key columns, in order; an expression's place holds NULL.
    #[diesel(sql_type = diesel::sql_types::Array<diesel::sql_types::Nullable<diesel::sql_types::Text>>)]
    columns: Vec<Option<String>>,
}

#[derive(diesel::QueryableByName)]
struct ForeignKey {
    #[diesel(sql_type = diesel::sql_types::Text)]
    name: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    from_table: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    to_table: String,
    /// (referencing column, referenced column), in the key's order.
    #[diesel(sql_type = diesel::sql_types::Array<diesel::sql_types::Text>)]
    from_columns: Vec<String>,
    #[diesel(sql_type = diesel::sql_types::Array<diesel::sql_types::Text>)]
    to_columns: Vec<String>,
}

const TABLES: &str = "SELECT relname::text AS name FROM pg_class
    WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p') AND NOT relispartition
      AND relname <> '__diesel_schema_migrations'";

const COLUMNS: &str = "SELECT c.relname::text AS table, a.attname::text AS column,
        format_type(a.atttypid, a.atttypmod) AS type_, a.attnotnull AS not_null
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
      AND a.attnum > 0 AND NOT a.attisdropped";

/// Unique indexes by their key columns (INCLUDE columns do not count), then exclusion
/// constraints by theirs.
const UNIQUES: &str = "SELECT t.relname::text AS table, i.relname::text AS name,
        CASE WHEN x.indisprimary THEN 'primary' ELSE 'unique' END AS kind,
        ARRAY(SELECT a.attname::text FROM generate_series(0, x.indnkeyatts - 1) AS n
              LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = x.indkey[n]
              ORDER BY n) AS columns
    FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
    WHERE x.indisunique AND t.relnamespace = 'public'::regnamespace
    UNION ALL
    SELECT t.relname::text, c.conname::text, 'exclusion',
        ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY AS k (attnum, o)
              LEFT JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
              ORDER BY k.o)
    FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
    WHERE c.contype = 'x' AND c.connamespace = 'public'::regnamespace";

const FOREIGN_KEYS: &str = "SELECT c.conname::text AS name, f.relname::text AS from_table,
        t.relname::text AS to_table,
        ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY AS k (attnum, o)
              JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
              ORDER BY k.o) AS from_columns,
        ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY AS k (attnum, o)
              JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum
              ORDER BY k.o) AS to_columns
    FROM pg_constraint c JOIN pg_class f ON f.oid = c.conrelid JOIN pg_class t ON t.oid = c.confrelid
    WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace";

/// Everything Citus would refuse in the database `conn` is connected to, under `plan`; sorted.
fn refusals(conn: &mut Sync, planned: &[(&str, Placement)]) -> Vec<Refusal> {
    let plan: BTreeMap<&str, Placement> = planned.iter().copied().collect();
    let tables: Vec<String> = diesel::sql_query(TABLES)
        .load::<Table>(conn)
        .unwrap()
        .into_iter()
        .map(|t| t.name)
        .collect();
    let columns: Vec<Column> = diesel::sql_query(COLUMNS).load(conn).unwrap();
    let uniques: Vec<Unique> = diesel::sql_query(UNIQUES).load(conn).unwrap();
    let foreign_keys: Vec<ForeignKey> = diesel::sql_query(FOREIGN_KEYS).load(conn).unwrap();
    let mut found = Vec::new();

    for table in &tables {
        if !plan.contains_key(table.as_str()) {
            found.push(Refusal::NotInPlan(table.clone()));
        }
    }
    // The type each co-location group is sharded on: its first planned member's decides.
    let mut group_types: BTreeMap<&str, &str> = BTreeMap::new();
    for &(table, placement) in planned {
        if !tables.iter().any(|t| t == table) {
            found.push(Refusal::PlannedButMissing(table.to_owned()));
            continue;
        }
        let Distributed { column, group } = placement else {
            continue;
        };
        match columns
            .iter()
            .find(|c| c.table == table && c.column == column)
        {
            None => found.push(Refusal::NoDistributionColumn {
                table: table.to_owned(),
                column: column.to_owned(),
            }),
            Some(c) => {
                if !c.not_null {
                    found.push(Refusal::NullableDistributionColumn {
                        table: table.to_owned(),
                        column: column.to_owned(),
                    });
                }
                if *group_types.entry(group).or_insert(&c.type_) != c.type_ {
                    found.push(Refusal::GroupTypesDiffer {
                        group: group.to_owned(),
                        table: table.to_owned(),
                    });
                }
            }
        }
        if !uniques
            .iter()
            .any(|u| u.table == table && u.kind == "primary")
        {
            found.push(Refusal::NoPrimaryKey(table.to_owned()));
        }
    }
    for unique in &uniques {
        let Some(Distributed { column, .. }) = plan.get(unique.table.as_str()) else {
            continue;
        };
        if unique.columns.iter().any(|c| c.as_deref() == Some(*column)) {
            continue;
        }
        let (table, name) = (unique.table.clone(), unique.name.clone());
        found.push(if unique.kind == "exclusion" {
            Refusal::ExclusionWithoutDistributionColumn {
                table,
                constraint: name,
            }
        } else {
            Refusal::UniqueWithoutDistributionColumn { table, index: name }
        });
    }
    for key in &foreign_keys {
        let (Some(from), Some(to)) = (
            plan.get(key.from_table.as_str()),
            plan.get(key.to_table.as_str()),
        ) else {
            continue; // a table outside the plan is refused above
        };
        let constraint = key.name.clone();
        match (*from, *to) {
            (
                Distributed {
                    column: from_column,
                    group: from_group,
                },
                Distributed {
                    column: to_column,
                    group: to_group,
                },
            ) => {
                if from_group != to_group {
                    found.push(Refusal::ForeignKeyNotColocated { constraint });
                } else if !key
                    .from_columns
                    .iter()
                    .zip(&key.to_columns)
                    .any(|(f, t)| f == from_column && t == to_column)
                {
                    found.push(Refusal::ForeignKeyOffDistributionColumns { constraint });
                }
            }
            (Reference, Distributed { .. }) => {
                found.push(Refusal::ForeignKeyFromReferenceToDistributed { constraint })
            }
            (Local, Distributed { .. }) | (Distributed { .. }, Local) => {
                found.push(Refusal::ForeignKeyBetweenLocalAndDistributed { constraint })
            }
            _ => {}
        }
    }
    found.sort();
    found
}

#[test]
fn the_migrated_schema_has_nothing_citus_would_refuse_under_the_distribution_plan() {
    let scratch = Scratch::new("referee_distribution");
    let mut conn = scratch.connect();
    conn.run_pending_migrations(MIGRATIONS).unwrap();
    let found = refusals(&mut conn, PLAN);
    let listed: Vec<String> = found.iter().map(|r| format!("- {r}")).collect();
    assert!(
        found.is_empty(),
        "a distributed PostgreSQL would refuse this schema (fix the migration, or the plan in \
         tests/api/distribution.rs and docs/scaling.md):\n{}",
        listed.join("\n")
    );
}

#[test]
fn the_checker_finds_each_kind_of_layout_citus_refuses() {
    let scratch = Scratch::new("referee_distribution");
    let mut conn = scratch.connect();
    conn.batch_execute(
        "CREATE TABLE parents (id uuid PRIMARY KEY, label text NOT NULL UNIQUE);
         CREATE UNIQUE INDEX parents_label_lower_idx ON parents (lower(label));
         CREATE TABLE children (
             parent_id uuid NOT NULL REFERENCES parents (id),
             n integer NOT NULL,
             PRIMARY KEY (parent_id, n));
         CREATE TABLE loose (id uuid);
         CREATE TABLE pairs (id uuid PRIMARY KEY, other uuid REFERENCES parents (id));
         CREATE TABLE elsewhere (
             parent_id uuid NOT NULL PRIMARY KEY REFERENCES parents (id));
         CREATE TABLE kinds (name text PRIMARY KEY, sample uuid REFERENCES parents (id));
         CREATE TABLE notes (id integer PRIMARY KEY, parent_id uuid REFERENCES parents (id));
         CREATE TABLE bytes (b bytea PRIMARY KEY);
         CREATE TABLE slots (parent_id uuid NOT NULL, during tstzrange NOT NULL,
             PRIMARY KEY (parent_id, during), EXCLUDE USING gist (during WITH &&));
         CREATE TABLE stray (x integer);",
    )
    .unwrap();
    let plan: &[(&str, Placement)] = &[
        ("parents", by("id", "g")),
        ("children", by("parent_id", "g")),
        ("loose", by("id", "g")),
        ("pairs", by("id", "g")),
        ("elsewhere", by("parent_id", "other")),
        ("kinds", Reference),
        ("notes", Local),
        ("bytes", by("b", "g")),
        ("slots", by("parent_id", "g")),
        ("ghost", Reference),
    ];
    let s = String::from;
    let expected = vec![
        Refusal::NotInPlan(s("stray")),
        Refusal::PlannedButMissing(s("ghost")),
        Refusal::NullableDistributionColumn {
            table: s("loose"),
            column: s("id"),
        },
        Refusal::GroupTypesDiffer {
            group: s("g"),
            table: s("bytes"),
        },
        Refusal::NoPrimaryKey(s("loose")),
        Refusal::UniqueWithoutDistributionColumn {
            table: s("parents"),
            index: s("parents_label_key"),
        },
        Refusal::UniqueWithoutDistributionColumn {
            table: s("parents"),
            index: s("parents_label_lower_idx"),
        },
        Refusal::ExclusionWithoutDistributionColumn {
            table: s("slots"),
            constraint: s("slots_during_excl"),
        },
        Refusal::ForeignKeyOffDistributionColumns {
            constraint: s("pairs_other_fkey"),
        },
        Refusal::ForeignKeyNotColocated {
            constraint: s("elsewhere_parent_id_fkey"),
        },
        Refusal::ForeignKeyFromReferenceToDistributed {
            constraint: s("kinds_sample_fkey"),
        },
        Refusal::ForeignKeyBetweenLocalAndDistributed {
            constraint: s("notes_parent_id_fkey"),
        },
    ];
    let mut expected = expected;
    expected.sort();
    assert_eq!(refusals(&mut conn, plan), expected);
}

#[derive(diesel::QueryableByName, Debug, PartialEq)]
struct Link {
    #[diesel(sql_type = diesel::sql_types::Text)]
    line: String,
}

fn lines(conn: &mut Sync, query: &str) -> Vec<String> {
    let mut lines: Vec<String> = diesel::sql_query(query)
        .load::<Link>(conn)
        .unwrap()
        .into_iter()
        .map(|l| l.line)
        .collect();
    lines.sort();
    lines
}

#[test]
fn the_distribution_migration_carries_invites_and_rematch_links_over_and_back() {
    use diesel::migration::MigrationSource;
    let scratch = Scratch::new("referee_distribution");
    let mut conn = scratch.connect();
    let migrations = MigrationSource::<diesel::pg::Pg>::migrations(&MIGRATIONS).unwrap();
    let index = migrations
        .iter()
        .position(|m| m.name().to_string().ends_with("_distribution_ready"))
        .unwrap();
    assert!(conn.applied_migrations().unwrap().is_empty());
    for migration in &migrations[..index] {
        conn.run_migration(migration.as_ref()).unwrap();
    }
    // Three matches, each the rematch of the one before; the first has an open seat's invite.
    conn.batch_execute(
        "INSERT INTO matches (id, game, rules_version, options, randomness, owner_token_hash,
                              status, version, state)
         SELECT ('00000000-0000-0000-0000-00000000000' || n)::uuid, 'lucky-jack', '1', '{}',
                'table', '\\x00', 'abandoned', 0, '{}'
         FROM generate_series(1, 3) AS n;
         INSERT INTO match_seats (match_id, seat, player_name, player_key)
         VALUES ('00000000-0000-0000-0000-000000000001', 0, 'Ann', 'ann');
         INSERT INTO match_invites (match_id, seat, code_hash, created_at)
         VALUES ('00000000-0000-0000-0000-000000000001', 0, '\\xc0de', now());
         INSERT INTO match_rematches (match_id, rematch_id) VALUES
             ('00000000-0000-0000-0000-000000000001', '00000000-0000-0000-0000-000000000002'),
             ('00000000-0000-0000-0000-000000000002', '00000000-0000-0000-0000-000000000003');",
    )
    .unwrap();
    conn.run_migration(migrations[index].as_ref()).unwrap();
    assert_eq!(
        lines(
            &mut conn,
            "SELECT encode(code_hash, 'hex') || ' ' || match_id || ' ' || seat AS line
             FROM invite_codes"
        ),
        ["c0de 00000000-0000-0000-0000-000000000001 0"]
    );
    assert_eq!(
        lines(
            &mut conn,
            "SELECT right(match_id::text, 1) || ' of ' || coalesce(right(rematch_of::text, 1), '-')
                || ' then ' || coalesce(right(rematch::text, 1), '-') AS line
             FROM match_rematch_links"
        ),
        ["1 of - then 2", "2 of 1 then 3", "3 of 2 then -"]
    );
    conn.revert_migration(migrations[index].as_ref()).unwrap();
    assert_eq!(
        lines(
            &mut conn,
            "SELECT right(match_id::text, 1) || ' then ' || right(rematch_id::text, 1) AS line
             FROM match_rematches"
        ),
        ["1 then 2", "2 then 3"]
    );
}

#[tokio::test]
async fn a_rematch_of_a_rematch_links_each_match_to_the_one_before_and_after() {
    use crate::support::{match_id, owner_token, spawn_app};
    use reqwest::StatusCode;
    use serde_json::json;
    let app = spawn_app().await;
    let first = app
        .create_lucky_jack(&["Ann", "Ben"], json!({"rounds": 3}), "server")
        .await;
    let mut ids = vec![match_id(&first)];
    let mut owner = owner_token(&first);
    for _ in 0..2 {
        let id = ids.last().unwrap().clone();
        let abandon = format!("/v1/matches/{id}/abandon");
        let abandoned = app.post(&abandon, &json!({}), Some(&owner)).await;
        assert_eq!(abandoned.status, StatusCode::OK, "{}", abandoned.body);
        let rematch = format!("/v1/matches/{id}/rematch");
        let next = app.post(&rematch, &json!({}), Some(&owner)).await;
        assert_eq!(next.status, StatusCode::CREATED, "{}", next.body);
        ids.push(match_id(&next.body));
        owner = owner_token(&next.body);
    }
    let middle = app.read_match(&ids[1], None).await.body;
    assert_eq!(middle["rematch_of"], ids[0].as_str());
    assert_eq!(middle["rematch"], ids[2].as_str());
    let last = app.read_match(&ids[2], None).await.body;
    assert_eq!(last["rematch_of"], ids[1].as_str());
    assert!(last["rematch"].is_null(), "{last}");
    let first_owner = owner_token(&first);
    let again = app
        .post(
            &format!("/v1/matches/{}/rematch", ids[0]),
            &json!({}),
            Some(&first_owner),
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.body);
    assert_eq!(again.body["params"]["rematch"], ids[1].as_str());
}

/// The `create_distributed_table` calls docs/scaling.md tells operators to run, as (table,
/// column, colocate_with if given), in the order written.
fn documented_calls() -> Vec<(String, String, Option<String>)> {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/scaling.md")).unwrap();
    doc.lines()
        .filter_map(|line| line.strip_prefix("SELECT create_distributed_table("))
        .map(|args| {
            let quoted: Vec<&str> = args.split('\'').skip(1).step_by(2).collect();
            assert!(
                (2..=3).contains(&quoted.len()),
                "a call names a table, a column and maybe colocate_with: {args}"
            );
            (
                quoted[0].to_owned(),
                quoted[1].to_owned(),
                quoted.get(2).map(|w| (*w).to_owned()),
            )
        })
        .collect()
}

#[test]
fn the_scaling_guide_distributes_every_table_as_the_plan_says() {
    // A group's first planned table is distributed first: with no colocate_with when others join
    // it, with 'none' when it is alone; the others name it.
    let members = |group: &str| {
        PLAN.iter()
            .filter(|(_, p)| matches!(p, Distributed { group: g, .. } if *g == group))
            .count()
    };
    let mut anchors: BTreeMap<&str, &str> = BTreeMap::new();
    let expected: Vec<(String, String, Option<String>)> = PLAN
        .iter()
        .filter_map(|&(table, placement)| {
            let Distributed { column, group } = placement else {
                return None;
            };
            let anchor = *anchors.entry(group).or_insert(table);
            let with = match (anchor == table, members(group)) {
                (true, 1) => Some("none".to_owned()),
                (true, _) => None,
                (false, _) => Some(anchor.to_owned()),
            };
            Some((table.to_owned(), column.to_owned(), with))
        })
        .collect();
    assert_eq!(
        documented_calls(),
        expected,
        "docs/scaling.md's create_distributed_table calls differ from the plan in \
         tests/api/distribution.rs"
    );
}
