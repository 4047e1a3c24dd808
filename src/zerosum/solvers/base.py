"""What every iterative solver shares: input checks and the checkpointed run loop."""

from __future__ import annotations

from ..errors import ZerosumError


def check_iterations(iterations) -> int:
    """``iterations`` as an int, or a ZerosumError naming it unless it is a positive integer."""
    if isinstance(iterations, bool) or int(iterations) != iterations or iterations <= 0:
        raise ZerosumError(f"iterations must be a positive integer, got {iterations}")
    return int(iterations)


def check_state(state: dict, solver: str, game_id: str) -> None:
    """Refuse a saved state made by another solver or for another game."""
    if "solver" not in state or "game" not in state:
        raise ZerosumError("not a zerosum solver state")
    if str(state["solver"]) != solver:
        raise ZerosumError(f"the saved state is from solver {str(state['solver'])!r}, not {solver!r}")
    if str(state["game"]) != game_id:
        raise ZerosumError(f"the saved state is for game {str(state['game'])!r}, not {game_id!r}")


class IterativeSolver:
    """Mixin for solvers with ``iteration``, ``iterate(n)`` and ``checkpoint()``.

    ``progress_step`` is how many iterations run between two progress callbacks (cheap
    iterations take larger steps so that the callback costs nothing).
    """

    progress_step = 50
    #: which strategy is the method's result, saved by ``zerosum solve --save``: "average" (the CFR
    #: family, whose guarantee is about the average) or "current" (last-iterate methods, whose
    #: current strategy is their point: the magnet dynamics and MMD)
    result_strategy = "average"
    #: ``zerosum solve``'s -n when not given: 1,000 runs in seconds for the tabular solvers on the
    #: bundled games; the network solvers lower it (deep-cfr: about a second per iteration on Kuhn)
    default_iterations = 1000

    def run(self, iterations: int, checkpoints=(), progress=None, stop=None) -> list[dict]:
        """Iterate up to ``iterations`` (a total, counting from the solver's current iteration),
        recording a checkpoint at each requested iteration; ``progress(advance)`` is called as it goes.

        ``stop(row=None)`` (optional) is asked after each step of ``progress_step`` iterations, and
        with the row after each checkpoint, and returns None to go on or a reason (``"interrupt"``,
        ``"time"``, ``"target"``): the step in flight always completes, so the
        solver stays consistent and a state saved now resumes to the same results as an uninterrupted
        run; the loop then records a checkpoint at the iteration reached, sets
        ``self.stopped`` to the reason and returns.  ``self.stopped`` is None after a full run."""
        iterations = check_iterations(iterations)
        marks = sorted({c for c in checkpoints if self.iteration < c <= iterations} | {iterations})
        out = []
        self.stopped = None
        for m in marks:
            while self.iteration < m:
                step = min(m - self.iteration, self.progress_step)
                self.iterate(step)
                if progress is not None:
                    progress(step)
                reason = stop() if stop is not None and self.iteration < iterations else None
                if reason is not None:  # at least one step ran: the checkpoint has an average
                    self.stopped = reason
                    out.append(self.checkpoint())
                    return out
            out.append(self.checkpoint())
            reason = stop(out[-1]) if stop is not None and self.iteration < iterations else None
            if reason is not None:  # e.g. a target NashConv reached: judged on the checkpoint's row
                self.stopped = reason
                return out
        return out
