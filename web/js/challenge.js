// Challenges and bot accounts on the page (P-CHALLENGE, P-BOT-ACCOUNT): the mark of a bot
// account, the "Challenge" button with its small form, and incoming challenges as a dialog
// with accept / decline and the seconds left. Installed once (`installChallenges`); views
// only draw buttons and marks.

import { h, mount, toast } from './dom.js';
import { t } from './i18n.js';
import { errorText } from './errors.js';

/** Flight table sizes a challenge may ask for, and the hall bot levels for the extra seats. */
const FLIGHT_SEATS = [2, 3, 4];
const FLIGHT_BOTS = ['random', 'heuristic', 'hard'];

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
 * for a guest (only accounts can be challenged).
 */
export function challengeButton(app, player, game = 'jungle') {
  if (!app.player || !player || player.id === app.player.id || player.guest) return null;
  return h('button', {
    class: 'btn btn-small challenge-btn', type: 'button', 'data-player': player.id,
    'aria-label': t('challenge_who', { name: player.name }),
    onclick: () => openForm(app, player, game),
  }, '⚔ ', t('challenge'));
}

/** A modal dialog box with a heading; returns the overlay (appended to the page). */
function dialog(id, title, ...body) {
  document.getElementById(id)?.remove();
  const overlay = h('div', { class: 'result-overlay challenge-overlay', id, role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': `${id}-title` },
    h('div', { class: 'result-card card' }, h('h2', { id: `${id}-title` }, title), ...body));
  overlay.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') overlay.remove();
  });
  document.body.append(overlay);
  overlay.querySelector('select, button')?.focus();
  return overlay;
}

/** The form: which game, and for flight how many seats and which bots fill the others. */
function openForm(app, player, game) {
  const gameSel = h('select', { name: 'game', id: 'challenge-game' },
    ['jungle', 'flight'].map((g) => h('option', { value: g, selected: g === game }, t(g))));
  const seatSel = h('select', { name: 'seats', id: 'challenge-seats' },
    FLIGHT_SEATS.map((n) => h('option', { value: n }, String(n))));
  const botSel = h('select', { name: 'bot', id: 'challenge-bot' },
    FLIGHT_BOTS.map((b) => h('option', { value: b, selected: b === 'heuristic' }, t(`bot_${b}`))));
  const flightBox = h('div', { class: 'challenge-flight' },
    h('label', { for: 'challenge-seats' }, t('seats')), seatSel,
    h('label', { for: 'challenge-bot' }, t('challenge_bots')), botSel);
  const showFlight = () => { flightBox.hidden = gameSel.value !== 'flight'; };
  gameSel.addEventListener('change', showFlight);
  showFlight();
  const overlay = dialog('challenge-form', t('challenge_who', { name: player.name }),
    h('form', {
      class: 'challenge-fields',
      onsubmit: async (e) => {
        e.preventDefault();
        const fields = { player: player.id, game: gameSel.value };
        if (gameSel.value === 'flight') {
          const extra = Number(seatSel.value) - 2;
          fields.seats = Array.from({ length: extra }, () => ({ bot: botSel.value }));
        }
        try {
          const { challenge } = await app.conn.send('challenge', fields);
          overlay.remove();
          outgoing(app, challenge);
        } catch (err) {
          toast(errorText(err), 'error');
        }
      },
    },
    h('label', { for: 'challenge-game' }, t('challenge_game')), gameSel,
    flightBox,
    h('div', { class: 'row' },
      h('button', { class: 'btn btn-primary', type: 'submit', id: 'challenge-send' }, t('challenge_send')),
      h('button', { class: 'btn btn-ghost', type: 'button', onclick: () => overlay.remove() }, t('cancel')))));
}

/** Challenges this page sent, by id, and those it was sent (each with its dialog). */
const sent = new Map();
const received = new Map();

/** The challenge just sent: a line saying so, with a way to take it back. */
function outgoing(app, challenge) {
  sent.set(challenge.id, challenge);
  toast(t('challenge_sent', { name: challenge.to.map((p) => p.name).join(', ') }));
}

/** An incoming challenge: who, which game, the seconds left, accept or decline. */
function incoming(app, challenge) {
  const deadline = Date.now() + challenge.expires_in_ms;
  const left = h('span', { class: 'challenge-left', id: `challenge-left-${challenge.id}` });
  const tick = () => {
    const s = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    mount(left, t('challenge_left', { s }));
    if (s === 0) close();
  };
  const timer = setInterval(tick, 500);
  const answer = async (type) => {
    try {
      await app.conn.send(type, { challenge: challenge.id });
      if (type === 'decline_challenge') close();
      else mount(left, t('challenge_accepted'));
    } catch (err) {
      toast(errorText(err), 'error');
      close();
    }
  };
  const others = challenge.to.filter((p) => p.id !== app.player?.id);
  const overlay = dialog(`challenge-${challenge.id}`, t('challenge_from', { name: challenge.from.name }),
    h('p', { class: 'challenge-what' }, challenge.game === 'flight' ? '✈ ' : '🐘 ', t(challenge.game),
      challenge.game === 'flight' ? ` · ${t('seats')} ${challenge.options?.seats ?? ''}` : '',
      botMark(challenge.from)),
    others.length ? h('p', {}, t('challenge_with', { names: others.map((p) => p.name).join(', ') })) : null,
    h('p', { 'aria-live': 'off' }, left),
    h('div', { class: 'row' },
      h('button', { class: 'btn btn-primary', type: 'button', id: 'challenge-accept', onclick: () => answer('accept_challenge') }, t('accept')),
      h('button', { class: 'btn', type: 'button', id: 'challenge-decline', onclick: () => answer('decline_challenge') }, t('decline'))));
  overlay.classList.add('challenge-incoming');
  overlay.dataset.challenge = challenge.id;
  function close() {
    clearInterval(timer);
    overlay.remove();
    received.delete(challenge.id);
  }
  received.set(challenge.id, close);
  tick();
}

/** Listens for the hall's challenge messages for the whole life of the page. */
export function installChallenges(app) {
  app.conn.on((msg) => {
    if (msg.type === 'challenge' && msg.challenge) {
      if (!received.has(msg.challenge.id)) incoming(app, msg.challenge);
    } else if (msg.type === 'challenge_room') {
      received.get(msg.challenge)?.();
      sent.delete(msg.challenge);
      location.hash = `#/room/${msg.room}`;
    } else if (msg.type === 'challenge_ended') {
      received.get(msg.challenge)?.();
      const mine = sent.delete(msg.challenge);
      if (mine || msg.by?.id !== app.player?.id) toast(t(`challenge_${msg.reason}`, { name: msg.by?.name ?? '' }));
    }
  });
}
