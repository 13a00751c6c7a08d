//! The Jungle observation: 9 ranks × 7 files × 16 planes of 0/1, seen by the viewer (the
//! board turned half a turn for yellow, so the viewer's den is always at the bottom).

use hangar_jungle::{Color, FILES, Position, RANKS, Role, SQUARES, Square};

/// Planes per square: the viewer's 8 animals (rat … elephant), then the opponent's.
pub const JUNGLE_CHANNELS: usize = 16;
/// Length of the Jungle observation (ranks × files × planes, in that order).
pub const JUNGLE_OBS: usize = RANKS as usize * FILES as usize * JUNGLE_CHANNELS;

/// A square as `color` sees it: yellow's board is turned half a turn. The observation and
/// the actions (`jungle_env.rs`) share it, so both see the same board.
pub(crate) fn view_square(square: Square, color: Color) -> usize {
    match color {
        Color::Red => square.index(),
        Color::Yellow => SQUARES - 1 - square.index(),
    }
}

/// Writes the observation of `position` from `viewer`'s side into `out[..JUNGLE_OBS]`.
pub(crate) fn write_observation(position: &Position, viewer: Color, out: &mut [u8]) {
    let out = &mut out[..JUNGLE_OBS];
    out.fill(0);
    for role in Role::ALL {
        let own = position.role(role) & position.pieces(viewer);
        let theirs = position.role(role) & position.pieces(viewer.other());
        for (bb, base) in [(own, 0), (theirs, 8)] {
            for sq in bb {
                out[view_square(sq, viewer) * JUNGLE_CHANNELS + base + role.index()] = 1;
            }
        }
    }
}
