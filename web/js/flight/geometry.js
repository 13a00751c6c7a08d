// The Aeroplane Chess board geometry (shared/spec/flight.md §1, F-BOARD), as pure functions.
//
// Board units: the board is a 15 × 15 grid centred on (0, 0), x to the right, y DOWN (SVG).
// Four arms: red's at the bottom, yellow's at the left, blue's at the top, green's at the
// right; the track runs clockwise on screen (left arm → top arm → right arm → bottom arm).
// Each arm has a tip row of five squares, three squares down each side, and between two arms
// a diagonal corner of two squares: 1 + 2 + 3 + 2 + 3 + 2 = 13 squares per colour, 52 in all.
// Track square 13·a is the tip middle of arm a (colour a's turn-in square, progress 50), so
// progress p of seat k is square (13k + 2 + p) mod 52, the colour's shortcut runs from
// progress 18 (square 13k+20, a corner square) straight across the opposite arm to progress 30
// (square 13k+32, the mirror corner square), crossing the opposite home column at its third
// square (progress 53), exactly as the spec requires. This module has no DOM: it is tested
// under node (tests/e2e/geometry.test.mjs).

/** Colour names in seating order (seat index = colour index: red 0, yellow 1, blue 2, green 3). */
export const COLOURS = ['red', 'yellow', 'blue', 'green'];

/** Number of squares on the outer track. */
export const TRACK_LEN = 52;

/** Last track progress: the turn-in square. */
export const TURN_IN = 50;

/** Progress of a finished plane. */
export const FINISH = 56;

/** The shortcut (飞棋) of every colour: from this progress… */
export const FLY_FROM = 18;
/** …to this progress. */
export const FLY_TO = 30;
/** The opposite colour's progress where the line crosses its home column. */
export const CROSS_PROGRESS = 53;

// Squares of the segment that starts at the tip of the top arm (arm index 2, blue), in board
// units with y down. The other segments are this one rotated by multiples of 90°.
const TOP_SEGMENT = [
  [0, -7], // 0: tip middle (turn-in square of the arm's colour)
  [1, -7], // 1, 2: the rest of the tip row
  [2, -7],
  [2, -6], // 3, 4, 5: down the right side of the top arm
  [2, -5],
  [2, -4],
  [3, -4], // 6, 7: the diagonal corner between the top and the right arm
  [4, -3],
  [4, -2], // 8, 9, 10: along the top side of the right arm, outwards
  [5, -2],
  [6, -2],
  [7, -2], // 11, 12: the right arm's tip row, up to its middle (next segment)
  [7, -1],
];

// Rotating a point of the top arm clockwise by 90° on screen (y down): (x, y) → (−y, x).
function rotateClockwise([x, y], quarterTurns) {
  let p = [x, y];
  for (let i = 0; i < ((quarterTurns % 4) + 4) % 4; i += 1) p = [-p[1], p[0]];
  return p;
}

// Arm a sits (a − 2) quarter turns clockwise from the top arm (blue, arm 2).
function fromTopArm(point, arm) {
  const [x, y] = rotateClockwise(point, arm - 2);
  return { x: x === 0 ? 0 : x, y: y === 0 ? 0 : y };
}

/** Centre of outer-track square `square` (0..51). */
export function trackSquare(square) {
  const s = ((square % TRACK_LEN) + TRACK_LEN) % TRACK_LEN;
  return fromTopArm(TOP_SEGMENT[s % 13], Math.floor(s / 13));
}

/** The seat (colour index) whose colour square `square` has: colours repeat every 4. */
export function squareColour(square) {
  return ((square % 4) + 4) % 4;
}

/** The track square of progress `p` (1..=50) for seat `k`: (13k + 2 + p) mod 52. */
export function squareOf(seat, progress) {
  return (13 * seat + 2 + progress) % TRACK_LEN;
}

/** Centre of home-column square `index` (1..5, progress 50 + index) of `seat`. */
export function homeSquare(seat, index) {
  return fromTopArm([0, -7 + index], seat);
}

/** Centre of the finish (centre triangle) of `seat`. */
export function finishSquare(seat) {
  return fromTopArm([0, -0.95], seat);
}

/** Centre of `seat`'s launch pad (progress 0), in its hangar corner next to its first square. */
export function launchPad(seat) {
  // Seat k's first square (progress 1) is square 13k+3: the top arm's (2, −6) rotated.
  return fromTopArm([3.1, -6.9], seat);
}

/** Centre of `seat`'s hangar (the corner after its own arm, clockwise). */
export function hangarCentre(seat) {
  return fromTopArm([5.25, -5.25], seat);
}

/** Centre of plane `plane` (0..3) parked in `seat`'s hangar. */
export function hangarSlot(seat, plane) {
  const c = hangarCentre(seat);
  const dx = plane % 2 === 0 ? -0.8 : 0.8;
  const dy = plane < 2 ? -0.8 : 0.8;
  return { x: c.x + dx, y: c.y + dy };
}

/**
 * Centre of the loop square of `seat` in the centre (finish `circle`, progress 57..60 names the
 * loop square of red, yellow, blue, green): the finish triangles themselves.
 */
export function loopSquare(colour) {
  return finishSquare(colour);
}

/**
 * Where a plane of `seat` with `progress` stands: null = in the hangar (pass `plane` for its
 * slot), 0 launch pad, 1..50 track, 51..55 home column, 56 finish, 57..60 the centre loop.
 */
export function planePosition(seat, progress, plane = 0) {
  if (progress === null || progress === undefined) return hangarSlot(seat, plane);
  if (progress === 0) return launchPad(seat);
  if (progress >= 1 && progress <= TURN_IN) return trackSquare(squareOf(seat, progress));
  if (progress > TURN_IN && progress < FINISH) return homeSquare(seat, progress - TURN_IN);
  if (progress === FINISH) return finishSquare(seat);
  if (progress >= 57 && progress <= 60) return loopSquare(progress - 57);
  throw new RangeError(`no such progress: ${progress}`);
}

/** A key naming the spot a plane occupies, so planes on one spot can be stacked. */
export function spotKey(seat, progress, plane = 0) {
  if (progress === null || progress === undefined) return `hangar:${seat}:${plane}`;
  if (progress === 0) return `pad:${seat}`;
  if (progress <= TURN_IN) return `track:${squareOf(seat, progress)}`;
  if (progress < FINISH) return `home:${seat}:${progress}`;
  if (progress === FINISH) return `finish:${seat}`;
  return `loop:${progress - 57}`;
}

/** The shortcut of `seat`: its two ends and the crossing square, as points. */
export function shortcut(seat) {
  const opposite = (seat + 2) % 4;
  return {
    from: planePosition(seat, FLY_FROM),
    to: planePosition(seat, FLY_TO),
    cross: planePosition(opposite, CROSS_PROGRESS),
  };
}

/**
 * The points a plane passes through walking from progress `from` to progress `to` one square
 * at a time (both ends included). A walk that turns back (a bounce) is given as two calls.
 */
export function walkPath(seat, from, to) {
  const points = [];
  const step = to >= from ? 1 : -1;
  for (let p = from; p !== to + step; p += step) points.push(planePosition(seat, p));
  return points;
}
