"""`--format json` (`--json`): exactly one JSON object per target and per line, in target order.

A target that could not be checked also gets its `attnscope: error: ...` line on standard
error, so a person watching an autograder sees it without parsing JSON.
"""

from __future__ import annotations

import json
import sys
from typing import Any


class JsonLines:
    def show(self, result: dict[str, Any]) -> None:
        if "error" in result:
            print(f"attnscope: error: {result['error']}", file=sys.stderr, flush=True)
        print(json.dumps(result), flush=True)

    def finish(self) -> None:
        pass
