"""zerosum: solve two-player zero-sum games, exactly where they are small and fast where they are not."""

from .compiled import CompiledGame, compile_game, compiled
from .errors import ZerosumError
from .evaluation import Evaluation, best_response_value, evaluate, expected_value, exploitability, nash_conv
from .games import Game, known_games, load_game
from .policy import TabularPolicy
from .solvers import SOLVERS, CFRPlusSolver, CFRSolver

__version__ = "0.1.0"

__all__ = [
    "SOLVERS",
    "CFRPlusSolver",
    "CFRSolver",
    "CompiledGame",
    "Evaluation",
    "Game",
    "TabularPolicy",
    "ZerosumError",
    "best_response_value",
    "compile_game",
    "compiled",
    "evaluate",
    "expected_value",
    "exploitability",
    "known_games",
    "load_game",
    "nash_conv",
]
