//! Starting and stopping the hall: open the database, restore running games (P-DURABLE),
//! listen, and shut down gracefully on ctrl-c or SIGTERM.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::serve::ListenerExt;
use tokio::net::TcpListener;

use crate::config::Config;
use crate::hall::Hall;
use crate::http::app;
use crate::room::{restore_room, restore_waiting_room};
use crate::store::Store;

/// A hall that is listening.
pub struct Running {
    /// The bound address (with the real port when 0 was asked).
    pub addr: SocketAddr,
    /// The shared state.
    pub hall: Arc<Hall>,
    listener: TcpListener,
}

/// Opens the database, restores running games and binds the address.
pub async fn start(config: Config) -> anyhow::Result<Running> {
    crate::metrics::install();
    let store = Store::open(&config.database).await?;
    store.set_failure_bound(config.storage_failure_bound);
    let hall = Hall::new(config.clone(), store);
    let running = hall.store.running_games().await?;
    let mut restored = 0;
    for game in &running {
        match restore_room(&hall, game).await {
            Ok(()) => restored += 1,
            Err(e) => {
                tracing::error!(game_id = game.id, error = %e, "a running game could not be restored")
            }
        }
    }
    if !running.is_empty() {
        tracing::info!(restored, stored = running.len(), "running games restored");
    }
    for room in hall.store.waiting_rooms().await? {
        if let Err(e) = restore_waiting_room(&hall, &room).await {
            tracing::error!(room = %room.code, error = %e, "a waiting room could not be restored");
        }
    }
    let listener = TcpListener::bind(&config.addr).await?;
    let addr = listener.local_addr()?;
    Ok(Running {
        addr,
        hall,
        listener,
    })
}

impl Running {
    /// Serves until `shutdown` completes.
    pub async fn serve(
        self,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let router = app(self.hall.clone());
        let report = tokio::spawn(crate::latency::report());
        let sweep = tokio::spawn(sweep_answers(self.hall.clone()));
        // Small frames must leave at once: no Nagle delay (it adds tens of ms to acks).
        let listener = self.listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        // The peer's address, for the cap per address.
        let service = router.into_make_service_with_connect_info::<SocketAddr>();
        axum::serve(listener, service)
            .with_graceful_shutdown(shutdown)
            .await?;
        report.abort();
        sweep.abort();
        self.hall.store.close().await;
        Ok(())
    }
}

/// Drops answer memories whose resume window has passed, even when no one signs in or
/// leaves to trigger it (memory comes back after an attack ends).
async fn sweep_answers(hall: Arc<Hall>) {
    let mut tick = tokio::time::interval(hall.answers.sweep_interval());
    loop {
        tick.tick().await;
        hall.answers.sweep();
    }
}

/// Completes on ctrl-c or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}
