//! The baseline for the load benchmark: the same framework answering a JSON echo, with nothing
//! else to do. `cargo run --release --example echo_server -- 127.0.0.1:18181`

use actix_web::{post, web, App, HttpServer};

#[post("/echo")]
async fn echo(body: web::Json<serde_json::Value>) -> web::Json<serde_json::Value> {
    body
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let address = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:18181".to_owned());
    HttpServer::new(|| App::new().service(echo))
        .bind(address)?
        .run()
        .await
}
