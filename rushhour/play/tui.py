"""The full-screen game: keys and mouse in, the screen out, on the standard ``curses`` module.

:func:`run` takes the terminal (alternate screen, raw keys, the mouse with button motion), feeds every
key and mouse event to a :class:`~rushhour.play.controller.Controller` and redraws in place.  Every way out
gives the terminal back as it was: ``q``, Ctrl-C, Ctrl-D, the end of input, SIGTERM, SIGHUP and an
unexpected error (which the caller then reports on one line).  A signal leaves the game (its position
saved) before the terminal is touched, and giving the terminal back never fails: after a hangup (the
terminal closed) it is gone, and nothing is there to give back.

:func:`full_screen` is the terminal's life for both full screens (the game, the editor): the size is the
terminal's own (an exported ``LINES``/``COLUMNS`` does not override it), a stop (SIGTSTP) releases the
mouse and the screen and takes them back on ``fg``, and the time a stop lasts (any stop, SIGSTOP and a
background job's SIGTTOU included) is known to the game's stopwatch through the SIGCONT that ends it.
"""

from __future__ import annotations

import curses
import os
import select
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from types import FrameType
from typing import Any, TypeVar

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

T = TypeVar("T")

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
    return unusable_reason() is None


def unusable_reason() -> str | None:
    """Why TERM cannot show the full screen (unset, no terminfo entry, cannot move the cursor), or None."""
    term = os.environ.get("TERM", "")
    if not term:
        return "TERM is not set: the full screen needs the terminal's type (e.g. TERM=xterm-256color)"
    try:
        curses.setupterm()
    except curses.error:
        return f"no terminfo entry for TERM {term!r}: the full screen cannot be drawn"
    if curses.tigetstr("cup") is None:
        return f"TERM {term!r} cannot draw a full screen (it cannot move the cursor)"
    return None


def say(text: str) -> None:
    """A line on stderr, if there is still somewhere to write it (a closed terminal is not)."""
    with suppress(OSError, ValueError):
        print(text, file=sys.stderr)


def play(controller: Controller, *, color: bool) -> int:
    """Play full screen and report on one line what the screen could not: an unexpected error (the
    terminal restored first, exit status 1), or a last win that could not be saved."""
    try:
        status = run(controller, color=color)
    except RushHourError:
        raise
    except Exception as err:  # the terminal is restored by now: report the error on one line
        say(f"error: unexpected {type(err).__name__}: {err}")
        return 1
    if controller.save_note.startswith("warning: "):  # the last win could not be saved: say it again
        say(controller.save_note)
    return status


def run(controller: Controller, *, color: bool) -> int:
    """Play full screen until the player leaves; the exit status (0, 130 after Ctrl-C, 128 + the
    signal's number after SIGTERM or SIGHUP).  Unexpected errors propagate after the terminal is
    restored."""
    os.environ.setdefault("ESCDELAY", "25")
    interrupted = False
    awake = Awake()  # from before the terminal is taken: a background start stops there (SIGTTOU)
    try:
        with leave_on_signals():
            interrupted = full_screen(_main, controller, color, awake)
    except Signalled as sig:
        _quit(controller)
        return 128 + sig.signum
    except KeyboardInterrupt:
        _quit(controller)
        return 130
    return 130 if interrupted else 0


def _quit(controller: Controller) -> None:
    """Leave the game (its position saved), unless it was left already."""
    if controller.mode is not Mode.QUIT:
        controller.quit()


# --- the terminal's life -------------------------------------------------------------------------
class _Continues:
    """How many times the process was continued after a stop (SIGCONT)."""

    count = 0

    @classmethod
    def handler(cls, signum: int, frame: FrameType | None) -> None:
        cls.count += 1


class Awake:
    """What the stopwatch must not count: the time the process was stopped.  No stop can be seen as it
    begins (SIGSTOP cannot be caught), but each ends with a SIGCONT: the time since the loop's last tick
    before it was spent stopped (give or take one tick)."""

    def __init__(self) -> None:
        self.seen, self.last = _Continues.count, time.monotonic()

    def lost(self) -> float:
        """Seconds spent stopped since the last call (0.0 when the process was not stopped)."""
        now, count = time.monotonic(), _Continues.count
        gap = now - self.last if count != self.seen else 0.0
        self.seen, self.last = count, now
        return gap


def full_screen(main: Callable[..., T], *args: Any) -> T:
    """``main(window, *args)`` in the full screen, as :func:`curses.wrapper` runs it, and more: the size
    is the terminal's (see :func:`terminal_size`), a stop gives the terminal back (see :func:`on_stop`),
    and each step of giving it back may fail (a closed terminal) without hiding why ``main`` ended."""
    with terminal_size(), on_stop() as screen:
        window = curses.initscr()
        screen.append(window)
        try:
            curses.noecho()
            curses.cbreak()
            window.keypad(True)
            with suppress(curses.error):
                curses.start_color()
            return main(window, *args)
        finally:
            screen.clear()
            give_back(window)


def give_back(window: curses.window) -> None:
    """The terminal as it was before the full screen: each step on its own, none of them an error (on a
    terminal that is gone, every one fails)."""
    steps: list[Callable[[], object]] = [
        lambda: window.keypad(False),
        curses.echo,
        curses.nocbreak,
        curses.endwin,
    ]
    for step in steps:
        with suppress(curses.error, OSError):
            step()


@contextmanager
def terminal_size() -> Iterator[None]:
    """While inside, ``LINES`` and ``COLUMNS`` are not in the environment: exported, they would override
    the terminal's real size, and every resize after it.  (``curses.use_env(False)`` is no cure: it
    takes the terminfo entry's size, 80x24, instead of the terminal's.)"""
    saved = {name: os.environ.pop(name) for name in ("LINES", "COLUMNS") if name in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


@contextmanager
def on_stop() -> Iterator[list[curses.window]]:
    """While inside: SIGTSTP (``kill -TSTP``; Ctrl-Z is a key of the game) gives the terminal back, the
    mouse's motion mode included, which curses's own handler forgets, then stops; on ``fg`` the screen is
    taken again and drawn afresh.  SIGCONT is counted for :class:`Awake`.  Yields the list the caller
    puts the screen's window in once it has one (before that, a stop is a plain stop)."""
    screen: list[curses.window] = []

    def stop(signum: int, frame: FrameType | None) -> None:
        if not screen:
            _stop_now()
            return
        mouse_motion(False)
        with suppress(curses.error):
            curses.endwin()
        try:
            _stop_now()
        finally:
            mouse_motion(True)
            with suppress(curses.error):
                curses.doupdate()  # back from the shell: curses draws the whole screen again
            with suppress(OSError):
                os.kill(os.getpid(), signal.SIGWINCH)  # resized meanwhile? curses looks again

    tstp, cont = getattr(signal, "SIGTSTP", None), getattr(signal, "SIGCONT", None)
    old = {}
    if cont is not None:
        old[cont] = signal.signal(cont, _Continues.handler)
    if tstp is not None and signal.getsignal(tstp) is signal.SIG_DFL:  # an ignored stop stays ignored
        old[tstp] = signal.signal(tstp, stop)  # installed first, curses keeps its own handler out
    try:
        yield screen
    finally:
        for number, handler in old.items():
            with suppress(OSError, ValueError, TypeError):
                signal.signal(number, handler)


def _stop_now() -> None:
    """Stop as SIGTSTP's default does, then take the signal again.  Not SIGSTOP: the kernel discards a
    default SIGTSTP in an orphaned process group (no shell to continue it), and so does this."""
    tstp = signal.SIGTSTP
    handler = signal.signal(tstp, signal.SIG_DFL)
    try:
        os.kill(os.getpid(), tstp)
    finally:
        signal.signal(tstp, handler)


def _main(window: curses.window, controller: Controller, color: bool, awake: Awake | None = None) -> bool:
    """The loop inside curses; True when the player left with Ctrl-C."""
    setup_window(window)
    screen = Screen(window, controller, color)
    awake = awake or Awake()
    last_key = ""
    try:
        errors = 0
        shown = int(controller.elapsed())
        screen.draw()
        while controller.mode is not Mode.QUIT:
            lost = awake.lost()
            if lost:  # the process was stopped: that time was not played
                controller.not_played(lost)
            try:
                key = read_key(window)
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
            elif isinstance(key, MouseReport):
                _pointer(screen, controller, key)
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
    except (Signalled, KeyboardInterrupt):
        _quit(controller)  # saved first: what comes next touches a terminal that may be gone
        raise
    finally:
        controller.close()
        mouse_motion(False)
    return last_key == "ctrl-c"


def play_in(window: curses.window, controller: Controller, color: bool) -> bool:
    """Play in a window another screen already holds (the editor's ``p``); True when the player left
    with Ctrl-C.  The mouse's motion mode is off again on return."""
    return _main(window, controller, color)


#: a click that ncurses reports whole, its press and release read together (a quick tap, a slow link):
#: a press and a release at once
CLICKS = curses.BUTTON1_CLICKED | curses.BUTTON1_DOUBLE_CLICKED | curses.BUTTON1_TRIPLE_CLICKED


def pointer_steps(state: int) -> tuple[str, ...]:
    """What a mouse report's ``state`` does on the board, in order: ``press``, ``release``, ``drag``."""
    if state & CLICKS:
        return ("press", "release")
    if state & curses.BUTTON1_RELEASED:
        return ("release",)
    if state & curses.BUTTON1_PRESSED:
        return ("press",)
    if state & curses.REPORT_MOUSE_POSITION:
        return ("drag",)
    return ()


def _mouse(screen: Screen, controller: Controller) -> None:
    try:
        _, x, y, _, state = curses.getmouse()
    except curses.error:
        return
    _pointer(screen, controller, MouseReport(x, y, state))


def _pointer(screen: Screen, controller: Controller, report: MouseReport) -> None:
    geo = screen.geometry
    cell = None if geo is None else geo.cell_at(controller.board, report.y, report.x)
    for step in pointer_steps(report.state):
        if step == "release":
            controller.release()
        elif cell is not None:
            (controller.press if step == "press" else controller.drag)(cell)


# --- mouse reports curses hands over as keys ------------------------------------------------------
@dataclass(frozen=True)
class MouseReport:
    """A mouse report: the screen column ``x`` and line ``y`` (from 0) and what the button did, in the
    bits of curses's ``getmouse`` state (0: nothing the game uses, as a wheel or another button)."""

    x: int
    y: int
    state: int


#: the start of a mouse report in the classic (X10) encoding, after Esc: ``CSI M`` and three bytes
X10_START = ("[", "M")
#: how long the rest of a report begun is waited for (it comes in the same write but for a slow link), ms
X10_WAIT_MS = 100
#: keys read after an Esc to see whether a report followed, that were not one: they come next
_AHEAD: deque[int | str] = deque()


def read_key(window: curses.window) -> int | str | MouseReport:
    """The next key, as ``window.get_wch()`` reads it (``curses.error`` when there is none), but a mouse
    report in the classic encoding (``CSI M`` and three bytes: button + 32, column + 33, line + 33) is
    read whole as one :class:`MouseReport`.

    curses decodes the reports of the one encoding the terminfo entry names (``kmous``): where that is
    SGR (``TERM=xterm``, ``xterm-256color``) but the terminal ignores the SGR mode (1006) and answers in
    the classic encoding, curses hands each byte of a click over as a key (Esc, ``[``, ``M``, then
    bytes that may be ``q`` or ``u``).  Here they make the click they are.
    """
    if _AHEAD:
        return _AHEAD.popleft()
    key = window.get_wch()
    if key != "\x1b":
        return key
    read: list[int | str] = []
    for expected in X10_START:
        following = _next_key(window, wait=bool(read))
        if following is None:
            break
        read.append(following)
        if following != expected:
            break
    else:
        return x10_report([_next_byte(window) for _ in range(3)])
    _AHEAD.extend(read)
    return key


def _next_key(window: curses.window, *, wait: bool) -> int | str | None:
    """The next key already sent (``wait``: or sent within :data:`X10_WAIT_MS`), else None."""
    if wait:
        window.timeout(X10_WAIT_MS)
    try:
        return window.get_wch()
    except curses.error:
        return None
    finally:
        if wait:
            window.nodelay(True)


def _next_byte(window: curses.window) -> int:
    """The next byte as it came (-1: none within :data:`X10_WAIT_MS`).  A report's coordinates past
    column or line 94 are bytes from 128 up, which ``get_wch`` would try to read as the start of a
    character in the locale's encoding, swallowing the bytes after them."""
    window.timeout(X10_WAIT_MS)
    try:
        return window.getch()
    finally:
        window.nodelay(True)


def x10_report(body: list[int]) -> MouseReport:
    """The three bytes after ``CSI M`` (as numbers) as a report; one that cannot be read (cut short:
    -1) is a report of nothing, so that its bytes are never taken for keys.

    >>> x10_report([32, 43, 37])  # button 1 pressed at column 10, line 4 (from 0)
    MouseReport(x=10, y=4, state=2)
    >>> x10_report([35, 43, 37]).state == curses.BUTTON1_RELEASED
    True
    >>> x10_report([32, 43, -1])
    MouseReport(x=-1, y=-1, state=0)
    """
    if len(body) != 3 or not all(33 <= b <= 255 for b in body[1:]) or not 32 <= body[0] <= 255:
        return MouseReport(-1, -1, 0)
    code, column, line = body[0] - 32, body[1] - 33, body[2] - 33
    state = 0
    if code & 64:  # the wheel
        state = 0
    elif code & 3 == 3:  # a release (the classic encoding does not say of which button)
        state = curses.BUTTON1_RELEASED
    elif code & 3 == 0:  # the first button: pressed, or moved while held down (mode 1002)
        state = curses.REPORT_MOUSE_POSITION if code & 32 else curses.BUTTON1_PRESSED
    return MouseReport(column, line, state)


def setup_window(window: curses.window) -> None:
    """The terminal as both full screens (the game, the editor) use it: keys as they come, not echoed,
    never waited for; clicks at once, and drags reported while a button is down; no cursor."""
    curses.raw()
    curses.noecho()
    window.keypad(True)
    window.nodelay(True)
    curses.mouseinterval(0)
    available, _ = curses.mousemask(curses.ALL_MOUSE_EVENTS | curses.REPORT_MOUSE_POSITION)
    _MOUSE[0] = available != 0
    with suppress(curses.error):  # some terminals cannot hide the cursor
        curses.curs_set(0)
    mouse_motion(True)


#: whether curses reads this terminal's mouse reports (its terminfo entry describes them): where it
#: does not (TERM=vt100, say), a terminal asked for reports would send them all the same, and curses
#: would hand their bytes over as keys (a click as Esc, [, M and three letters that may be q or u)
_MOUSE = [False]


def mouse_motion(on: bool) -> None:
    """Ask the terminal for motion reports while a button is down (mode 1002), where curses reads the
    terminal's mouse reports (:func:`setup_window` found out), or stop them.  Written straight to the
    terminal, never left in a buffer: a write that fails (the terminal is gone) is dropped, not tried
    again at exit."""
    if not _MOUSE[0]:
        return
    with suppress(OSError, ValueError):
        sys.stdout.flush()
        os.write(sys.stdout.fileno(), (MOTION_ON if on else MOTION_OFF).encode("ascii"))


__all__ = [
    "CLICKS",
    "Awake",
    "MouseReport",
    "full_screen",
    "give_back",
    "key_name",
    "mouse_motion",
    "play",
    "pointer_steps",
    "play_in",
    "read_key",
    "run",
    "say",
    "setup_window",
    "unusable_reason",
    "usable",
    "x10_report",
]
