// Who may challenge the player, and whom they blocked (P-CHALLENGE): the settings as the hall
// answers them (`challenge_settings`, loaded after each sign-in), the settings dialog, the
// Block / Unblock button of another player's profile, and the test that hides a blocked
// player's chat lines.

import { h, mount, toast } from './dom.js';
import { t } from './i18n.js';
import { errorText } from './errors.js';
import { openDialog } from './focusdialog.js';

const POLICIES = ['everyone', 'registered', 'nobody'];

/** Called after every change of the settings. */
const listeners = new Set();

/** The player whose settings are loaded (null: none yet), and a load under way. */
let loadedFor = null;
let loading = null;

/** Take the hall's answer `{challenges, blocked}` as the settings now, and tell the page. */
function take(app, settings) {
  app.challengeSettings = settings;
  for (const fn of [...listeners]) fn(settings);
  // A room shows its chat again, without the lines of whom the player blocked.
  app.view?.redraw?.();
}

/** Ask the hall for the settings of the signed-in player (again after each sign-in). */
export async function loadSettings(app) {
  const me = app.player?.id;
  if (!me) return null;
  if (loading) return loading;
  loading = app.conn.send('challenge_settings')
    .then((settings) => {
      loadedFor = me;
      take(app, settings);
      return settings;
    })
    // Not to be had now: asked again after the next reconnection, not in a loop.
    .catch(() => { loadedFor = me; return null; })
    .finally(() => { loading = null; });
  return loading;
}

/** Load the settings when the signed-in player changed (or the connection came back). */
export function keepSettings(app) {
  if (app.player && loadedFor !== app.player.id && !loading) loadSettings(app);
  if (!app.player && app.challengeSettings) {
    loadedFor = null;
    app.challengeSettings = null;
  }
}

/** After a reconnection the settings are asked again (another tab may have changed them). */
export function forgetSettings() {
  loadedFor = null;
}

/** Send a settings command (`set_challenge_policy`, `block`, `unblock`); the new settings. */
async function change(app, type, fields) {
  try {
    const settings = await app.conn.send(type, fields);
    take(app, settings);
    return settings;
  } catch (err) {
    toast(errorText(err), 'error');
    return null;
  }
}

/** Whether `playerId` is on the player's block list. */
export function isBlocked(app, playerId) {
  return !!app.challengeSettings?.blocked?.some((p) => p.id === playerId);
}

/**
 * Whether the chat `line` of a room (`{seat, name}`) comes from a blocked player: the player
 * in its seat, or for a watcher's line (no seat) a blocked player of that name.
 */
export function chatHidden(app, state, line) {
  const blocked = app.challengeSettings?.blocked;
  if (!blocked?.length || !line) return false;
  const seated = line.seat !== null && line.seat !== undefined ? state?.seats?.[line.seat]?.player : null;
  if (seated && seated.name === line.name) return blocked.some((p) => p.id === seated.id);
  return blocked.some((p) => p.name === line.name);
}

/** The settings dialog's content: who may challenge, and the block list with Unblock. */
function settingsBody(app) {
  const settings = app.challengeSettings ?? { challenges: 'everyone', blocked: [] };
  const radios = POLICIES.map((policy) => h('label', { class: 'policy-option' },
    h('input', {
      type: 'radio', name: 'challenge-policy', value: policy, id: `policy-${policy}`,
      checked: settings.challenges === policy,
      onchange: async () => {
        await change(app, 'set_challenge_policy', { challenges: policy });
        document.getElementById(`policy-${app.challengeSettings?.challenges ?? policy}`)?.focus();
      },
    }),
    ' ', t(`challenge_policy_${policy}`)));
  const blocked = settings.blocked ?? [];
  return [
    h('fieldset', { class: 'challenge-policy', id: 'challenge-policy' },
      h('legend', {}, t('challenge_policy')), radios),
    h('h3', { id: 'blocked-title' }, t('blocked_players')),
    blocked.length
      ? h('ul', { class: 'blocked-list', id: 'blocked-list', 'aria-labelledby': 'blocked-title' }, blocked.map((p) => h('li', { 'data-player': p.id },
        h('a', { href: `#/player/${p.id}`, class: 'blocked-name' }, p.name),
        h('button', {
          class: 'btn btn-small unblock-btn', type: 'button', 'data-player': p.id,
          'aria-label': t('unblock_who', { name: p.name }),
          onclick: async () => {
            if (await change(app, 'unblock', { player: p.id })) toast(t('unblocked_done', { name: p.name }));
            document.querySelector('#challenge-settings .unblock-btn, #challenge-settings input:checked')?.focus();
          },
        }, t('unblock')))))
      : h('p', { class: 'empty', id: 'blocked-none' }, t('blocked_none')),
    h('div', { class: 'row' }, h('button', { class: 'btn', type: 'button', id: 'challenge-settings-close', onclick: () => document.getElementById('challenge-settings')?.close() }, t('close'))),
  ];
}

/** The settings dialog (from the player's own profile or the challenge list). */
export async function openSettings(app) {
  const body = h('div', { class: 'challenge-settings-body' }, t('loading'));
  const redraw = () => {
    if (!body.isConnected) {
      listeners.delete(redraw);
      return;
    }
    mount(body, settingsBody(app));
  };
  listeners.add(redraw);
  openDialog('challenge-settings', t('challenge_settings'), body, { onClose: () => listeners.delete(redraw) });
  if (app.challengeSettings) redraw();
  await loadSettings(app);
  // The keyboard goes to the chosen policy once it shows.
  document.querySelector('#challenge-settings input:checked')?.focus();
}

/** The button that opens the settings (the player's own profile). */
export function settingsButton(app) {
  if (!app.player) return null;
  return h('button', { class: 'btn btn-small', type: 'button', id: 'open-challenge-settings', onclick: () => openSettings(app) }, '⚙ ', t('challenge_settings'));
}

/** Asks before blocking `player`; blocks on yes. */
function confirmBlock(app, player, slot) {
  const overlay = openDialog('block-confirm', t('block_who', { name: player.name }), [
    h('p', {}, t('block_explain', { name: player.name })),
    h('div', { class: 'row' },
      h('button', {
        class: 'btn btn-danger', type: 'button', id: 'block-yes',
        onclick: async () => {
          const done = await change(app, 'block', { player: player.id });
          // The profile's button was drawn again (now Unblock): the keyboard goes back to it.
          overlay.close({ refocus: false });
          slot.querySelector('button')?.focus();
          if (done) toast(t('blocked_done', { name: player.name }));
        },
      }, t('block')),
      h('button', { class: 'btn', type: 'button', id: 'block-no', onclick: () => overlay.close() }, t('cancel'))),
  ], { focus: '#block-no' });
}

/**
 * Block / Unblock for another player's profile (a signed-in viewer only); follows the
 * settings as they change.
 */
export function blockButton(app, player) {
  if (!app.player || !player || player.id === app.player.id) return null;
  const slot = h('span', { class: 'block-slot' });
  const draw = () => {
    if (!slot.isConnected && slot.dataset.drawn) {
      listeners.delete(draw);
      return;
    }
    slot.dataset.drawn = '1';
    const refocus = slot.contains(document.activeElement);
    const blocked = isBlocked(app, player.id);
    mount(slot, h('button', {
      class: `btn btn-small ${blocked ? 'unblock-btn' : 'block-btn'}`, type: 'button', 'data-player': player.id,
      'aria-label': t(blocked ? 'unblock_who' : 'block_who_label', { name: player.name }),
      onclick: async () => {
        if (!isBlocked(app, player.id)) {
          confirmBlock(app, player, slot);
        } else if (await change(app, 'unblock', { player: player.id })) {
          toast(t('unblocked_done', { name: player.name }));
        }
      },
    }, blocked ? t('unblock') : `🚫 ${t('block')}`));
    if (refocus) slot.querySelector('button').focus();
  };
  listeners.add(draw);
  draw();
  return slot;
}
