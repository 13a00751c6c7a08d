// How to play: the rules of each game and what every room option, item and weather does, in
// Chinese and English (shared/spec/flight.md, shared/spec/jungle.md). The hall and the room show
// the panel; the create-room form and the item buttons use the one-line explanations.

import { h, mount } from './dom.js';
import { currentLang, t } from './i18n.js';

const RULES = {
  zh: {
    how_to_play: '玩法说明',
    flight: [
      ['起飞', '掷骰子，每回合掷一次。掷出 6（或房间选项为“5 或 6 点”时的 5）才能把飞机从机场移到起飞点。'],
      ['奖励', '掷出 6 可以再掷一次，一直到不是 6 为止。'],
      ['前进', '飞机按点数沿自己的路线顺时针前进；走到终点跑道，最后进入中心。所有飞机都到达中心的玩家获胜。'],
      ['跳子', '停在与自己同色的格子上，向前跳到下一个同色格。'],
      ['飞棋', '停在自己颜色的虚线起点，沿虚线飞过对面，落地后还能再跳一次。'],
      ['撞子', '停在敌方飞机所在的格子，把它送回机场（每架 +5 分）。'],
      ['迭子', '同色的几架飞机停在同一格组成迭子，单架飞机经过时吃不掉它。'],
    ],
    jungle: [
      ['目标', '走进对方的兽穴，或吃光对方的棋子即获胜。红方先走。'],
      ['走法', '每次把一枚棋子向前、后、左、右走一格，不能斜走，不能走进自己的兽穴。'],
      ['大小', '象 8 > 狮 7 > 虎 6 > 豹 5 > 狗 4 > 狼 3 > 猫 2 > 鼠 1；大吃小，同级互吃。鼠能吃象（从陆地上），象默认不能吃鼠。棋子上的数字就是等级。'],
      ['河', '只有鼠能下水。水里的鼠和陆上的棋子不能互吃。'],
      ['跳河', '狮和虎可以直线跳过河，落地可以吃子；路线上的水里有鼠时不能跳。'],
      ['陷阱', '走进对方陷阱的棋子等级变为 0，对方任何棋子都能吃它。'],
    ],
    options_title: '房间选项',
    legend_title: '图例',
  },
  en: {
    how_to_play: 'How to play',
    flight: [
      ['Take-off', 'Roll the die once a turn. A 6 (or a 5 too, with the "5 or 6" option) moves a plane from the hangar to its launch pad.'],
      ['Bonus', 'A 6 earns another roll, again and again until the roll is not a 6.'],
      ['Moving', 'A plane walks its roll clockwise along its own route, into its home column and the centre. The first player with every plane in the centre wins.'],
      ['Jump', 'A plane that stops on a square of its own colour jumps ahead to the next one.'],
      ['Shortcut', 'A plane that stops where its colour\'s dashed line starts flies across the board, then jumps once more.'],
      ['Capture', 'Stopping on an enemy plane sends it back to its hangar (+5 points each).'],
      ['Stacks', 'Planes of one colour on one square form a stack: a single plane passing by cannot capture it.'],
    ],
    jungle: [
      ['Goal', 'Enter the opponent\'s den, or capture all of its pieces. Red moves first.'],
      ['Moves', 'Move one piece one square forward, back, left or right: no diagonals, never into your own den.'],
      ['Ranks', 'Elephant 8 > lion 7 > tiger 6 > leopard 5 > dog 4 > wolf 3 > cat 2 > rat 1: a piece captures an equal or lower rank. The rat captures the elephant (from land); the elephant does not capture the rat unless the room says so. The number on each piece is its rank.'],
      ['Water', 'Only rats enter the river. A rat in the water and a piece on land cannot capture each other.'],
      ['Leaps', 'Lions and tigers leap straight across a river and may capture where they land; a rat in the water on the way blocks the leap.'],
      ['Traps', 'A piece on one of the opponent\'s traps has rank 0: any enemy piece may capture it.'],
    ],
    options_title: 'Room options',
    legend_title: 'Legend',
  },
};

/** One line for each room option (the key is the option's field name) and each item or weather. */
const HELP = {
  zh: {
    preset: '传统：经典规则；改进：5 点也能起飞、连续三个 6 回机场、迭子可越过、超过终点即到达。',
    takeoff: '掷出几点才能让飞机离开机场。',
    three_sixes: '同一回合连续掷出三个 6 时：不限制，或送飞机回机场（第三个 6 不走）。',
    stacks: '阻挡：敌方迭子挡住去路，落在迭子上时双方都回机场；可越过：迭子不挡路。',
    finish: '须恰好，多余折返：点数多出的格数从终点往回走；超过即到达：够到终点就算到达；须恰好，否则不能走：点数多了不能走这架飞机；中心环形跑道：绕中心小圈，正好停在自己的终点才算到达。',
    planes: '每位玩家的飞机数量，少则对局更短。',
    teams: '对面的两位玩家一队，同队的飞机互不攻击，一起获胜。',
    play_on: '第一名产生后继续，直到排出全部名次。',
    items: '棋盘上会出现道具（🎲 6 点骰、🚀 动力装置），飞机停在上面就拾取，在自己回合掷骰前使用。',
    weather: '随机出现一个天气格，持续 3 轮：⛈ 雷暴——走到这里停下；🌬 顺风——多走 3 格；🌪 逆风——少走 2 格。',
    turn_seconds: '每步的思考时间，超时由系统托管。',
    stake: '赢家从输家那里获得的积分。',
    room_level: '只有达到这个级别的玩家才能入座。',
    order: '狗和狼谁大：标准为狗 4 狼 3，另一种为狼 4 狗 3。',
    leopard_leaps: '豹也可以横向跳过河（与狮虎同样的条件）。',
    elephant_takes_rat: '象也能吃鼠。',
    item_six_die: '6 点骰：本次掷骰直接是 6。',
    item_booster: '动力装置：立即掷骰，走的飞机前进双倍点数。',
    weather_storm: '雷暴：走到这一格就停下，不跳子。',
    weather_tailwind: '顺风：额外前进 3 格。',
    weather_headwind: '逆风：少走 2 格。',
  },
  en: {
    preset: 'Traditional: the classic rules. Improved: take off on a 5 too, three sixes send planes home, stacks can be passed, any roll that reaches the finish finishes.',
    takeoff: 'Which rolls let a plane leave the hangar.',
    three_sixes: 'A third 6 in a row: no limit, or the planes go back to the hangar (the third 6 is not moved).',
    stacks: 'Block: an enemy stack bars the way, and landing on it sends both back to their hangars. Pass: stacks do not block.',
    finish: 'Exact, bounce back: the extra pips walk back from the finish. Any roll that reaches: reaching the finish is enough. Exact only: a roll too large cannot move that plane. Centre loop: planes circle the centre until they land exactly on their own finish.',
    planes: 'Planes per player: fewer make a shorter game.',
    teams: 'Players sitting opposite form a team: they never capture each other and win together.',
    play_on: 'Keep playing after the winner until every rank is decided.',
    items: 'Items appear on the board (🎲 six die, 🚀 booster). A plane stopping on one picks it up; use it on your turn before rolling.',
    weather: 'A weather square appears for 3 rounds: ⛈ storm stops the walk there, 🌬 tailwind adds 3 squares, 🌪 headwind takes 2 away.',
    turn_seconds: 'Time for each decision; when it runs out, auto-play moves for you.',
    stake: 'Points the winners take from the losers.',
    room_level: 'Only players of this level or higher can sit down.',
    order: 'Dog or wolf higher: standard is dog 4, wolf 3; the variant swaps them.',
    leopard_leaps: 'The leopard may leap across a river sideways too, like the lion and tiger.',
    elephant_takes_rat: 'The elephant may capture the rat.',
    item_six_die: 'Six die: this roll is a 6.',
    item_booster: 'Booster: the die is thrown at once and the moved plane walks twice the roll.',
    weather_storm: 'Storm: a walk that reaches this square stops on it, with no jump.',
    weather_tailwind: 'Tailwind: 3 extra squares forward.',
    weather_headwind: 'Headwind: the walk ends 2 squares short.',
  },
};

/** The options each game's panel explains, in the order of the create-room form. */
const OPTIONS = {
  flight: ['preset', 'takeoff', 'three_sixes', 'stacks', 'finish', 'planes', 'teams', 'play_on', 'items', 'weather', 'turn_seconds', 'stake'],
  jungle: ['room_level', 'order', 'leopard_leaps', 'elephant_takes_rat', 'turn_seconds'],
};

const LEGEND = {
  flight: [['🎲', 'item_six_die'], ['🚀', 'item_booster'], ['⛈', 'weather_storm'], ['🌬', 'weather_tailwind'], ['🌪', 'weather_headwind']],
  jungle: [],
};

/** Both languages' tables, for the test that keeps them complete. */
export const RULE_TABLES = { RULES, HELP };

/** The one-line explanation of a room option, item (`item_booster`) or weather (`weather_storm`). */
export function optionHelp(key) {
  return HELP[currentLang()]?.[key] ?? HELP.en[key] ?? '';
}

/**
 * The "How to play" panel of `game` ('flight' or 'jungle'): the rules, every room option and
 * the board's legend. The element stays the same across language switches (`refresh`), so a
 * panel the player opened stays open when the page redraws around it.
 */
export class RulesPanel {
  constructor(game) {
    this.game = game;
    this.el = h('details', { class: 'card rules', id: `rules-${game}`, 'data-game': game });
    this.lang = null;
    this.refresh();
  }

  /** Rewrite the panel in the current language (nothing to do when it already is). */
  refresh() {
    const lang = currentLang();
    if (lang === this.lang) return;
    this.lang = lang;
    const text = RULES[lang] || RULES.en;
    const help = HELP[lang] || HELP.en;
    const legend = LEGEND[this.game];
    // `mount` leaves out the absent legend (`replaceChildren` would write "null").
    mount(this.el,
      h('summary', { class: 'rules-summary' }, '📖 ', text.how_to_play),
      h('dl', { class: 'rules-list' }, text[this.game].flatMap(([term, line]) => [h('dt', {}, term), h('dd', {}, line)])),
      h('h3', {}, text.options_title),
      h('dl', { class: 'rules-list rules-options' }, OPTIONS[this.game].flatMap((key) => [
        h('dt', { 'data-option': key }, t(key)), h('dd', {}, help[key])])),
      legend.length ? h('h3', {}, text.legend_title) : null,
      legend.length ? h('ul', { class: 'rules-legend' }, legend.map(([glyph, key]) => h('li', {}, h('span', { 'aria-hidden': 'true' }, glyph, ' '), help[key]))) : null,
    );
  }
}
