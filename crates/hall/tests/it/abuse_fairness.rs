//! Fairness between connections: one connection sending valid commands back to back, as
//! fast as its rate limit lets it, cannot starve another connection of the same hall. On a
//! hall with a single worker thread, another client's commands keep being answered while the
//! flood is still being served, not after it. What defends it is the runtime's cooperative
//! budget: each socket read and write of a connection's task, and each command it handles
//! (`consume_budget` in the connection loop), spend it, and a task whose budget is spent
//! gives the worker to the others. A connection task run outside the budget
//! (`tokio::task::coop::unconstrained`) answers the whole flood first, and this test fails.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::{Client, WAIT};
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio::sync::oneshot;
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;

/// Commands the flooding connection sends at once (all within the test hall's burst).
const FLOOD: usize = 100_000;

/// Commands the other connection sends, one after the other, during the flood.
const OTHERS: usize = 20;

#[test]
fn a_flooding_connection_does_not_starve_another_on_a_single_worker_hall() {
    // The hall on a runtime of its own with one worker; the clients on another runtime.
    let hall_runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let config = common::test_config(common::sqlite_url(&dir));
    assert!(config.message_burst as usize >= FLOOD + OTHERS);
    let running = hall_runtime
        .block_on(hangar_hall::server::start(config))
        .unwrap();
    let addr = running.addr;
    let (stop, stopped) = oneshot::channel::<()>();
    let served = hall_runtime.spawn(running.serve(async {
        let _ = stopped.await;
    }));

    let clients = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    clients.block_on(async move {
        let (flooder, _) = connect_async(format!("ws://{addr}/ws")).await.unwrap();
        let (mut sink, mut stream) = flooder.split();
        let answered = Arc::new(AtomicUsize::new(0));
        let counted = answered.clone();
        let reader = tokio::spawn(async move {
            while let Some(Ok(message)) = stream.next().await {
                if let Message::Text(text) = message
                    && text.contains(r#""type":"ack""#)
                {
                    let n = counted.fetch_add(1, Ordering::Relaxed) + 1;
                    if n == FLOOD {
                        return;
                    }
                }
            }
            panic!("the flooding connection closed after {counted:?} answers");
        });
        let writer = tokio::spawn(async move {
            for id in 1..=FLOOD {
                let ping = json!({"type": "ping", "id": id}).to_string();
                sink.feed(Message::text(ping)).await.unwrap();
            }
            sink.flush().await.unwrap();
            sink
        });
        // The flood is being served...
        tokio::time::timeout(WAIT, async {
            while answered.load(Ordering::Relaxed) < 1_000 {
                tokio::task::yield_now().await;
            }
        })
        .await
        .expect("the flood is answered");
        // ...and another connection is answered meanwhile, command after command.
        let mut other = Client::connect(addr).await;
        for _ in 0..OTHERS {
            other.ok(json!({"type": "ping"})).await;
        }
        let flood_answered = answered.load(Ordering::Relaxed);
        assert!(
            flood_answered < FLOOD,
            "the other connection was answered only once the flood had been ({flood_answered})"
        );
        tokio::time::timeout(4 * WAIT, reader)
            .await
            .expect("the whole flood is answered in the end")
            .unwrap();
        let _sink = writer.await.unwrap();
        other.close().await;
    });
    let _ = stop.send(());
    let _ = hall_runtime.block_on(served);
}
