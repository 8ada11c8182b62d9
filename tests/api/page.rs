//! The table page: served at `/` with its files under `/app/`, from the binary, with a strict
//! Content-Security-Policy and revalidation by ETag.

use std::path::Path;

use reqwest::StatusCode;

use crate::support::spawn_app_without_database;

fn web_files(dir: &Path, prefix: &str, found: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
        if entry.file_type().unwrap().is_dir() {
            web_files(&entry.path(), &format!("{name}/"), found);
        } else {
            found.push(name);
        }
    }
}

#[tokio::test]
async fn the_page_and_every_file_in_web_are_served_with_a_strict_policy() {
    let app = spawn_app_without_database().await;
    let index = app.get("/", None).await;
    assert_eq!(index.status, StatusCode::OK);
    assert_eq!(index.headers["content-type"], "text/html; charset=utf-8");
    let policy = index.headers["content-security-policy"].to_str().unwrap();
    assert!(policy.contains("default-src 'none'") && policy.contains("script-src 'self'"));
    assert!(!policy.contains("unsafe"), "{policy}");
    assert_eq!(index.headers["x-content-type-options"], "nosniff");
    assert!(index.body.as_str().unwrap().contains("/app/app.js"));

    // A file added to web/ but not to the list in src/http/page.rs would be a 404 here.
    let mut files = Vec::new();
    web_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("web"),
        "",
        &mut files,
    );
    assert!(files.len() > 5, "{files:?}");
    for file in files {
        let reply = app.get(&format!("/app/{file}"), None).await;
        assert_eq!(reply.status, StatusCode::OK, "/app/{file}");
        // Read as bytes: the icons are PNG files (only scripts are compared below).
        let expected = String::from_utf8_lossy(
            &std::fs::read(
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("web")
                    .join(&file),
            )
            .unwrap(),
        )
        .into_owned();
        let served = match &reply.body {
            serde_json::Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        if file.ends_with(".js") || file.ends_with(".mjs") {
            // Compared without printing: a failure would otherwise dump the whole file.
            assert!(served == expected, "/app/{file} differs from web/{file}");
            assert_eq!(
                reply.headers["content-type"],
                "text/javascript; charset=utf-8"
            );
        }
        assert!(reply.headers.contains_key("etag"), "/app/{file}");
        assert_eq!(reply.headers["cache-control"], "no-cache");
    }
}

#[tokio::test]
async fn files_revalidate_by_etag_and_unknown_ones_or_wrong_methods_are_problems() {
    let app = spawn_app_without_database().await;
    let css = app.get("/app/app.css", None).await;
    assert_eq!(css.headers["content-type"], "text/css; charset=utf-8");
    let etag = css.headers["etag"].to_str().unwrap().to_owned();
    let again = app
        .send(
            app.client
                .get(format!("{}/app/app.css", app.base))
                .header("if-none-match", &etag),
        )
        .await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert_eq!(again.headers["etag"], etag.as_str());
    let other = app
        .send(
            app.client
                .get(format!("{}/app/app.css", app.base))
                .header("if-none-match", "\"something-else\""),
        )
        .await;
    assert_eq!(other.status, StatusCode::OK);

    let missing = app.get("/app/missing.js", None).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(missing.body["code"], "not_found");
    let escape = app.get("/app/..%2FCargo.toml", None).await;
    assert_eq!(escape.status, StatusCode::NOT_FOUND);

    // The service worker, at the root so that it may control the page.
    let worker = app.get("/sw.js", None).await;
    assert_eq!(worker.status, StatusCode::OK);
    assert_eq!(
        worker.headers["content-type"],
        "text/javascript; charset=utf-8"
    );
    assert_eq!(worker.headers["cache-control"], "no-cache");
    let source =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("web/sw.js")).unwrap();
    assert!(
        worker.body.as_str() == Some(source.as_str()),
        "/sw.js is not web/sw.js"
    );

    for path in ["/", "/sw.js", "/app/app.js"] {
        let wrong = app
            .send(app.client.post(format!("{}{path}", app.base)))
            .await;
        assert_eq!(wrong.status, StatusCode::METHOD_NOT_ALLOWED, "{path}");
        assert_eq!(wrong.headers["allow"], "GET");
        assert_eq!(wrong.body["code"], "method_not_allowed");
    }
}
