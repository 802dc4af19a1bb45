"""Winning the game [24.0]-[24.3], [25.2], and the battle result [20.2 step 5], [20.3].

VP defeat [24.3]: at the end of a turn with negative VP roll 2d6; a roll at or below the
absolute VP is an immediate defeat. A battle is not won by a side that lost at least half of
its ships, sunk or eliminated, glitches excluded [20.2 step 5].
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class VpCheck:
    needed: bool
    lose_at_most: int  # a 2d6 total at or below this loses [24.3]


def vp_check_24_3(vp: int) -> VpCheck:
    """[24.3] whether the 2d6 check is due and the highest losing total."""
    return VpCheck(vp < 0, -vp if vp < 0 else 0)


def vp_defeat_24_3(vp: int, two_d6: int) -> bool:
    """[24.3] the roll is at or below |VP|: defeat, immediately."""
    chk = vp_check_24_3(vp)
    return chk.needed and two_d6 <= chk.lose_at_most


def not_won_20_2(ships_at_start: int, ships_lost: int) -> bool:
    """[20.2 step 5] lost at least half of its ships (glitches already excluded)."""
    return ships_at_start > 0 and 2 * ships_lost >= ships_at_start


def battle_result_20_2(usn: tuple[int, int], soviet: tuple[int, int]) -> str:
    """[20.2 step 5]: "USN", "Soviet" or "draw" from (ships, lost) of each side."""
    usn_out, sov_out = not_won_20_2(*usn), not_won_20_2(*soviet)
    if usn_out == sov_out:
        return "draw"
    return "Soviet" if usn_out else "USN"


def fruits_20_3(winner: str, *, cvbg: bool, aircraft_only: bool) -> dict[str, int]:
    """[20.3]: CIC (with the CVBG) or CAG (aircraft only) +1 for a USN win, -1 for a
    Soviet win; missiles only: no effect."""
    if winner not in ("USN", "Soviet"):
        return {}
    d = 1 if winner == "USN" else -1
    if cvbg:
        return {"CIC": d}
    if aircraft_only:
        return {"CAG": d}
    return {}
