//! Starting and stopping the hall: open the database, restore running games (P-DURABLE),
//! listen, and shut down gracefully on ctrl-c or SIGTERM.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::serve::Listener;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower_service::Service;

use crate::cluster::Cluster;
use crate::config::Config;
use crate::hall::Hall;
use crate::http::app;
use crate::room::{restore_room, restore_waiting_room};
use crate::slots::Slots;
use crate::store::Store;

/// A hall that is listening.
pub struct Running {
    /// The bound address (with the real port when 0 was asked).
    pub addr: SocketAddr,
    /// The shared state.
    pub hall: Arc<Hall>,
    /// This node's part in a cluster (cluster mode only).
    cluster: Option<Arc<Cluster>>,
    listener: TcpListener,
}

/// Listens on `addr` (its first address that binds). Connections accepted inherit the
/// listener's send buffer: `send_buffer` bytes (0: the system's, which Linux grows up to 4 MiB
/// for a peer that does not read), so that the kernel too holds a bounded number of bytes for
/// a connection that stopped reading (§5, `Limits::socket_send_buffer`).
async fn bind(addr: &str, send_buffer: u32) -> std::io::Result<TcpListener> {
    if send_buffer == 0 {
        return TcpListener::bind(addr).await;
    }
    let mut last = None;
    for addr in tokio::net::lookup_host(addr).await? {
        let socket = match addr {
            std::net::SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
            std::net::SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
        };
        // As `TcpListener::bind`: a restarted hall binds its port again at once.
        socket.set_reuseaddr(true)?;
        socket.set_send_buffer_size(send_buffer)?;
        match socket.bind(addr).and_then(|()| socket.listen(1024)) {
            Ok(listener) => return Ok(listener),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, "no address to listen on")
    }))
}

/// Opens the database, restores running games and binds the address.
pub async fn start(config: Config) -> anyhow::Result<Running> {
    crate::metrics::install();
    let store = Store::open(&config.database).await?;
    store.set_failure_bound(config.storage_failure_bound);
    if config.cluster.is_some() && store.backend() != crate::store::Backend::Postgres {
        anyhow::bail!(
            "--cluster needs a PostgreSQL --database (postgres://…), the same for every node"
        );
    }
    let hall = Hall::new(config.clone(), store);
    let listener = bind(&config.addr, config.limits.socket_send_buffer).await?;
    let addr = listener.local_addr()?;
    if let Some(nats) = &config.cluster {
        // A node's rooms are those it opens or adopts (the stored ones too, see `Cluster`).
        let cluster = Cluster::join(&hall, nats, &addr.to_string()).await?;
        return Ok(Running {
            addr,
            hall,
            cluster: Some(cluster),
            listener,
        });
    }
    // The arenas first: a restored room's game that ends counts in its arena (P-ARENA).
    let arenas = crate::arena::load_new(&hall).await;
    let running = hall.store.running_games().await?;
    let mut restored = 0;
    for game in &running {
        match restore_room(hall.clone(), game).await {
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
        if let Err(e) = restore_waiting_room(hall.clone(), &room).await {
            tracing::error!(room = %room.code, error = %e, "a waiting room could not be restored");
        }
    }
    crate::arena::settle_missed(&hall, &arenas).await;
    Ok(Running {
        addr,
        hall,
        cluster: None,
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
        let admin = tokio::spawn(crate::admin::watch_orders(self.hall.clone()));
        let cluster = self.cluster.clone();
        let arenas = tokio::spawn(crate::arena::run_arenas(self.hall.clone()));
        // A cluster node that lost its lease stops like a drained one (its rooms are another
        // node's now), and says so in its exit status.
        let fenced = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stop = {
            let cluster = cluster.clone();
            let fenced = fenced.clone();
            async move {
                match cluster {
                    Some(cluster) => tokio::select! {
                        () = shutdown => {}
                        () = cluster.fenced() => fenced.store(true, std::sync::atomic::Ordering::Relaxed),
                    },
                    None => shutdown.await,
                }
            }
        };
        accept(self.listener, router, &self.hall, stop).await;
        // Drain: every socket is told to reconnect (1012), given a moment to go, and only then
        // the store closes (what was acknowledged is stored already).
        self.hall.close_connections();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        while self.hall.connection_count() > 0 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        report.abort();
        sweep.abort();
        admin.abort();
        arenas.abort();
        if fenced.load(std::sync::atomic::Ordering::Relaxed) {
            self.hall.store.close().await;
            anyhow::bail!("this node lost its cluster lease; another node owns its rooms now");
        }
        if cluster.is_some() {
            // What the rooms stored is stored (the writer's queue runs in order): the lease
            // ends now, and the other nodes take the rooms over at once.
            if let Err(e) = self.hall.store.release_lease().await {
                tracing::warn!(error = %e, "the cluster lease could not be released: it runs out by itself");
            }
        }
        self.hall.store.close().await;
        Ok(())
    }
}

/// Most TCP connections the hall holds at once: the WebSocket cap (`--max-connections`)
/// and room for plain HTTP beside it (`/health`, the API, upgrades answered 503): an eighth
/// of the cap, at least 16. Past it a connection is closed as soon as it is accepted, before
/// it is read, so that no number of silent sockets reaches the file limit (each would
/// otherwise be held until the header timeout).
pub fn tcp_cap(max_connections: usize) -> usize {
    max_connections.saturating_add((max_connections / 8).max(16))
}

/// Plain HTTP connections one address may hold, per WebSocket it may hold: a browser keeps up
/// to six connections to a host alive for a while after loading a page, and players behind
/// one address (a household, a school) each have a browser.
pub const HTTP_CONNECTIONS_PER_WEBSOCKET: usize = 4;

/// Serves HTTP (and WebSocket upgrades) on every accepted connection until `shutdown`
/// completes, then waits for the requests under way. Each connection has the header timeout
/// to send a request's headers (the first and every later one on a kept-alive connection),
/// so that a half-sent request or a silent socket does not hold a file for ever; axum's own
/// `serve` sets no such timeout. Past [`tcp_cap`] connections (HTTP ones and WebSockets
/// together), or past [`HTTP_CONNECTIONS_PER_WEBSOCKET`] times `--max-connections-per-address`
/// plain HTTP connections from one address, a new one is closed at once: one address's silent sockets cannot take the room
/// every other client's connections need.
async fn accept(
    mut listener: TcpListener,
    router: Router,
    hall: &Hall,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let limits = &hall.config.limits;
    let header_timeout = limits.header_timeout;
    let cap = tcp_cap(limits.max_connections);
    let per_address = limits
        .max_connections_per_address
        .saturating_mul(HTTP_CONNECTIONS_PER_WEBSOCKET);
    // Plain HTTP connections (not yet upgraded to a WebSocket), in all and per address.
    let http = Arc::new(Slots::default());
    // The peer's address, for the caps per address.
    let mut make_service = router.into_make_service_with_connect_info::<SocketAddr>();
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    // Each connection holds a receiver: all are dropped once every connection has ended.
    let (stop, stopping) = watch::channel(());
    tokio::pin!(shutdown);
    loop {
        // `Listener::accept` waits out errors such as running out of files.
        let (tcp, addr) = tokio::select! {
            accepted = Listener::accept(&mut listener) => accepted,
            () = &mut shutdown => break,
        };
        // An upgraded connection counts among the WebSockets (its HTTP side has ended).
        if http.open() + hall.connection_count() >= cap {
            metrics::counter!(crate::metrics::REFUSED, "reason" => "tcp").increment(1);
            tracing::debug!(%addr, cap, "a connection past the TCP cap is closed");
            drop(tcp);
            continue;
        }
        // A trusted proxy carries every client's connections: its clients are counted by the
        // address it forwards, once the WebSocket's request is read (`api_reply::client_address`).
        let counted_address = Some(addr.ip()).filter(|ip| !limits.trusted_proxies.contains(ip));
        let Ok(counted) = http.admit(counted_address, usize::MAX, per_address) else {
            metrics::counter!(crate::metrics::REFUSED, "reason" => "tcp_address").increment(1);
            tracing::debug!(%addr, per_address, "a connection past the address's cap is closed");
            drop(tcp);
            continue;
        };
        // Small frames must leave at once: no Nagle delay (it adds tens of ms to acks).
        let _ = tcp.set_nodelay(true);
        let service: Result<_, Infallible> = make_service.call(addr).await;
        let Ok(service) = service;
        let connection = builder
            .serve_connection(TokioIo::new(tcp), TowerToHyperService::new(service))
            .with_upgrades();
        let mut stopping = stopping.clone();
        tokio::spawn(async move {
            tokio::pin!(connection);
            let ended = tokio::select! {
                ended = connection.as_mut() => ended,
                _ = stopping.changed() => {
                    // The request under way is answered, then the connection closes.
                    connection.as_mut().graceful_shutdown();
                    connection.await
                }
            };
            if let Err(e) = ended {
                tracing::trace!(error = %e, "connection ended with an error");
            }
            drop(counted);
            drop(stopping);
        });
    }
    drop(stopping);
    stop.send_replace(());
    stop.closed().await;
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

/// A future that completes on ctrl-c or SIGTERM. The handlers are installed when this is
/// called, not when the future is first polled: a signal that arrives between "the hall is
/// open" and the first poll of the serve loop must drain the hall, not kill it with the
/// default action. Call it inside the runtime.
pub fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    let (interrupt, terminate) = {
        use tokio::signal::unix::{SignalKind, signal};
        (
            signal(SignalKind::interrupt()).ok(),
            signal(SignalKind::terminate()).ok(),
        )
    };
    async move {
        #[cfg(unix)]
        {
            let received = |stream: Option<tokio::signal::unix::Signal>| async move {
                match stream {
                    Some(mut stream) => {
                        stream.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                () = received(interrupt) => {},
                () = received(terminate) => {},
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
        tracing::info!("shutting down");
    }
}
