"""Measuring text on a rendered picture: the heights of the runs of rows holding dark ink."""

from __future__ import annotations

from PIL import Image


def ink_runs(image: Image.Image, box: tuple[int, int, int, int], horizontal: bool) -> list[int]:
    """The heights of the runs of rows holding the labels' ink (dark on the background)
    within `box`, top to bottom (`horizontal`: one line of labels, a single run)."""
    left, top, right, bottom = box
    inked = []
    for y in range(top, bottom):
        inked.append(any(sum(image.getpixel((x, y))) < 3 * 110 for x in range(left, right)))
    runs, length = [], 0
    for row in [*inked, False]:
        if row:
            length += 1
        elif length:
            runs.append(length)
            length = 0
    assert runs and (len(runs) == 1 or not horizontal), runs
    return runs
