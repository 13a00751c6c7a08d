//! The web client's files: only what lies inside the web directory — no dotfiles (`/.env`,
//! `/.git/…`) and nothing a symlink leads to outside it — each page with a
//! Content-Security-Policy that forbids framing (clickjacking) and scripts from anywhere but
//! the hall itself (the page is ES modules with no inline script).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use tower_http::services::ServeDir;

/// The policy of every file served. Styles may be inline (the page sets element styles from
/// script, e.g. the turn timer's bar); images may be `data:` (the page's icon).
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
     object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/// The web directory as given and as it really is (symlinks resolved).
struct WebDir {
    root: PathBuf,
    real: PathBuf,
}

/// A router serving `dir`'s files with the checks and headers above.
pub fn web_files(dir: PathBuf) -> Router {
    let real = std::fs::canonicalize(&dir).unwrap_or_else(|_| dir.clone());
    let web = Arc::new(WebDir {
        root: dir.clone(),
        real,
    });
    Router::new()
        .fallback_service(ServeDir::new(dir))
        .layer(from_fn_with_state(web, guard))
}

async fn guard(State(web): State<Arc<WebDir>>, request: Request, next: Next) -> Response {
    let Some(path) = decode(request.uri().path()) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    if path.split('/').any(|part| part.starts_with('.')) {
        return StatusCode::NOT_FOUND.into_response();
    }
    let target = web.root.join(path.trim_start_matches('/'));
    if !inside(&web.real, &target).await {
        return StatusCode::NOT_FOUND.into_response();
    }
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

/// Whether `target`, if it exists, really lies inside `real_root` (a missing file is left to
/// the file server's 404).
async fn inside(real_root: &Path, target: &Path) -> bool {
    match tokio::fs::canonicalize(target).await {
        Ok(real) => real.starts_with(real_root),
        Err(_) => true,
    }
}

/// The URL path percent-decoded; `None` when it does not decode to UTF-8.
fn decode(path: &str) -> Option<String> {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let text = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(text, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_decode_so_that_hidden_dotfiles_are_seen() {
        assert_eq!(decode("/%2eenv").as_deref(), Some("/.env"));
        assert_eq!(decode("/js/app.js").as_deref(), Some("/js/app.js"));
        assert_eq!(decode("/%zz"), None);
    }
}
