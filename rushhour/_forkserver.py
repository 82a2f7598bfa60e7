"""Imported by multiprocessing's forkserver process alone, as it starts (see
:func:`rushhour.workers.context`): the forkserver dies with the command that started it, and with it
go the workers it forked (they ask the kernel to die with their parent)."""

from rushhour.workers import die_with_parent

die_with_parent()
