//! The baseline for the load benchmark: the same framework answering a JSON echo, with nothing
//! else to do. `cargo run --release -p referee-tools --bin echo_server -- 127.0.0.1:18181`
//!
//! It answers the check's own path too, so the load client sends it byte for byte the request it
//! sends the service's `/v1/games/lucky-jack/check` (same path, headers and body).

use actix_web::{web, App, HttpServer};

async fn echo(body: web::Json<serde_json::Value>) -> web::Json<serde_json::Value> {
    body
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let address = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:18181".to_owned());
    HttpServer::new(|| {
        App::new()
            .route("/echo", web::post().to(echo))
            .route("/v1/games/lucky-jack/check", web::post().to(echo))
    })
    .bind(address)?
    .run()
    .await
}
