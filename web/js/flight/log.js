// The flight game log in words: one localised line per engine event of a `moved` room event
// (docs/flight-json.md, "Events"), saying who did what with which plane and where it went.

import { t } from '../i18n.js';

const WEATHER_ICON = { storm: '⛈', tailwind: '🌬', headwind: '🌪' };
const ITEM_ICON = { six_die: '🎲', booster: '🚀' };

/**
 * Effects said elsewhere or not worth a line: the roll (the `rolled` room event says it, with
 * the item that gave it), the item use (said with that roll), the next turn (the turn line),
 * and the end (the result dialog).
 */
export const SILENT_EFFECTS = ['rolled', 'item_used', 'turn', 'game_over'];

/** Where progress `p` (along the plane's own route) is, in words. */
export function placeName(p) {
  if (p === null || p === undefined || p < 0) return t('where_hangar');
  if (p === 0) return t('where_pad');
  if (p === 56) return t('where_home');
  if (p > 56) return t('where_loop', { n: p - 56 });
  if (p > 50) return t('where_column', { n: p - 50 });
  return t('where_step', { n: p });
}

function itemName(item) {
  return `${ITEM_ICON[item] || '🎁'} ${t(`item_${item}`)}`;
}

function weatherName(weather) {
  return `${WEATHER_ICON[weather] || ''} ${t(`weather_${weather}_name`)}`.trim();
}

/**
 * The line for one engine event, or null when it has none (`SILENT_EFFECTS`). `names` says
 * who plays a colour: `names.who(colour)` the subject ("Ana", "You"), `names.whose(colour)`
 * the owner ("Ana's", "your").
 */
export function effectLine(e, names) {
  const kind = e.type || e.kind;
  const n = (e.plane ?? 0) + 1;
  const name = names.who(e.colour);
  switch (kind) {
    case 'took_off': return `🛫 ${t('log_took_off', { name, n })}`;
    case 'walked': return t('log_walked', { name, n, to: placeName(e.to) });
    case 'bounced': return `↩ ${t('log_bounced', { name, n, to: placeName(e.to) })}`;
    case 'turned_back': return `↩ ${t('log_turned_back', { name, n, to: placeName(e.to) })}`;
    case 'jumped': return `⤴ ${t('log_jumped', { name, n, to: placeName(e.to) })}`;
    case 'flew': return `✈ ${t('log_flew', { name, n, to: placeName(e.to) })}`;
    case 'crossing_capture':
      return `💥 ${t('log_crossing_capture', { by: names.who(e.by), owner: names.whose(e.colour), n })}`;
    case 'crossing_blocked': return t('log_crossing_blocked', { name, n });
    case 'captured': return `💥 ${t('log_captured', { by: names.who(e.by), owner: names.whose(e.colour), n })}`;
    case 'returned':
      return t(e.reason === 'three_sixes' ? 'log_returned_three_sixes' : 'log_returned_collision', { name, n });
    case 'stacked': return t('log_stacked', { name, n, at: placeName(e.at), height: e.height });
    case 'sat_on_stack': return t('log_sat_on_stack', { name, n, at: placeName(e.at) });
    case 'forced_move': return t('log_forced_move', { name, n });
    case 'finished': return `🏁 ${t('log_finished', { name, n })}`;
    case 'three_sixes': return `⚠ ${t('log_three_sixes', { name })}`;
    case 'roll_spent': return t('log_roll_spent', { name, value: e.value });
    case 'bonus_roll': return `🎲 ${t('log_bonus_roll', { name })}`;
    case 'player_done': return `🏆 ${t('log_player_done', { name, rank: e.rank })}`;
    case 'resigned': return `🏳 ${t('log_resigned', { name })}`;
    case 'item_appeared': return t('log_item_appeared', { item: itemName(e.item), at: t('where_track', { n: e.square }) });
    case 'item_picked':
      return t(e.kept === false ? 'log_item_lost' : 'log_item_picked', { name, n, item: itemName(e.item) });
    case 'weather_appeared':
      return t('log_weather_appeared', { weather: weatherName(e.weather), at: t('where_track', { n: e.square }) });
    case 'weather_cleared': return t('log_weather_cleared', { weather: weatherName(e.weather) });
    case 'weather_felt': return t('log_weather_felt', { name, n, weather: weatherName(e.weather) });
    case 'blown_back': return `🌪 ${t('log_blown_back', { name, n, to: placeName(e.to) })}`;
    default: return null;
  }
}

/** The lines of a `moved` event's effects, in order. */
export function effectLines(effects, names) {
  return (effects || []).map((e) => effectLine(e, names)).filter((line) => line !== null);
}

/** The line of a `rolled` room event: who rolled what (and with which item). */
export function rollLine(ev, name) {
  const line = t('rolled', { name, n: ev.value });
  return ev.item ? `${itemName(ev.item)} · ${line}` : `🎲 ${line}`;
}
