//! The table page: a phone web app for keeping score sheets and watching matches, served at `/`
//! with its assets under `/app/`. The files in `web/` are compiled into the binary, so the page
//! works with no network beyond this service and no build step.

use std::sync::LazyLock;

use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse, ResponseError};
use sha2::{Digest, Sha256};

use crate::problem::{Code, Problem};

/// Only this service's own files and API: no inline script or style, no other origin, no framing.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self'; connect-src 'self'; manifest-src 'self'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

struct Asset {
    name: &'static str,
    content_type: &'static str,
    body: &'static [u8],
}

macro_rules! asset {
    ($name:literal, $content_type:expr) => {
        Asset {
            name: $name,
            content_type: $content_type,
            body: include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/web/", $name)),
        }
    };
}

const JAVASCRIPT: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

const ASSETS: &[Asset] = &[
    asset!("index.html", "text/html; charset=utf-8"),
    asset!("app.css", CSS),
    asset!("app.js", JAVASCRIPT),
    asset!("api.js", JAVASCRIPT),
    asset!("dom.js", JAVASCRIPT),
    asset!("store.js", JAVASCRIPT),
    asset!("sheet.js", JAVASCRIPT),
    asset!("rounds.js", JAVASCRIPT),
    asset!("match.js", JAVASCRIPT),
    asset!("history.js", JAVASCRIPT),
    asset!("household.js", JAVASCRIPT),
    asset!("import.js", JAVASCRIPT),
    asset!("ratings.js", JAVASCRIPT),
    asset!("messages.js", JAVASCRIPT),
    asset!("cards.js", JAVASCRIPT),
    asset!("tables/index.js", JAVASCRIPT),
    asset!("tables/common.js", JAVASCRIPT),
    asset!("tables/luck-plus.js", JAVASCRIPT),
    asset!("tables/lucky-jack.js", JAVASCRIPT),
    asset!("tables/lucky-dice.js", JAVASCRIPT),
    asset!("tables/lucky-luau.js", JAVASCRIPT),
    asset!("tables/plus-minus.js", JAVASCRIPT),
    asset!("options.js", JAVASCRIPT),
    asset!("host.js", JAVASCRIPT),
    asset!("qr.js", JAVASCRIPT),
    asset!("cards.css", CSS),
    asset!("sheet.css", CSS),
    asset!("table.css", CSS),
    asset!("tables/tables.css", CSS),
    asset!("ratings.css", CSS),
    asset!("icon.svg", "image/svg+xml"),
    asset!("icon-192.png", "image/png"),
    asset!("icon-512.png", "image/png"),
    asset!("manifest.webmanifest", "application/manifest+json"),
    asset!("sw.js", JAVASCRIPT),
    asset!("vendor/qrcode.mjs", JAVASCRIPT),
    asset!(
        "vendor/qrcode-generator.LICENSE",
        "text/plain; charset=utf-8"
    ),
];

/// A strong validator per asset, so phones revalidate cheaply instead of caching a stale page
/// after an upgrade (the file names carry no version).
static ETAGS: LazyLock<Vec<String>> = LazyLock::new(|| {
    ASSETS
        .iter()
        .map(|asset| {
            let digest = Sha256::digest(asset.body);
            let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
            format!("\"{hex}\"")
        })
        .collect()
});

/// The page's routes; `mod.rs` lists the same paths in its 405 table.
pub(crate) fn configure(config: &mut web::ServiceConfig) {
    config
        .route("/", web::get().to(index))
        .route("/sw.js", web::get().to(service_worker))
        .route("/app/{name}*", web::get().to(app_file));
}

/// The paths above, for the table of known paths.
pub(crate) const PATHS: [&str; 3] = ["/", "/sw.js", "/app/{name}*"];

async fn index(request: HttpRequest) -> HttpResponse {
    serve(&request, "index.html")
}

/// The page's service worker, at the root so that it may control `/` (a worker's scope is its own
/// folder and below). `Cache-Control: no-cache` (or `no-store` under `PAGE_DIR`), like every
/// page file, so a new worker is seen at once.
async fn service_worker(request: HttpRequest) -> HttpResponse {
    serve(&request, "sw.js")
}

async fn app_file(request: HttpRequest, name: web::Path<String>) -> HttpResponse {
    serve(&request, &name)
}

/// `PAGE_DIR`: while working on the page, serve `web/` from that folder instead of the copy built
/// into the binary, so an edit shows on reload with no rebuild. Unset in production.
static PAGE_DIR: LazyLock<Option<std::path::PathBuf>> =
    LazyLock::new(|| std::env::var_os("PAGE_DIR").map(Into::into));

fn serve(request: &HttpRequest, name: &str) -> HttpResponse {
    if let Some(folder) = PAGE_DIR.as_deref() {
        return serve_from(folder, name);
    }
    let Some(position) = ASSETS.iter().position(|asset| asset.name == name) else {
        return Problem::new(Code::NotFound, format!("no page file {name}")).error_response();
    };
    let asset = &ASSETS[position];
    let etag = ETAGS[position].as_str();
    let unchanged = request
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|tags| {
            tags.split(',')
                .any(|tag| tag.trim() == etag || tag.trim() == "*")
        });
    let mut response = if unchanged {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    response
        .insert_header((header::ETAG, etag))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        // The sheet and match ids in the fragment are never sent, but links out should not
        // carry even the path.
        .insert_header((header::REFERRER_POLICY, "no-referrer"));
    if unchanged {
        return response.finish();
    }
    response
        .insert_header((header::CONTENT_TYPE, asset.content_type))
        .body(asset.body)
}

/// A page file read from `folder` on every request (development only): any file the folder
/// holds, typed by its extension, so a new module needs no rebuild either.
fn serve_from(folder: &std::path::Path, name: &str) -> HttpResponse {
    let content_type = match name.rsplit_once('.').map(|(_, extension)| extension) {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => CSS,
        Some("js" | "mjs") => JAVASCRIPT,
        Some("svg") => "image/svg+xml",
        Some("json" | "webmanifest") => "application/manifest+json",
        Some("png") => "image/png",
        _ => "text/plain; charset=utf-8",
    };
    let inside = !name
        .split('/')
        .any(|part| part.is_empty() || part.starts_with('.'));
    match std::fs::read(folder.join(name)) {
        Ok(body) if inside => HttpResponse::Ok()
            .insert_header((header::CACHE_CONTROL, "no-store"))
            .insert_header((header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY))
            .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
            .insert_header((header::CONTENT_TYPE, content_type))
            .body(body),
        _ => Problem::new(Code::NotFound, format!("no page file {name}")).error_response(),
    }
}

#[cfg(test)]
#[path = "page_messages.rs"]
mod messages;

#[cfg(test)]
mod tests {
    use super::ASSETS;

    /// A file added to `web/` but not to `ASSETS` works under `PAGE_DIR` and is missing from the
    /// built page: every file there must be listed.
    #[test]
    fn every_file_of_the_page_folder_is_built_into_the_binary() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
        let mut stack = vec![root.clone()];
        let mut files = Vec::new();
        while let Some(folder) = stack.pop() {
            for entry in std::fs::read_dir(folder).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else {
                    let name = path.strip_prefix(&root).unwrap().to_string_lossy();
                    files.push(name.replace('\\', "/"));
                }
            }
        }
        let listed: Vec<&str> = ASSETS.iter().map(|asset| asset.name).collect();
        let missing: Vec<&String> = files
            .iter()
            .filter(|f| !listed.contains(&f.as_str()))
            .collect();
        assert!(missing.is_empty(), "web/ files not in ASSETS: {missing:?}");
    }
}
