// Challenges and bot accounts on the page (P-CHALLENGE, P-BOT-ACCOUNT): the mark of a bot
// account, the "Challenge" button with its composer dialog, and the challenges as
// notifications — a badge in the top bar with the count, and a list of notices that never
// takes the keyboard: those received (who, the game, the stake and the options that matter,
// the seconds left, Accept / Decline), and the challenger's pending lines (whom they wait for,
// who is online, who accepted, Cancel). While the player is in a running game a challenge only
// raises the badge; it shows when the game is over. Installed once (`installChallenges`).

import { h, mount, toast } from './dom.js';
import { t, onLangChange } from './i18n.js';
import { errorText } from './errors.js';
import { openDialog } from './focusdialog.js';
import { chatHidden, keepSettings, forgetSettings, openSettings, blockButton, settingsButton, isBlocked } from './challenge_settings.js';

export { chatHidden, blockButton, settingsButton, openSettings, isBlocked };

/** Flight table sizes a challenge may ask for (the hall's bounds may be narrower). */
const FLIGHT_SEATS = [2, 3, 4];

/** The mark of a bot account next to its name: 🤖 for the eye, a word for screen readers. */
export function botMark(player) {
  if (!player?.bot) return null;
  return h('span', { class: 'bot-mark', title: t('bot_account') },
    h('span', { 'aria-hidden': 'true' }, '🤖'),
    h('span', { class: 'sr-only' }, ` (${t('bot_account')})`));
}

/** The mark of a guest next to its name (P-ACCOUNT: guests are always shown as guests). */
export function guestMark(player) {
  if (!player?.guest) return null;
  return h('small', { class: 'guest-mark' }, ` (${t('guest')})`);
}

/**
 * The "Challenge" button for `player`: only for a signed-in viewer, never on oneself, and not
 * for a guest (only accounts can be challenged). `again`: the result dialog's "Challenge
 * again".
 */
export function challengeButton(app, player, game = 'jungle', { again = false } = {}) {
  if (!app.player || !player || player.id === app.player.id || player.guest) return null;
  return h('button', {
    class: `btn ${again ? '' : 'btn-small'} challenge-btn`, type: 'button', 'data-player': player.id,
    id: again ? 'challenge-again' : null,
    'aria-label': again ? null : t('challenge_who', { name: player.name }),
    onclick: () => openForm(app, player, game),
  }, '⚔ ', again ? t('challenge_again') : t('challenge'));
}

/** A labelled field of the composer. */
function field(id, label, control) {
  return h('div', { class: 'challenge-field', 'data-field': id }, h('label', { for: id }, label), control);
}

/** The composer: which game, the turn timer, and for flight the seats, their bots, rules and stake. */
function openForm(app, player, game) {
  const opts = app.options ?? {};
  const flightOpts = opts.flight ?? {};
  const turn = opts.turn_seconds ?? { min: 5, max: 120, default: 20 };
  const seatRange = flightOpts.seats ?? { min: 2, max: 4 };
  const stake = flightOpts.stake ?? { min: 10, max: 10000, default: 100 };
  // The hall's flight levels and the one it offers first (GET /api/options, loaded before
  // the page starts): no copy of them here.
  const { bots, default_bot: defaultBot } = flightOpts;
  const presets = Object.keys(flightOpts.presets ?? { traditional: 1, improved: 1 });
  const gameSel = h('select', { name: 'game', id: 'challenge-game' },
    ['jungle', 'flight'].map((g) => h('option', { value: g, selected: g === game }, t(g))));
  const seatSel = h('select', { name: 'seats', id: 'challenge-seats' },
    FLIGHT_SEATS.filter((n) => n >= seatRange.min && n <= seatRange.max).map((n) => h('option', { value: n }, t(`players_${n}`))));
  const botSel = h('select', { name: 'bot', id: 'challenge-bot' },
    bots.map((b) => h('option', { value: b, selected: b === defaultBot }, t(`bot_${b}`))));
  const presetSel = h('select', { name: 'preset', id: 'challenge-preset' },
    presets.map((p) => h('option', { value: p, selected: p === flightOpts.default_preset }, t(`preset_${p}`))));
  const stakeIn = h('input', { type: 'number', name: 'stake', id: 'challenge-stake', min: stake.min, max: stake.max, value: stake.default, inputmode: 'numeric' });
  const turnIn = h('input', { type: 'number', name: 'turn_seconds', id: 'challenge-turn', min: turn.min, max: turn.max, value: turn.default, inputmode: 'numeric' });
  const botField = field('challenge-bot', t('challenge_bots'), botSel);
  const flightBox = h('div', { class: 'challenge-flight' },
    field('challenge-seats', t('seats'), seatSel), botField,
    field('challenge-preset', t('preset'), presetSel),
    field('challenge-stake', t('stake'), stakeIn));
  const error = h('p', { class: 'form-error', id: 'challenge-error', role: 'alert' });
  const show = () => {
    flightBox.hidden = gameSel.value !== 'flight';
    botField.hidden = Number(seatSel.value) <= 2;
  };
  gameSel.addEventListener('change', show);
  seatSel.addEventListener('change', show);
  show();
  const send = h('button', { class: 'btn btn-primary', type: 'submit', id: 'challenge-send' }, t('challenge_send'));
  const form = h('form', {
    class: 'challenge-fields', id: 'challenge-fields',
    onsubmit: async (e) => {
      e.preventDefault();
      error.textContent = '';
      const flight = gameSel.value === 'flight';
      const options = { turn_seconds: Number(turnIn.value) };
      const fields = { player: player.id, game: gameSel.value, options };
      if (flight) {
        Object.assign(options, { preset: presetSel.value, stake: Number(stakeIn.value) });
        const extra = Number(seatSel.value) - 2;
        fields.seats = Array.from({ length: extra }, () => ({ bot: botSel.value }));
      }
      // Not disabled while it goes (the keyboard would fall out of the dialog): once only.
      if (form.dataset.sending) return;
      form.dataset.sending = '1';
      try {
        const { challenge } = await app.conn.send('challenge', fields);
        overlay.close();
        addSent(challenge);
        announce(t('challenge_sent', { name: names(challenge.to) }));
      } catch (err) {
        // The page's words, in the dialog where the player is looking (and it stays open).
        error.textContent = err.code === 'rate_limited' ? t('challenge_limit') : errorText(err);
      } finally {
        delete form.dataset.sending;
      }
    },
  },
  field('challenge-game', t('challenge_game'), gameSel),
  flightBox,
  field('challenge-turn', t('turn_seconds'), turnIn),
  error,
  h('div', { class: 'row' },
    send,
    h('button', { class: 'btn btn-ghost', type: 'button', id: 'challenge-form-cancel', onclick: () => overlay.close() }, t('cancel'))));
  const overlay = openDialog('challenge-form', t('challenge_who', { name: player.name }), form, { className: 'challenge-form-card' });
}

// ---------------------------------------------------------------------------------------------
// The notifications.

/** The page (set by `installChallenges`). */
let app = null;

/** Challenges this player was sent, by id: `{ch, deadline, accepted: Map, answered, hidden}`. */
const received = new Map();
/** Challenges this player sent, by id: `{ch, deadline, accepted: Map, hidden}`. */
const sent = new Map();
/** Rooms of accepted challenges held while the player finishes a game: `{room, seat, names}`. */
const readyRooms = new Map();

/** Whether the list was opened from the badge (it then shows everything, hidden or not). */
let panelOpen = false;
/** Whether the player was in a running game at the last look. */
let wasBusy = false;

let badge;
let badgeCount;
let dock;
let live;

/** A list of players' names. */
function names(players) {
  return (players ?? []).map((p) => p.name).join(t('list_sep'));
}

/**
 * Whether the player is in a running game on this page (their seat, not out of it): a
 * challenge then waits without interrupting, and cannot be accepted.
 */
export function inRunningGame(page = app) {
  const view = page?.view;
  const st = view?.state;
  if (!st || typeof view.mySeat !== 'function' || st.status !== 'playing') return false;
  const seat = view.mySeat();
  return seat !== null && seat !== undefined && !st.seats?.[seat]?.out;
}

/** Say `text` to screen readers (the notices never take the keyboard). */
function announce(text) {
  if (!live) return;
  live.textContent = '';
  setTimeout(() => { live.textContent = text; }, 50);
}

/** What is at stake and how the game is played: the options that matter, one line. */
export function challengeOptions(ch) {
  const o = ch.options ?? {};
  const parts = [];
  if (ch.game === 'flight') {
    const seats = o.seats ?? 2 + (ch.seats?.length ?? 0);
    parts.push(t(`players_${seats}`));
    if (o.planes) parts.push(t('challenge_planes', { n: o.planes }));
    if (o.preset) parts.push(t(`preset_${o.preset}`));
    // Rules other than the preset's (flight.md §9), each said.
    const preset = app?.options?.flight?.presets?.[o.preset] ?? {};
    const LABELS = {
      takeoff: { six: 'takeoff_6', 'five-or-six': 'takeoff_56' },
      three_sixes: { none: 'three_none', 'all-to-hangar': 'three_all', 'moved-to-hangar': 'three_moved' },
      stacks: { block: 'stacks_block', pass: 'stacks_pass' },
      finish: { bounce: 'finish_bounce', overshoot: 'finish_overshoot', 'exact-only': 'finish_exact', circle: 'finish_circle' },
    };
    for (const [key, value] of Object.entries(preset)) {
      if (key === 'planes' || o[key] === undefined || o[key] === value) continue;
      if (LABELS[key]?.[o[key]]) parts.push(`${t(key)}: ${t(LABELS[key][o[key]])}`);
      else if (o[key] === true) parts.push(t(key));
    }
  } else {
    if (o.level) parts.push(`${t('room_level')} ${o.level}`);
    if (o.order === 'wolf-over-dog') parts.push(t('order_wolf'));
    if (o.leopard_leaps) parts.push(t('leopard_leaps'));
    if (o.elephant_takes_rat) parts.push(t('elephant_takes_rat'));
  }
  if (o.turn_seconds) parts.push(t('challenge_turn', { s: o.turn_seconds }));
  return parts;
}

/** The stake of a flight challenge (jungle stakes nothing but its level). */
function stakeChip(ch) {
  const stake = ch.options?.stake;
  if (ch.game !== 'flight' || !stake) return null;
  return h('span', { class: 'chip chip-stake challenge-stake' }, `${t('stake')} ${stake}`);
}

/** The seconds left of `entry`, drawn again by the ticker. */
function leftView(entry) {
  return h('span', { class: 'challenge-left', 'data-deadline': entry.deadline }, t('challenge_left', { s: secondsTo(entry.deadline) }));
}

function secondsTo(deadline) {
  return Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
}

/** The others at the table of a received challenge: more challenged players and the hall's bots. */
function tableOthers(ch) {
  const me = app.player?.id;
  const people = ch.to.filter((p) => p.id !== me).map((p) => p.name);
  const bots = (ch.seats ?? []).filter((s) => s.bot).map((s) => t('challenge_bot_seat', { level: t(`bot_${s.bot}`) }));
  return [...people, ...bots];
}

/** A received challenge as a notice: who, what, the time left, Accept / Decline (and Later). */
function receivedView(id, entry) {
  const { ch } = entry;
  const busy = inRunningGame();
  const others = tableOthers(ch);
  const acceptedBy = [...entry.accepted.values()].filter((p) => p.id !== app.player?.id);
  const title = `challenge-title-${id}`;
  return h('li', { class: 'challenge-item challenge-incoming', 'data-challenge': id, 'aria-labelledby': title },
    h('p', { class: 'challenge-head', id: title },
      h('span', { 'aria-hidden': 'true' }, '⚔ '), t('challenge_from', { name: ch.from.name }), botMark(ch.from), guestMark(ch.from)),
    h('p', { class: 'challenge-what' },
      h('span', { class: 'challenge-game' }, ch.game === 'flight' ? '✈ ' : '🐘 ', t(ch.game)),
      stakeChip(ch),
      challengeOptions(ch).map((part) => h('span', { class: 'chip challenge-opt' }, part))),
    others.length ? h('p', { class: 'challenge-with' }, t('challenge_with', { names: others.join(t('list_sep')) })) : null,
    acceptedBy.length ? h('p', { class: 'challenge-accepted-by' }, t('challenge_accepted_by', { names: names(acceptedBy) })) : null,
    h('p', { class: 'challenge-time' }, leftView(entry)),
    entry.answered ? h('p', { class: 'challenge-status' }, t('challenge_accepted'))
      : [
        busy ? h('p', { class: 'hint challenge-busy', id: `challenge-busy-${id}` }, t('challenge_busy')) : null,
        h('div', { class: 'row challenge-actions' },
          h('button', {
            class: 'btn btn-primary btn-small challenge-accept', type: 'button', 'data-fkey': `${id}:accept`,
            disabled: busy, 'aria-describedby': busy ? `challenge-busy-${id}` : null,
            onclick: () => answer(id, 'accept_challenge'),
          }, t('accept')),
          h('button', {
            class: 'btn btn-small challenge-decline', type: 'button', 'data-fkey': `${id}:decline`,
            onclick: () => answer(id, 'decline_challenge'),
          }, t('decline')),
          panelOpen ? null : h('button', {
            class: 'btn btn-ghost btn-small challenge-hide', type: 'button', 'data-fkey': `${id}:hide`,
            'aria-label': t('challenge_hide_label'), onclick: () => hide(received.get(id)),
          }, t('challenge_hide')))]);
}

/** A challenge this player sent: whom they wait for (online or not), who accepted, Cancel. */
function sentView(id, entry) {
  const { ch } = entry;
  const online = new Set(ch.online ?? []);
  const waiting = ch.to.filter((p) => !entry.accepted.has(p.id));
  const acceptedBy = ch.to.filter((p) => entry.accepted.has(p.id));
  return h('li', { class: 'challenge-item challenge-pending', 'data-challenge': id },
    h('p', { class: 'challenge-head' },
      h('span', { 'aria-hidden': 'true' }, '⏳ '),
      t('challenge_waiting_for', { names: names(waiting.length ? waiting : ch.to) }),
      ' ', h('span', { class: 'challenge-game' }, ch.game === 'flight' ? '✈ ' : '🐘 ', t(ch.game))),
    h('p', { class: 'challenge-presence' }, (waiting.length ? waiting : ch.to).map((p) => h('span', {
      class: `presence ${online.has(p.id) ? 'presence-on' : 'presence-off'}`, 'data-player': p.id,
    }, h('span', { class: 'presence-dot', 'aria-hidden': 'true' }), `${p.name}: ${t(online.has(p.id) ? 'challenge_online' : 'challenge_offline')}`))),
    acceptedBy.length ? h('p', { class: 'challenge-accepted-by' }, t('challenge_accepted_by', { names: names(acceptedBy) })) : null,
    h('div', { class: 'row challenge-actions' },
      leftView(entry),
      h('button', {
        class: 'btn btn-small challenge-cancel', type: 'button', 'data-fkey': `${id}:cancel`,
        'aria-label': t('challenge_cancel_label', { names: names(ch.to) }),
        onclick: () => cancel(id),
      }, t('cancel')),
      panelOpen ? null : h('button', {
        class: 'btn btn-ghost btn-small challenge-hide', type: 'button', 'data-fkey': `${id}:hide`,
        'aria-label': t('challenge_hide_label'), onclick: () => hide(sent.get(id)),
      }, t('challenge_hide'))));
}

/** A room of an accepted challenge that waits for the player to finish the game they are in. */
function roomView(id, entry) {
  return h('li', { class: 'challenge-item challenge-ready', 'data-challenge': id },
    h('p', { class: 'challenge-head' }, t('challenge_room_ready', { names: entry.names })),
    h('div', { class: 'row challenge-actions' },
      h('a', {
        class: 'btn btn-primary btn-small challenge-go', href: `#/room/${entry.room}`, 'data-fkey': `${id}:go`,
        onclick: () => { app.challengeRoom = { room: entry.room, seat: entry.seat }; readyRooms.delete(id); },
      }, t('challenge_go'))));
}

/** Draw the badge and the list again (keeping the keyboard where it was in the list). */
function render() {
  if (!dock) return;
  const busy = inRunningGame();
  const signed = !!app.player;
  badge.hidden = !signed;
  const n = received.size;
  mount(badgeCount, n ? String(n) : '');
  badge.classList.toggle('has-challenges', n > 0);
  badge.setAttribute('aria-label', t('challenges_badge', { n, m: sent.size }));
  badge.setAttribute('aria-expanded', String(panelOpen));
  const shown = (entry) => panelOpen || (!entry.hidden && !busy);
  const rec = [...received].filter(([, e]) => shown(e));
  const snt = [...sent].filter(([, e]) => shown(e));
  const rooms = [...readyRooms].filter(() => panelOpen || !busy);
  const focused = dock.contains(document.activeElement) ? document.activeElement.dataset?.fkey ?? null : null;
  const focusInside = dock.contains(document.activeElement);
  const any = rec.length + snt.length + rooms.length;
  dock.hidden = !signed || !(panelOpen || any);
  dock.classList.toggle('open', panelOpen);
  mount(dock,
    panelOpen ? h('div', { class: 'challenge-dock-head' },
      h('h2', { id: 'challenge-dock-title' }, t('challenges')),
      h('button', { class: 'btn btn-ghost btn-small', type: 'button', id: 'challenge-dock-close', 'data-fkey': 'close', 'aria-label': t('close'), onclick: () => closePanel(true) }, '✕')) : null,
    rooms.length ? h('ul', { class: 'challenge-list' }, rooms.map(([id, e]) => roomView(id, e))) : null,
    rec.length ? h('ul', { class: 'challenge-list challenge-received', 'aria-label': t('challenges_received') }, rec.map(([id, e]) => receivedView(id, e))) : null,
    snt.length ? h('ul', { class: 'challenge-list challenge-sent', 'aria-label': t('challenges_sent') }, snt.map(([id, e]) => sentView(id, e))) : null,
    panelOpen && !any ? h('p', { class: 'empty', id: 'challenge-none' }, t('challenge_none')) : null,
    panelOpen ? h('div', { class: 'row challenge-dock-foot' },
      h('button', { class: 'btn btn-small', type: 'button', id: 'challenge-settings-btn', 'data-fkey': 'settings', onclick: () => openSettings(app) }, '⚙ ', t('challenge_settings'))) : null);
  if (focusInside) {
    const again = focused && dock.querySelector(`[data-fkey="${CSS.escape(focused)}"]`);
    if (again && !again.disabled) again.focus();
    else (dock.hidden ? badge : dock.querySelector('button:not([disabled]), a[href]') ?? badge).focus();
  }
}

/** Hide one notice for now (it stays in the badge's list); never an answer. */
function hide(entry) {
  if (!entry) return;
  entry.hidden = true;
  render();
}

/** Close the list opened from the badge; the shown notices are hidden for now too. */
function closePanel(refocus) {
  panelOpen = false;
  // Seen outside a game: hidden for now. Looked at during a game: still shown after it.
  if (!inRunningGame()) for (const entry of [...received.values(), ...sent.values()]) entry.hidden = true;
  render();
  if (refocus) badge.focus();
}

/** Accept or decline challenge `id`. */
async function answer(id, type) {
  const entry = received.get(id);
  if (!entry || entry.sending) return;
  if (type === 'accept_challenge' && inRunningGame()) return;
  entry.sending = true;
  render();
  try {
    await app.conn.send(type, { challenge: id });
    if (type === 'decline_challenge') received.delete(id);
    else entry.answered = true;
  } catch (err) {
    toast(errorText(err), 'error');
    // No longer open (answered elsewhere, lapsed, cancelled): it goes.
    if (err.code === 'invalid' || err.code === 'forbidden') received.delete(id);
  } finally {
    entry.sending = false;
    render();
  }
}

/** Take back challenge `id`. */
async function cancel(id) {
  const entry = sent.get(id);
  if (!entry || entry.sending) return;
  entry.sending = true;
  render();
  try {
    await app.conn.send('cancel_challenge', { challenge: id });
    sent.delete(id);
  } catch (err) {
    toast(errorText(err), 'error');
    if (err.code === 'invalid') sent.delete(id);
  } finally {
    entry.sending = false;
    render();
  }
}

/** The players of `ch` who accepted, as a map. */
function acceptedOf(ch, old) {
  const all = [ch.from, ...ch.to];
  const map = new Map(old ?? []);
  for (const pid of ch.accepted ?? []) map.set(pid, all.find((p) => p.id === pid) ?? { id: pid, name: '?' });
  return map;
}

/** A challenge this player sent (the ack, or `challenge_sent`): its pending line. */
function addSent(ch) {
  const old = sent.get(ch.id);
  sent.set(ch.id, {
    ...old, ch, deadline: Date.now() + (ch.expires_in_ms ?? 60000), accepted: acceptedOf(ch, old?.accepted), hidden: old?.hidden ?? false,
  });
  render();
}

/** A challenge this player was sent: a notice (only the badge while a game runs). */
function addReceived(ch) {
  const old = received.get(ch.id);
  const accepted = acceptedOf(ch, old?.accepted);
  received.set(ch.id, {
    ...old, ch, deadline: Date.now() + (ch.expires_in_ms ?? 60000), accepted,
    answered: old?.answered || accepted.has(app.player?.id), hidden: old?.hidden ?? false,
  });
  // Said to screen readers when it shows; during a game the badge alone tells.
  if (!old && !inRunningGame()) announce(t('challenge_from', { name: ch.from.name }));
  render();
}

/** The room of an accepted challenge: both go straight in (after the game they are in, if any). */
function roomOpened(msg) {
  const entry = received.get(msg.challenge) ?? sent.get(msg.challenge);
  received.delete(msg.challenge);
  sent.delete(msg.challenge);
  const me = app.player?.id;
  const others = entry ? [entry.ch.from, ...entry.ch.to].filter((p) => p.id !== me) : [];
  if (inRunningGame() && app.view?.code !== msg.room) {
    readyRooms.set(msg.challenge, { room: msg.room, seat: msg.seat, names: names(others) });
    render();
    return;
  }
  app.challengeRoom = { room: msg.room, seat: msg.seat };
  render();
  location.hash = `#/room/${msg.room}`;
}

/** A challenge over without a room: gone from the list, and said (quietly during a game). */
function ended(msg) {
  const mine = sent.get(msg.challenge);
  const theirs = received.get(msg.challenge);
  sent.delete(msg.challenge);
  received.delete(msg.challenge);
  render();
  if (!mine && !theirs) return;
  if (msg.by && msg.by.id === app.player?.id) return;
  const text = t(`challenge_${msg.reason}`, { name: msg.by?.name ?? '' });
  if (inRunningGame()) announce(text);
  else toast(text);
}

/** Twice a second: the countdowns, notices held during a game shown after it, the settings. */
function tick() {
  keepSettings(app);
  const now = Date.now();
  // Lapsed here and not yet said by the hall (a lost connection): gone a little after.
  let changed = false;
  for (const map of [received, sent]) {
    for (const [id, entry] of map) {
      if (entry.deadline + 3000 < now) {
        map.delete(id);
        changed = true;
      }
    }
  }
  const busy = inRunningGame();
  if (busy !== wasBusy) {
    wasBusy = busy;
    changed = true;
    // The game is over: the challenges held during it are said now.
    if (!busy && received.size) announce(t('challenge_from', { name: names([...received.values()].map((e) => e.ch.from)) }));
  }
  if (!!app.player === badge.hidden) changed = true;
  if (changed) {
    render();
    return;
  }
  for (const el of dock.querySelectorAll('[data-deadline]')) {
    const text = t('challenge_left', { s: secondsTo(Number(el.dataset.deadline)) });
    if (el.textContent !== text) el.textContent = text;
  }
}

/** Listens for the hall's challenge messages for the whole life of the page. */
export function installChallenges(page) {
  app = page;
  badgeCount = h('span', { class: 'challenge-count', 'aria-hidden': 'true' });
  badge = h('button', {
    class: 'btn btn-ghost btn-small challenge-badge', type: 'button', id: 'challenge-badge', hidden: true,
    'aria-controls': 'challenge-dock', 'aria-expanded': 'false',
    onclick: () => {
      if (panelOpen) {
        closePanel(false);
        return;
      }
      panelOpen = true;
      render();
      dock.querySelector('button:not([disabled]), a[href]')?.focus();
    },
  }, h('span', { class: 'challenge-icon', 'aria-hidden': 'true' }, '⚔'), badgeCount);
  const topbar = document.getElementById('topbar-sound') ?? document.getElementById('lang');
  topbar.before(badge);
  dock = h('section', { class: 'challenge-dock', id: 'challenge-dock', 'aria-label': t('challenges'), hidden: true });
  // Escape hides the notices (and closes the list): a challenge is never answered by it.
  dock.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    e.stopPropagation();
    closePanel(true);
  });
  live = h('div', { class: 'sr-only', id: 'challenge-live', 'aria-live': 'polite' });
  document.body.append(dock, live);
  onLangChange(() => {
    dock.setAttribute('aria-label', t('challenges'));
    render();
  });
  app.conn.onStatus((status) => {
    if (status === 'closed') forgetSettings();
  });
  app.conn.on((msg) => {
    if (msg.type === 'challenge' && msg.challenge) addReceived(msg.challenge);
    else if (msg.type === 'challenge_sent' && msg.challenge) addSent(msg.challenge);
    else if (msg.type === 'challenge_accepted') {
      const entry = received.get(msg.challenge) ?? sent.get(msg.challenge);
      if (entry && msg.player) {
        entry.accepted.set(msg.player.id, msg.player);
        if (msg.player.id === app.player?.id && received.has(msg.challenge)) entry.answered = true;
        render();
      }
    } else if (msg.type === 'challenge_room') roomOpened(msg);
    else if (msg.type === 'challenge_ended') ended(msg);
  });
  setInterval(tick, 500);
}
