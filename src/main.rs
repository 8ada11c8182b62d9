use std::net::TcpListener;

use referee::config::{DatabaseTimeouts, Settings};
use referee::store::Store;
use tracing_subscriber::EnvFilter;

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    if std::env::var("LOG_FORMAT").as_deref() == Ok("json") {
        tracing_subscriber::fmt()
            .json()
            .with_env_filter(filter)
            .init();
    } else {
        tracing_subscriber::fmt().with_env_filter(filter).init();
    }

    let settings = Settings::from_env().map_err(std::io::Error::other)?;
    let timeouts = DatabaseTimeouts::from_env().map_err(std::io::Error::other)?;
    let store = Store::with_timeouts(&settings.database_url, settings.pool_size, timeouts);
    // Start serving at once: stateless endpoints need no database, and match endpoints answer
    // 503 until the database is prepared.
    store.prepare_in_background();
    let listener = TcpListener::bind(settings.bind_address)?;
    tracing::info!(address = %settings.bind_address, "referee listening");
    referee::http::server(store, &settings, listener)?.await
}
