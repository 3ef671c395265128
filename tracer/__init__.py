"""attnscope's tracer: record a forward pass, name its axes, build its graph, check it.

    import tracer
    report = tracer.check(model, x)          # findings and summary of one forward pass
    with tracer.trace(model) as t:           # or record by hand
        model(x)
    t.graph, t.findings, t.summary
    t.save("run.attntrace")                  # a portable file: JSON + safetensors, no pickle
    tracer.load("run.attntrace")             # the same Trace, without the model's code
"""

from .api import check, report_of, run_check
from .findings import Finding, Report
from .store import RecordingError, load
from .trace import Trace, trace

__all__ = ["Finding", "RecordingError", "Report", "Trace", "check", "load", "report_of", "run_check", "trace"]
