use referee::config::Settings;
use tracing::{Level, Metadata};
use tracing_subscriber::filter::filter_fn;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::EnvFilter;

/// The service's allocator (the binary's only: tests and tools keep the system's).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Dependencies that log what they send to PostgreSQL at debug and trace: statements with their
/// bind parameters, which hold seeds, hidden hands, token hashes and idempotency keys.
const CAPPED_TARGETS: &[&str] = &[
    "tokio_postgres",
    "postgres_protocol",
    "diesel",
    "diesel_async",
    "diesel_migrations",
    "deadpool",
];

/// Whether an event or span may be logged at all: the targets above never below info, whatever
/// `RUST_LOG` asks (a filter of its own, so no `RUST_LOG` directive, however specific, lowers it).
fn not_capped(metadata: &Metadata<'_>) -> bool {
    *metadata.level() <= Level::INFO
        || !CAPPED_TARGETS.iter().any(|capped| {
            metadata
                .target()
                .strip_prefix(capped)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with("::"))
        })
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let cap = filter_fn(not_capped);
    if std::env::var("LOG_FORMAT").as_deref() == Ok("json") {
        tracing_subscriber::fmt()
            .json()
            .with_env_filter(filter)
            .finish()
            .with(cap)
            .init();
    } else {
        tracing_subscriber::fmt()
            .with_env_filter(filter)
            .finish()
            .with(cap)
            .init();
    }

    let mut settings = Settings::from_env().map_err(std::io::Error::other)?;
    // A newcomer's own PostgreSQL, if one is needed: kept until the service has stopped.
    let private = referee::private_postgres::start_if_needed().map_err(std::io::Error::other)?;
    let _private_postgres = private.map(|(url, cluster)| {
        settings.database_url = url;
        cluster
    });
    let application = referee::startup::build(settings)?;
    release_freed_memory();
    application.run_until_stopped().await
}

/// Start-up (the OpenAPI document above all) frees some tens of MiB on this thread, which
/// mimalloc would keep resident for the process's life: they go back to the OS now.
fn release_freed_memory() {
    // SAFETY: `mi_collect` takes no pointer and may be called at any time from any thread.
    unsafe { libmimalloc_sys::mi_collect(true) }
}
