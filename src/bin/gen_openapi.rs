//! Writes the OpenAPI document to `openapi/openapi.json` (or the path given as argument).

fn main() -> std::io::Result<()> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "openapi/openapi.json".to_owned());
    std::fs::write(&path, referee::http::openapi_text())?;
    println!("wrote {path}");
    Ok(())
}
