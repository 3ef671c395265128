"""attnscope's tracer: record a forward pass, name its axes, build its graph, check it.

    import tracer
    report = tracer.check(model, x)          # findings and summary of one forward pass
    with tracer.trace(model) as t:           # or record by hand
        model(x)
    t.graph, t.findings, t.summary
    t.save("run.attntrace")                  # a portable file: JSON + safetensors, no pickle
    tracer.load("run.attntrace")             # the same Trace, without the model's code

The names are imported on first use (PEP 562), so `import tracer.cli` or `tracer.findings`
does not pay for torch: `attnscope --help` answers before torch would have loaded.
"""

from __future__ import annotations

import sys
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

# Public name -> the module that defines it.
_EXPORTS = {
    "check": "api", "report_of": "api", "run_check": "api", "load": "api",
    "Finding": "findings", "Report": "findings",
    "RecordingError": "store",
    "Trace": "trace", "trace": "trace",
}

if TYPE_CHECKING:
    from .api import check, load, report_of, run_check
    from .findings import Finding, Report
    from .store import RecordingError
    from .trace import Trace, trace


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tracer' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value  # once: later lookups skip this function
    return value


class _Package(ModuleType):
    """`tracer.trace` is the function, also once the submodule of that name is imported.

    Importing `tracer.trace` (the module) sets the package's attribute to the module; an
    eager `from .trace import trace` used to overwrite it, and this keeps that promise lazily.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "trace" and isinstance(value, ModuleType):
            value = value.trace
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])


__all__ = ["Finding", "RecordingError", "Report", "Trace", "check", "load", "report_of", "run_check", "trace"]
