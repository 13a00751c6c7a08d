//! A fresh PostgreSQL database for a test, and whether the tests run under CI. Shared by the
//! test helpers of `crates/hall` and `crates/hangar` (included there by path).

/// Whether the tests run under CI: `CI` set to `true` (or `1`), as CI services and `.ci/run`
/// set it. Under CI every server a test needs must be there: a missing one fails the test.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1")
}

/// A fresh, empty PostgreSQL database on the server of HANGAR_TEST_POSTGRES_URL (./test.sh
/// starts one), so that a test sees only its own players and games; `None` without it.
pub async fn fresh_postgres() -> Option<String> {
    use sqlx::Connection;
    let url = std::env::var("HANGAR_TEST_POSTGRES_URL")
        .ok()
        .filter(|u| !u.is_empty())?;
    let name = format!("hangar_{}", &hangar_hall::accounts::new_token()[..12]).to_lowercase();
    let mut admin = sqlx::PgConnection::connect(&url)
        .await
        .expect("the PostgreSQL server of HANGAR_TEST_POSTGRES_URL answers");
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await
        .expect("a test database can be created");
    let base = url.rsplit_once('/').map_or(url.as_str(), |(base, _)| base);
    Some(format!("{base}/{name}"))
}
