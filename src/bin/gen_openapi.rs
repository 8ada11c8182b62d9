//! Writes the OpenAPI document to `openapi/openapi.json` (or the path given as argument).

fn main() -> std::io::Result<()> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "openapi/openapi.json".to_owned());
    let spec = referee::http::openapi()
        .to_pretty_json()
        .map_err(std::io::Error::other)?;
    std::fs::write(&path, spec + "\n")?;
    println!("wrote {path}");
    Ok(())
}
