// The WebSocket connection to the hall (docs/protocol.md): commands with ids answered by an
// ack or an error, server messages dispatched to listeners, and automatic reconnection.
// After a reconnect the app re-authenticates and resumes its room from the last version.

const TOKEN_KEY = 'hangar.token';

/** The saved identity token (P-GUEST / P-ACCOUNT), or null. */
export function savedToken() {
  return localStorage.getItem(TOKEN_KEY);
}

/** Remember (or with null forget) the identity token. */
export function saveToken(token) {
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
}

/**
 * GET a path of the hall's HTTP API as the signed-in player (`Authorization: Bearer`): the
 * records of private rooms' games are shown to their players only.
 */
export function apiFetch(path) {
  const token = savedToken();
  return fetch(path, token ? { headers: { Authorization: `Bearer ${token}` } } : {});
}

/** A random string naming this page load, so repeated command ids are recognised (§2). */
export const CLIENT_ID = `c-${Math.random().toString(36).slice(2, 10)}${Date.now().toString(36)}`;

/** Error raised when the server answers a command with `error`. */
export class CommandError extends Error {
  constructor(code, message) {
    super(message || code);
    this.code = code;
  }
}

/** One connection to the hall that survives drops. */
export class Connection {
  constructor(url) {
    this.url = url;
    this.nextId = Math.floor(Math.random() * 1000) * 1000 + 1;
    this.pending = new Map(); // id → {msg, resolve, reject}
    this.handlers = new Set();
    this.statusHandlers = new Set();
    this.socket = null;
    this.open = false;
    this.retry = 0;
    this.onReconnect = null; // async () => … run after each (re)connection before queued sends
  }

  /** Listen to every server message that is not an ack/error. */
  on(fn) {
    this.handlers.add(fn);
    return () => this.handlers.delete(fn);
  }

  /** Listen to connection status changes: 'connecting' | 'open' | 'closed'; returns the way to stop. */
  onStatus(fn) {
    this.statusHandlers.add(fn);
    return () => this.statusHandlers.delete(fn);
  }

  setStatus(status) {
    for (const fn of this.statusHandlers) fn(status);
  }

  /** Open the socket (and keep reopening it when it drops). */
  connect() {
    this.setStatus('connecting');
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener('open', () => {
      this.retry = 0;
    });
    socket.addEventListener('message', (e) => this.receive(e.data));
    socket.addEventListener('close', () => {
      if (this.socket !== socket) return;
      this.open = false;
      // Identity and resume commands are sent afresh after the reconnect: drop the old ones.
      for (const [id, entry] of this.pending) {
        if (entry.priority) {
          this.pending.delete(id);
          entry.reject(new CommandError('disconnected', 'connection lost'));
        }
      }
      this.setStatus('closed');
      const delay = Math.min(5000, 300 * 2 ** this.retry);
      this.retry += 1;
      setTimeout(() => this.connect(), delay);
    });
  }

  /** Drop the socket on purpose (tests use it to check reconnection). */
  drop() {
    this.socket?.close();
  }

  async receive(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (msg.type === 'welcome') {
      this.welcome = msg;
      await this.afterOpen();
      return;
    }
    if ((msg.type === 'ack' || msg.type === 'error') && msg.id !== null && msg.id !== undefined) {
      const entry = this.pending.get(msg.id);
      if (entry) {
        this.pending.delete(msg.id);
        if (msg.type === 'ack') entry.resolve(msg.result ?? {});
        else entry.reject(new CommandError(msg.code, msg.message));
      }
      return;
    }
    for (const fn of this.handlers) fn(msg);
  }

  async afterOpen() {
    // Identity and room resume first, then whatever was queued while the socket was down
    // (re-sent with the same ids: the server answers a repeated id once, §2).
    this.open = true;
    const queued = [...this.pending.values()].filter((p) => !p.priority);
    if (this.onReconnect) {
      try {
        await this.onReconnect();
      } catch (err) {
        console.warn('resume failed', err);
      }
    }
    for (const entry of queued) this.rawSend(entry.msg);
    this.setStatus('open');
  }

  rawSend(msg) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(msg));
  }

  /**
   * Send command `type` with `fields`; resolves with the ack's result, rejects with a
   * CommandError. `priority` commands (auth, resume) go out even before the app has resumed.
   */
  send(type, fields = {}, { priority = false } = {}) {
    const id = this.nextId;
    this.nextId += 1;
    const msg = { type, id, ...fields };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { msg, resolve, reject, priority });
      if (this.open || priority) this.rawSend(msg);
    });
  }
}
