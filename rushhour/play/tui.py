"""The full-screen game: keys and mouse in, the screen out, on the standard ``curses`` module.

:func:`run` takes the terminal (alternate screen, raw keys, the mouse with button motion), feeds every
key and mouse event to a :class:`~rushhour.play.controller.Controller` and redraws in place.  Every way out
gives the terminal back as it was: ``q``, Ctrl-C, Ctrl-D, the end of input, SIGTERM, SIGHUP and an
unexpected error (which the caller then reports on one line).
"""

from __future__ import annotations

import curses
import os
import select
import signal
import sys
from contextlib import suppress

from rushhour.errors import RushHourError
from rushhour.play.controller import Controller, Mode
from rushhour.play.screen import Screen
from rushhour.play.session import Signalled, leave_on_signals

#: how often the screen is refreshed without input (the stopwatch, an animated solution), in ms
TICK_MS = 200
#: xterm's button-motion mouse mode (dragging); curses turns on clicks, and SGR coordinates, itself
MOTION_ON, MOTION_OFF = "\x1b[?1002h", "\x1b[?1002l"
#: read errors in a row on a readable input that mean it has ended
EOF_ERRORS = 3

_NAMED_KEYS = {
    curses.KEY_UP: "up",
    curses.KEY_DOWN: "down",
    curses.KEY_LEFT: "left",
    curses.KEY_RIGHT: "right",
    curses.KEY_BTAB: "shift-tab",
    curses.KEY_ENTER: "enter",
    curses.KEY_BACKSPACE: "backspace",
    curses.KEY_HOME: "home",
    curses.KEY_END: "end",
    curses.KEY_PPAGE: "pgup",
    curses.KEY_NPAGE: "pgdn",
}
_CONTROL_KEYS = {
    "\t": "tab",
    "\n": "enter",
    "\r": "enter",
    "\x1b": "esc",
    "\x7f": "backspace",
    "\x08": "backspace",
    "\x03": "ctrl-c",
    "\x04": "ctrl-d",
    "\x12": "ctrl-r",
    "\x19": "ctrl-y",
    "\x1a": "ctrl-z",
}


def key_name(key: int | str) -> str | None:
    """The controller's name of a key read by curses (None for keys the game does not use)."""
    if isinstance(key, int):
        return _NAMED_KEYS.get(key)
    if key in _CONTROL_KEYS:
        return _CONTROL_KEYS[key]
    if len(key) == 1 and key.isprintable():
        return key
    return None


def usable() -> bool:
    """Whether this terminal can show the full screen: its terminfo entry is known and can move the
    cursor (not ``TERM=dumb``, not unset)."""
    try:
        curses.setupterm()
    except curses.error:
        return False
    return curses.tigetstr("cup") is not None


def play(controller: Controller, *, color: bool) -> int:
    """Play full screen and report on one line what the screen could not: an unexpected error (the
    terminal restored first, exit status 1), or a last win that could not be saved."""
    try:
        status = run(controller, color=color)
    except RushHourError:
        raise
    except Exception as err:  # the terminal is restored by now: report the error on one line
        print(f"error: unexpected {type(err).__name__}: {err}", file=sys.stderr)
        return 1
    if controller.save_note.startswith("warning: "):  # the last win could not be saved: say it again
        print(controller.save_note, file=sys.stderr)
    return status


def run(controller: Controller, *, color: bool) -> int:
    """Play full screen until the player leaves; the exit status (0, 130 after Ctrl-C, 128 + the
    signal's number after SIGTERM or SIGHUP).  Unexpected errors propagate after the terminal is
    restored."""
    os.environ.setdefault("ESCDELAY", "25")
    interrupted = False
    try:
        with leave_on_signals():
            interrupted = curses.wrapper(_main, controller, color)
    except Signalled as sig:
        controller.quit()
        return 128 + sig.signum
    except KeyboardInterrupt:
        controller.quit()
        return 130
    finally:
        forget_curses_signals()
    return 130 if interrupted else 0


def forget_curses_signals() -> None:
    """curses keeps its SIGTSTP handler after the screen is left: a Ctrl-Z typed while the program
    ends would stop it and, on resuming, take the terminal's screen again.  Back to the default."""
    if hasattr(signal, "SIGTSTP"):
        with suppress(OSError, ValueError):
            signal.signal(signal.SIGTSTP, signal.SIG_DFL)


def _main(window: curses.window, controller: Controller, color: bool) -> bool:
    """The loop inside curses; True when the player left with Ctrl-C."""
    setup_window(window)
    screen = Screen(window, controller, color)
    last_key = ""
    try:
        errors = 0
        shown = int(controller.elapsed())
        screen.draw()
        while controller.mode is not Mode.QUIT:
            try:
                key: int | str = window.get_wch()
            except curses.error:
                search = controller.worker.fileno()
                waits = [sys.stdin] if search is None else [sys.stdin, search]
                ready, _, _ = select.select(waits, [], [], TICK_MS / 1000)
                if sys.stdin in ready:
                    errors += 1
                    if errors >= EOF_ERRORS:  # readable but nothing to read: the input has ended
                        controller.quit()
                        break
                    continue
                errors = 0
                second = int(controller.elapsed())
                # a search ended, the stopwatch or an animation moved on, or a spinner turns
                if controller.tick() or second != shown or controller.busy_text():
                    shown = second
                    screen.draw()
                continue
            errors = 0
            if key == curses.KEY_RESIZE:
                curses.update_lines_cols()
            elif key == curses.KEY_MOUSE:
                _mouse(screen, controller)
            else:
                name = key_name(key)
                if name is not None:
                    last_key = name
                    if screen.geometry is None and controller.mode is not Mode.MENU:
                        if name in ("q", "ctrl-c", "ctrl-d"):
                            controller.quit()
                    else:
                        controller.key(name)
            controller.tick()
            shown = int(controller.elapsed())
            screen.draw()
    finally:
        controller.close()
        mouse_motion(False)
    return last_key == "ctrl-c"


def play_in(window: curses.window, controller: Controller, color: bool) -> bool:
    """Play in a window another screen already holds (the editor's ``p``); True when the player left
    with Ctrl-C.  The mouse's motion mode is off again on return."""
    return _main(window, controller, color)


def _mouse(screen: Screen, controller: Controller) -> None:
    try:
        _, x, y, _, state = curses.getmouse()
    except curses.error:
        return
    geo = screen.geometry
    cell = None if geo is None else geo.cell_at(controller.board, y, x)
    if state & curses.BUTTON1_RELEASED:
        controller.release()
    elif state & curses.BUTTON1_PRESSED and cell is not None:
        controller.press(cell)
    elif state & curses.REPORT_MOUSE_POSITION and cell is not None:
        controller.drag(cell)


def setup_window(window: curses.window) -> None:
    """The terminal as both full screens (the game, the editor) use it: keys as they come, not echoed,
    never waited for; clicks at once, and drags reported while a button is down; no cursor."""
    curses.raw()
    curses.noecho()
    window.keypad(True)
    window.nodelay(True)
    curses.mouseinterval(0)
    curses.mousemask(curses.ALL_MOUSE_EVENTS | curses.REPORT_MOUSE_POSITION)
    with suppress(curses.error):  # some terminals cannot hide the cursor
        curses.curs_set(0)
    mouse_motion(True)


def mouse_motion(on: bool) -> None:
    """Ask the terminal for motion reports while a button is down (mode 1002), or stop them."""
    try:
        sys.stdout.write(MOTION_ON if on else MOTION_OFF)
        sys.stdout.flush()
    except OSError:
        pass


__all__ = ["key_name", "mouse_motion", "play", "play_in", "run", "setup_window", "usable"]
