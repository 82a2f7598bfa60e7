"""Playing Rush Hour: everything between a player and the puzzle, in one package.

Both front ends, the full screen and the line mode, go through the same session, so what a win or a
level left unsolved records is decided in one place.  Bottom to top:

``game``        :class:`~rushhour.play.game.Game`: one level being played as a state machine (position,
                undo/redo, hints, the solution, the result); no input or output.
``saves``       :class:`~rushhour.play.saves.Saves`: the player's saves file (wins, best moves, help
                used), read and written atomically under a lock.
``level``       :class:`~rushhour.play.level.Level`: a board with where it comes from and how the saves
                know it; the next level; which level ``rushhour play`` starts with.
``words``       the texts both modes show (status figures, the win's lines, a stopwatch reading, the
                goal, a refusal in a player's words).
``sources``     the real answers: legal moves from the SAT oracle (built beside the game for a new
                shape, the rules answering meanwhile), optimal plans from the solver.
``worker``      searches beside the game: :class:`~rushhour.play.worker.ProcessWorker` (a forked child,
                polled, cancelled by a kill) and :class:`~rushhour.play.worker.InlineWorker` (in place).
``session``     :class:`~rushhour.play.session.Session`: the policy both modes share (starting a level,
                continuing a game left, recording a win once with its time, keeping the position and
                help of a level left, the searches for the optimum, a hint, the solution).
``logic_view``  the logic beside the board (``e``): the SAT oracle's propositions for the position shown,
                a refusal's cores, a hint's blockers; a pure function, no input or output.
``controller``  :class:`~rushhour.play.controller.Controller`: what a key or a click means on the full
                screen; a state machine over a session, with an injected clock; no input or output.
``line``        :class:`~rushhour.play.line.LineMode`: the game by typed lines.
``screen``      drawing a controller on a curses window (board, status, overlays).
``tui``         the curses loop: keys and mouse in, the screen out, the terminal always restored.

The editor (``rushhour edit``) stands on the same layers:

``draft``       :class:`~rushhour.play.draft.Draft`: a board being drawn, which may be invalid, with the
                edits and their refusals in words.
``editor``      :class:`~rushhour.play.editor.Editor`: what a key or a click means in the editor, its
                live check and harden beside it, saving; no input or output.
``kept``        :class:`~rushhour.play.kept.KeptBoards`: the boards left unsaved, kept for next time.
``editscreen``  drawing an editor, and its curses loop.

Only ``line``, ``tui`` and ``editscreen`` touch the terminal; ``rushhour.cli.play`` and
``rushhour.cli.edit`` wire the command line to them.
"""
