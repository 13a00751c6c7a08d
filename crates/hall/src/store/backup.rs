//! `hangar backup`: a consistent copy of a SQLite database taken while the hall serves it.
//! `VACUUM INTO` reads one snapshot of the database (WAL mode: the hall's writes go on
//! meanwhile) and writes it, compacted, to a new file that opens as any database. PostgreSQL
//! has its own tools (`pg_dump`); docs/deploy.md says how.

use std::path::Path;

use sqlx::{Connection, Executor, SqliteConnection};

use super::{Backend, StoreError, normalise_url};

/// Copies the SQLite database at `url` to the new file `out` (which must not exist).
pub async fn backup(url: &str, out: &Path) -> Result<(), StoreError> {
    let (backend, url) = normalise_url(url)?;
    if backend == Backend::Postgres {
        return Err(StoreError::Backup(
            "a PostgreSQL database is backed up with pg_dump (docs/deploy.md)".to_owned(),
        ));
    }
    if out.exists() {
        return Err(StoreError::Backup(format!(
            "{} exists already: name a new file",
            out.display()
        )));
    }
    // Read-only: the backup never writes to the database it copies.
    let url = url.replace("mode=rwc", "mode=ro");
    let mut conn = SqliteConnection::connect(&url).await?;
    conn.execute("PRAGMA busy_timeout=10000").await?;
    let target = out.display().to_string().replace('\'', "''");
    conn.execute(format!("VACUUM INTO '{target}'").as_str())
        .await?;
    conn.close().await?;
    Ok(())
}
