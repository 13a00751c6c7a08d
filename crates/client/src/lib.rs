//! A small client of the Hangar hall (`docs/protocol.md`): one WebSocket, commands written from
//! the protocol's types with fresh ids, frames read as they come or as the protocol's types.
//! The command-line tools (`hangar attack`, `hangar load`'s setup) and the tests' clients
//! share it; nothing here knows a game.

use futures_util::{SinkExt, StreamExt};
use serde::Serialize;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async_with_config};

use hangar_protocol::{Outcome, ServerMessage, Welcome};

/// The WebSocket under a [`Connection`].
pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// What can go wrong talking to a hall.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The WebSocket failed (connecting, sending or reading).
    #[error("websocket: {0}")]
    Socket(#[from] tungstenite::Error),
    /// The hall closed the connection (with its close code and reason, if it sent them).
    #[error("the hall closed the connection ({code:?}: {reason})")]
    Closed {
        /// The WebSocket close code.
        code: Option<u16>,
        /// The reason the hall gave.
        reason: String,
    },
    /// A frame that is not a message of the protocol.
    #[error("a frame that is not a protocol message: {0}")]
    NotAMessage(#[from] serde_json::Error),
    /// The first frame was not the `welcome`.
    #[error("the hall did not greet: {0}")]
    NoWelcome(String),
}

/// A command with its id, as a client sends it: `{"type": …, "id": 7, …}`.
#[derive(Serialize)]
struct WithId<'a, C> {
    id: u64,
    #[serde(flatten)]
    command: &'a C,
}

/// One connection to a hall.
pub struct Connection {
    socket: Socket,
    last_id: u64,
    /// The hall's greeting.
    pub welcome: Welcome,
}

impl Connection {
    /// Connects to `url` (`ws://host:port/ws`) and reads the `welcome`.
    pub async fn connect(url: &str) -> Result<Connection, ClientError> {
        Connection::connect_with(url, WebSocketConfig::default()).await
    }

    /// Connects with the socket settings `config` (a load generator keeps small buffers).
    pub async fn connect_with(
        url: &str,
        config: WebSocketConfig,
    ) -> Result<Connection, ClientError> {
        let (mut socket, _) = connect_async_with_config(url, Some(config), true).await?;
        let first = next_text(&mut socket).await?;
        let welcome = serde_json::from_str(&first).map_err(|_| ClientError::NoWelcome(first))?;
        Ok(Connection {
            socket,
            last_id: 0,
            welcome,
        })
    }

    /// Sends `command` (a `HallCommand`, a `RoomCommand`, or any serialisable command) with a
    /// fresh id; returns the id.
    pub async fn send<C: Serialize>(&mut self, command: &C) -> Result<u64, ClientError> {
        self.last_id += 1;
        let id = self.last_id;
        let text = serde_json::to_string(&WithId { id, command })?;
        self.send_text(text).await?;
        Ok(id)
    }

    /// Sends `command` and waits for its answer (frames before it are skipped): the typed
    /// outcome, an ack's result or the error that refused it.
    pub async fn call<C: Serialize>(&mut self, command: &C) -> Result<Outcome, ClientError> {
        let id = self.send(command).await?;
        loop {
            if let ServerMessage::Answer(answer) = self.next().await?
                && answer.id() == Some(id)
            {
                return Ok(answer.into_outcome());
            }
        }
    }

    /// The last command id used on this connection.
    pub fn last_id(&self) -> u64 {
        self.last_id
    }

    /// Goes on numbering commands after `last_id`: repeated ids are answered once per player
    /// and client string (protocol.md §2), so a client that comes back on a new connection
    /// must not use an id of its earlier commands for a new one.
    pub fn continue_ids_after(&mut self, last_id: u64) {
        self.last_id = last_id;
    }

    /// Sends a text frame as it is (a test of bad input sends what no type would write).
    pub async fn send_text(&mut self, text: impl Into<String>) -> Result<(), ClientError> {
        self.socket.send(Message::text(text.into())).await?;
        Ok(())
    }

    /// The next text frame (pings and pongs are answered and skipped).
    pub async fn next_text(&mut self) -> Result<String, ClientError> {
        next_text(&mut self.socket).await
    }

    /// The next frame as a message of the protocol.
    pub async fn next(&mut self) -> Result<ServerMessage, ClientError> {
        let text = self.next_text().await?;
        Ok(serde_json::from_str(&text)?)
    }

    /// Closes the connection politely.
    pub async fn close(mut self) -> Result<(), ClientError> {
        self.socket.close(None).await?;
        Ok(())
    }

    /// The WebSocket itself, for a client that reads it its own way (close frames, raw bytes).
    pub fn socket(&mut self) -> &mut Socket {
        &mut self.socket
    }

    /// The WebSocket itself, for a client that reads it in its own loop.
    pub fn into_socket(self) -> Socket {
        self.socket
    }
}

/// The next text frame of `socket` (pings and pongs are answered and skipped).
async fn next_text(socket: &mut Socket) -> Result<String, ClientError> {
    loop {
        match socket.next().await {
            Some(Ok(Message::Text(text))) => return Ok(text.as_str().to_owned()),
            Some(Ok(Message::Close(frame))) => {
                return Err(ClientError::Closed {
                    code: frame.as_ref().map(|f| u16::from(f.code)),
                    reason: frame
                        .map(|f| f.reason.as_str().to_owned())
                        .unwrap_or_default(),
                });
            }
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(e.into()),
            None => {
                return Err(ClientError::Closed {
                    code: None,
                    reason: String::new(),
                });
            }
        }
    }
}
