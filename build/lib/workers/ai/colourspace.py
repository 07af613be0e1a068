"""Colours as people see them: sRGB to CIELAB (D65) and the CIEDE2000 colour difference.

ΔE00 is the CIE's 2000 formula (Sharma, Wu and Dalal, "The CIEDE2000 color-difference
formula", 2005): about 1 is a difference a trained eye just sees, 2–10 reads as "similar",
beyond 20 as another colour. Vectorised with numpy: one call compares every colour of one list
with every colour of another.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.float64]

_D65 = np.array([0.95047, 1.0, 1.08883])
_SRGB_TO_XYZ = np.array(
    [
        [0.4124564, 0.3575761, 0.1804375],
        [0.2126729, 0.7151522, 0.0721750],
        [0.0193339, 0.1191920, 0.9503041],
    ]
)


def hex_rgb(text: str) -> tuple[int, int, int]:
    """`#FA8072` as (250, 128, 114)."""
    digits = text.strip().removeprefix("#")
    if len(digits) != 6:
        raise ValueError(f"not a #RRGGBB colour: {text!r}")
    value = int(digits, 16)
    return (value >> 16) & 255, (value >> 8) & 255, value & 255


def lab(rgb: Sequence[Sequence[int]] | npt.ArrayLike) -> Array:
    """CIELAB (L*, a*, b*; D65 white) of sRGB colours given as rows of 0–255 values."""
    c = np.asarray(rgb, dtype=np.float64).reshape(-1, 3) / 255.0
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    xyz = linear @ _SRGB_TO_XYZ.T / _D65
    epsilon, kappa = 216 / 24389, 24389 / 27
    f = np.where(xyz > epsilon, np.cbrt(xyz), (kappa * xyz + 16) / 116)
    return np.stack(
        [116 * f[:, 1] - 16, 500 * (f[:, 0] - f[:, 1]), 200 * (f[:, 1] - f[:, 2])], axis=1
    )


def delta_e(first: npt.ArrayLike, second: npt.ArrayLike) -> Array:
    """CIEDE2000 differences between every colour of `first` (rows of L*, a*, b*) and every
    colour of `second`: a len(first) × len(second) matrix."""
    one = np.asarray(first, dtype=np.float64).reshape(-1, 1, 3)
    two = np.asarray(second, dtype=np.float64).reshape(1, -1, 3)
    l1, a1, b1 = one[..., 0], one[..., 1], one[..., 2]
    l2, a2, b2 = two[..., 0], two[..., 1], two[..., 2]
    c_mean = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_mean**7 / (c_mean**7 + 25.0**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360
    dlp = l2 - l1
    dcp = c2p - c1p
    dh = h2p - h1p
    dh = np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh))
    dh = np.where(c1p * c2p == 0, 0.0, dh)
    dhp = 2 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh / 2))
    lp_mean = (l1 + l2) / 2
    cp_mean = (c1p + c2p) / 2
    h_sum = h1p + h2p
    hp_mean = np.where(
        np.abs(h1p - h2p) > 180,
        np.where(h_sum < 360, (h_sum + 360) / 2, (h_sum - 360) / 2),
        h_sum / 2,
    )
    hp_mean = np.where(c1p * c2p == 0, h_sum, hp_mean)
    t = (
        1
        - 0.17 * np.cos(np.radians(hp_mean - 30))
        + 0.24 * np.cos(np.radians(2 * hp_mean))
        + 0.32 * np.cos(np.radians(3 * hp_mean + 6))
        - 0.20 * np.cos(np.radians(4 * hp_mean - 63))
    )
    d_theta = 30 * np.exp(-(((hp_mean - 275) / 25) ** 2))
    rc = 2 * np.sqrt(cp_mean**7 / (cp_mean**7 + 25.0**7))
    sl = 1 + 0.015 * (lp_mean - 50) ** 2 / np.sqrt(20 + (lp_mean - 50) ** 2)
    sc = 1 + 0.045 * cp_mean
    sh = 1 + 0.015 * cp_mean * t
    rt = -np.sin(np.radians(2 * d_theta)) * rc
    return np.asarray(
        np.sqrt((dlp / sl) ** 2 + (dcp / sc) ** 2 + (dhp / sh) ** 2 + rt * (dcp / sc) * (dhp / sh))
    )
