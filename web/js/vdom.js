// Views as functions from state to virtual nodes, patched onto the page by snabbdom (vendored in
// web/vendor/snabbdom/). A redraw changes only what differs: a button pressed while the room
// is redrawn stays the same element, so the click lands and the keyboard focus stays on it.

import { init } from '../vendor/snabbdom/init.js';
import { h as vnode } from '../vendor/snabbdom/h.js';
import { attributesModule } from '../vendor/snabbdom/modules/attributes.js';
import { propsModule } from '../vendor/snabbdom/modules/props.js';
import { styleModule } from '../vendor/snabbdom/modules/style.js';
import { datasetModule } from '../vendor/snabbdom/modules/dataset.js';
import { eventListenersModule } from '../vendor/snabbdom/modules/eventlisteners.js';

/** `patch(old, next)`: bring the page from vnode (or element) `old` to vnode `next`. */
export const patch = init([attributesModule, propsModule, styleModule, datasetModule, eventListenersModule]);

/** What the user changes in place: set as properties, so that the drawing wins only when it changes. */
const PROPS = new Set(['value', 'checked', 'selected']);

/**
 * A virtual element, with `dom.js` `h`'s calling convention: v('button', {class, onclick}, 'text', child…).
 * `id` goes into the selector, so that an element with an id is only ever patched into itself;
 * `key` and `hook` are snabbdom's. Null, undefined and false children are left out.
 */
export function v(tag, attrs, ...children) {
  const data = {};
  let sel = tag;
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined) continue;
    if (key === 'id') sel += `#${value}`;
    else if (key === 'key' || key === 'hook' || key === 'dataset') data[key] = value;
    else if (key === 'style' && typeof value === 'object') data.style = value;
    else if (key.startsWith('on') && typeof value === 'function') (data.on ??= {})[key.slice(2)] = value;
    else if (PROPS.has(key)) (data.props ??= {})[key] = value;
    else (data.attrs ??= {})[key] = typeof value === 'boolean' ? value : String(value);
  }
  const kids = children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false);
  // One text child is the element's text (snabbdom then sets `textContent`).
  if (kids.length === 1 && typeof kids[0] !== 'object') return vnode(sel, data, String(kids[0]));
  return vnode(sel, data, kids.map((c) => (typeof c === 'object' ? c : String(c))));
}

const keys = new WeakMap();
let nextKey = 0;

/**
 * A place in a drawing for an element that lives across redraws and is changed in place by its
 * own code (the board SVG, the die, the game log, the move list): patching it would add nothing,
 * and it keeps its animations and scroll position. A `display: contents` wrapper holds it.
 */
export function keep(el) {
  if (!keys.has(el)) keys.set(el, `keep-${nextKey += 1}`);
  const put = (node) => {
    if (node.elm.firstChild !== el || node.elm.childNodes.length !== 1) node.elm.replaceChildren(el);
  };
  return vnode('div.keep', { key: keys.get(el), hook: { create: (_, node) => put(node), postpatch: (_, node) => put(node) } });
}
