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

    def run(self, iterations: int, checkpoints=(), progress=None) -> list[dict]:
        """Iterate up to ``iterations`` (a total, counting from the solver's current iteration),
        recording a checkpoint at each requested iteration; ``progress(advance)`` is called as it goes."""
        iterations = check_iterations(iterations)
        marks = sorted({c for c in checkpoints if self.iteration < c <= iterations} | {iterations})
        out = []
        for m in marks:
            while self.iteration < m:
                step = min(m - self.iteration, self.progress_step)
                self.iterate(step)
                if progress is not None:
                    progress(step)
            out.append(self.checkpoint())
        return out
