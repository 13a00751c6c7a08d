"""RGB pictures of both games for `render_mode="rgb_array"` (numpy only, no drawing library)."""

import numpy as np

COLOURS = {
    "red": (210, 50, 50),
    "yellow": (230, 190, 40),
    "blue": (50, 90, 210),
    "green": (40, 160, 70),
}
CELL = 8


def flight_rgb(core):
    """A progress chart: one band of four rows per colour (red, yellow, blue, green), one
    column per place on the route (hangar, pad, track 1–50, home column 51–55, finish 56,
    loop 57–60); each plane is a cell of its colour."""
    planes = core.planes()
    columns = 62
    image = np.full((16 * CELL, columns * CELL, 3), 235, dtype=np.uint8)
    for c, (name, rgb) in enumerate(COLOURS.items()):
        band = image[4 * c * CELL : 4 * (c + 1) * CELL]
        band[:, :, :] = 215 if c % 2 else 235
        for i, progress in enumerate(planes[c]):
            column = int(progress) + 1
            y, x = i * CELL, column * CELL
            band[y + 1 : y + CELL - 1, x + 1 : x + CELL - 1] = rgb
    return image


JUNGLE_CELL = 24
LAND, WATER, TRAP, DEN = (120, 180, 90), (70, 130, 210), (150, 110, 70), (60, 40, 30)
WATER_SQUARES = {(f, r) for f in (1, 2, 4, 5) for r in (3, 4, 5)}
TRAP_SQUARES = {(2, 0), (4, 0), (3, 1), (2, 8), (4, 8), (3, 7)}
DEN_SQUARES = {(3, 0), (3, 8)}
ROLES = "RCWDPTLE"  # rat … elephant, as in the position text


def jungle_rgb(core):
    """The 9 × 7 board, rank 9 at the top: terrain, and each animal as a square of its side's
    colour (red or yellow), larger for stronger animals."""
    board = core.board()
    h, w = 9 * JUNGLE_CELL, 7 * JUNGLE_CELL
    image = np.zeros((h, w, 3), dtype=np.uint8)
    for index, letter in enumerate(board):
        file, rank = index % 7, index // 7
        y, x = (8 - rank) * JUNGLE_CELL, file * JUNGLE_CELL
        square = (file, rank)
        terrain = (
            DEN if square in DEN_SQUARES else TRAP if square in TRAP_SQUARES
            else WATER if square in WATER_SQUARES else LAND
        )
        image[y : y + JUNGLE_CELL, x : x + JUNGLE_CELL] = terrain
        image[y, x : x + JUNGLE_CELL] = 40
        image[y : y + JUNGLE_CELL, x] = 40
        if letter == ".":
            continue
        strength = ROLES.find(letter.upper()) + 1
        size = 6 + strength
        pad = (JUNGLE_CELL - size) // 2
        colour = COLOURS["red"] if letter.isupper() else COLOURS["yellow"]
        image[y + pad : y + pad + size, x + pad : x + pad + size] = colour
    return image
