"""Starting the real program in a pseudo-terminal, the same way however pytest itself was started.

A shell that runs a job in the background without job control starts it with SIGINT (and SIGQUIT)
ignored, and an ignored signal stays ignored across ``exec``: a game spawned from such a pytest would
never see the Ctrl-C a test types.  The child therefore puts back the default handling of the signals
a player can send before it starts the program.
"""

from __future__ import annotations

import signal
from collections.abc import Sequence
from typing import Any

import pexpect

#: the signals a test sends to the game (by key or by kill), given back their default handling
RESTORED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)


def default_signals() -> None:
    """In the child, before ``exec``: the default handling of every signal in :data:`RESTORED`."""
    for number in RESTORED:
        signal.signal(number, signal.SIG_DFL)


def spawn_program(argv: Sequence[str], **options: Any) -> pexpect.spawn:
    """``argv`` in a pseudo-terminal (``options`` go to :class:`pexpect.spawn`), its signals restored."""
    return pexpect.spawn(argv[0], list(argv[1:]), preexec_fn=default_signals, **options)
