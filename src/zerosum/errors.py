"""The one exception type users see: a bad game name, bad parameters, a mismatched file.

The CLI turns it into a one-line message and a non-zero exit code; library callers catch it
like any ValueError.
"""


class ZerosumError(ValueError):
    """Raised for input that zerosum refuses, with a message meant for a person."""
