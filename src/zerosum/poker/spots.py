"""Hold'em spots in one JSON file (the format of ``shared/data/poker-spots``), read into the
parameters of :class:`zerosum.poker.holdem.HoldemGame`.

Fields: ``board``, ``pot``, ``stack`` (effective), ``ranges`` (two strings, out of position first;
``""`` = every hole pair that misses the board), ``betting`` (``"no-limit"`` or ``"fixed-limit"``),
``streets`` (per street still to play: ``bet``, ``raise``, and ``donk`` lists of sizes, or ``oop``
and ``ip`` objects each with ``bet`` and ``raise``), optional ``add_allin_threshold``,
``force_allin_threshold``, ``merging_threshold`` (absent: 0, exactly the listed sizes) and
``rake`` (``{"rate": 0.05, "cap": 3}``: the house takes min(rate * pot, cap) of every pot won;
rate 0 for none, cap left out for none), ``same_sizes_for_both_players``
(informative), ``name``, and any ``notes`` or ``*_note`` text.  Any other field is refused, so a
misspelt threshold is not silently 0.
"""

from __future__ import annotations

import json

from ..errors import ZerosumError

REQUIRED = ("board", "pot", "stack", "ranges", "streets")
OPTIONAL = ("name", "betting", "add_allin_threshold", "force_allin_threshold", "merging_threshold", "rake",
            "same_sizes_for_both_players", "notes")
#: spot field -> HoldemGame parameter
THRESHOLDS = {"add_allin_threshold": "add_allin", "force_allin_threshold": "force_allin",
              "merging_threshold": "merging"}


def read_spot(path: str) -> dict:
    """The HoldemGame parameters of the spot file at ``path``; a bad file is one line."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ZerosumError(f"cannot read spot file {path!r}: {e.strerror or e}") from None
    try:
        spot = json.loads(text)
    except json.JSONDecodeError as e:
        raise ZerosumError(f"spot file {path!r} is not JSON: {e.msg} at line {e.lineno}") from None
    return spot_params(spot, path)


def spot_params(spot, where: str = "spot") -> dict:
    """The HoldemGame parameters of a spot already read from JSON (``where`` names it in errors)."""
    if not isinstance(spot, dict):
        raise ZerosumError(f"{where}: a spot is a JSON object with {', '.join(REQUIRED)}")
    missing = [k for k in REQUIRED if k not in spot]
    if missing:
        raise ZerosumError(f"{where} has no {missing[0]!r} field (a spot needs {', '.join(REQUIRED)}; see "
                           f"docs/cli.md, 'Hold'em spots')")
    unknown = [k for k in spot if k not in REQUIRED + OPTIONAL and not k.endswith("_note")]
    if unknown:
        raise ZerosumError(f"{where} has an unknown field {unknown[0]!r}; known: {', '.join(REQUIRED + OPTIONAL)}")
    kind = spot.get("betting", "no-limit")
    if kind not in ("no-limit", "fixed-limit"):
        raise ZerosumError(f"{where}: betting is \"no-limit\" or \"fixed-limit\", got {kind!r}")
    ranges = spot["ranges"]
    if not isinstance(ranges, list) or len(ranges) != 2 or not all(isinstance(r, str) for r in ranges):
        raise ZerosumError(f"{where}: ranges must be two strings (out of position first; \"\" for every hand)")
    streets = spot["streets"]
    if not isinstance(streets, dict):
        raise ZerosumError(f"{where}: streets must map each street to its sizes, e.g. "
                           f"{{\"river\": {{\"bet\": [\"50%\"], \"raise\": [\"2.5x\"]}}}}")
    if kind == "fixed-limit":
        for name, street in streets.items():
            for key, sizes in (street.items() if isinstance(street, dict) else ()):
                for t in (sizes if isinstance(sizes, list) else [sizes]):
                    if isinstance(t, str) and not t.strip().lower().rstrip("0123456789r").endswith("c"):
                        raise ZerosumError(f"{where}: fixed-limit sizes are constants in chips (4c, 4c2r), got "
                                           f"{t!r} in the {name} {key}")
    out = {"board": spot["board"], "pot": spot["pot"], "stack": spot["stack"], "range0": ranges[0],
           "range1": ranges[1], "betting": streets}
    for field, param in THRESHOLDS.items():
        if spot.get(field) is not None:
            out[param] = spot[field]
    if "rake" in spot:
        out["rake"] = spot["rake"]
    return out
