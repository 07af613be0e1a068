"""The lobby message and its settings keyboard."""

from __future__ import annotations

from engine.model import Phase, Room
from engine.settings import BOUNDS
from tgbot.outgoing import Button, Outgoing
from tgbot.render.common import Look, names, settings_text
from tgbot.texts import _

SETTING_ROWS = (
    "max_seats",
    "rotations",
    "hand_size",
    "timers",
    "hint_s",
    "decoy_s",
    "vote_s",
    "reveal_s",
    "deck",
)
SETTING_STEPS = {
    "max_seats": 1,
    "rotations": 1,
    "hand_size": 1,
    "hint_s": 15,
    "decoy_s": 15,
    "vote_s": 15,
    "reveal_s": 2,
}
DECK_NAMES = ("default", "short")
SETTING_LABELS = {
    "max_seats": _("max players"),
    "rotations": _("rotations"),
    "hand_size": _("hand size"),
    "timers": _("timers"),
    "hint_s": _("hint seconds"),
    "decoy_s": _("decoy seconds"),
    "vote_s": _("vote seconds"),
    "reveal_s": _("reveal seconds"),
    "deck": _("deck"),
}


def lobby(room: Room, look: Look, settings_mode: bool = False) -> Outgoing:
    """The lobby message: players, settings and its buttons."""
    who = names(room)
    lines = [
        _("<b>Hintrigue</b> — a new game is open!"),
        "",
        _("Players ({n}):").format(n=len(room.seats)),
    ]
    lines += [
        f"• {who[i]}" + (_(" (host)") if s.user_id == room.creator else "")
        for i, s in enumerate(room.seats)
    ]
    lines += ["", settings_text(room)]
    if room.phase is Phase.LOBBY:
        lines.append(_("Press Join to play. The host or an admin presses Start (3+ players)."))
        rows = (
            _settings_rows(room, look)
            if settings_mode
            else [
                [look.button(_("Join"), "join"), look.button(_("Leave"), "leave")],
                [look.button(_("Start"), "start"), look.button(_("Settings"), "menu")],
            ]
        )
    else:
        lines.append(
            _("The lobby is closed.") if room.phase is Phase.CLOSED else _("The game has started.")
        )
        rows = []
    return Outgoing(chat_id=room.chat_id, key="lobby", text="\n".join(lines), buttons=rows)


def _settings_rows(room: Room, look: Look) -> list[list[Button]]:
    rows = []
    current = room.settings.model_dump()
    for index, name in enumerate(SETTING_ROWS):
        value = current[name]
        shown = (_("on") if value else _("off")) if name == "timers" else value
        label = f"{SETTING_LABELS[name]}: {shown}"
        if name == "timers":
            rows.append([look.button(label, "set", index, int(not value))])
        elif name == "deck":
            other = DECK_NAMES.index(value) ^ 1
            rows.append([look.button(label, "set", index, other)])
        else:
            low, high = BOUNDS[name]
            step = SETTING_STEPS[name]
            rows.append(
                [
                    look.button(f"− {label}", "set", index, max(low, value - step)),
                    look.button("+", "set", index, min(high, value + step)),
                ]
            )
    rows.append([look.button(_("Done"), "done")])
    return rows
