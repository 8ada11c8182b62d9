//! Every migration's `down.sql` undoes its `up.sql`: on a fresh database of its own, each
//! migration in order is run up, down and up again, and the schema (from the catalog: relations,
//! columns with types, defaults and nullability, indexes, constraints, triggers, functions) after
//! down must equal the one before up. Finally the whole set down to empty and up again gives the
//! same schema. A down that forgot an index or a default would otherwise only show when an
//! operator rolls back.

use diesel::migration::MigrationSource;
use diesel::pg::Pg;
use diesel::RunQueryDsl;
use diesel_migrations::MigrationHarness;
use referee::store::MIGRATIONS;

use crate::support::{Scratch, Sync};

/// The catalog, one line per object, sorted; diesel's own bookkeeping table left out.
const SCHEMA: &[&str] = &[
    "SELECT 'relation ' || relname || ' ' || relkind::text AS line FROM pg_class
     WHERE relnamespace = 'public'::regnamespace",
    "SELECT 'column ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
        || CASE WHEN a.attnotnull THEN ' not null' ELSE ' null' END
        || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '') AS line
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
     LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE c.relnamespace = 'public'::regnamespace AND a.attnum > 0 AND NOT a.attisdropped",
    "SELECT 'index ' || indexdef AS line FROM pg_indexes WHERE schemaname = 'public'",
    "SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' '
        || pg_get_constraintdef(oid) AS line
     FROM pg_constraint WHERE connamespace = 'public'::regnamespace",
    "SELECT 'trigger ' || pg_get_triggerdef(oid) AS line FROM pg_trigger WHERE NOT tgisinternal",
    "SELECT 'function ' || pg_get_functiondef(oid) AS line FROM pg_proc
     WHERE pronamespace = 'public'::regnamespace",
];

#[derive(diesel::QueryableByName)]
struct Line {
    #[diesel(sql_type = diesel::sql_types::Text)]
    line: String,
}

fn schema(conn: &mut Sync) -> Vec<String> {
    let mut lines: Vec<String> = SCHEMA
        .iter()
        .flat_map(|query| diesel::sql_query(*query).load::<Line>(conn).unwrap())
        .map(|l| l.line)
        .filter(|line| !line.contains("__diesel_schema_migrations"))
        .collect();
    lines.sort();
    lines
}

#[test]
fn each_migrations_down_undoes_its_up_and_the_whole_set_rolls_back_to_empty() {
    let scratch = Scratch::new("referee_migrations");
    let mut conn = scratch.connect();
    let migrations = MigrationSource::<Pg>::migrations(&MIGRATIONS).unwrap();
    assert!(!migrations.is_empty());
    // Creates diesel's bookkeeping table, which running one migration at a time does not.
    assert!(conn.applied_migrations().unwrap().is_empty());
    let empty = schema(&mut conn);
    for migration in &migrations {
        let name = migration.name().to_string();
        let before = schema(&mut conn);
        conn.run_migration(migration.as_ref()).unwrap();
        let after = schema(&mut conn);
        assert_ne!(after, before, "{name}: up.sql changes the schema");
        conn.revert_migration(migration.as_ref()).unwrap();
        assert_eq!(schema(&mut conn), before, "{name}: down.sql undoes up.sql");
        conn.run_migration(migration.as_ref()).unwrap();
        assert_eq!(
            schema(&mut conn),
            after,
            "{name}: up.sql again after down.sql"
        );
    }
    let full = schema(&mut conn);
    conn.revert_all_migrations(MIGRATIONS).unwrap();
    assert_eq!(
        schema(&mut conn),
        empty,
        "every down.sql in turn leaves nothing"
    );
    conn.run_pending_migrations(MIGRATIONS).unwrap();
    assert_eq!(
        schema(&mut conn),
        full,
        "and every up.sql again gives the same schema"
    );
}
