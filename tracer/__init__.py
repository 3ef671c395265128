"""attnscope's tracer: record a forward pass, name its axes, build its graph, check it.

    import tracer
    report = tracer.check(model, x)          # findings and summary of one forward pass
    with tracer.trace(model) as t:           # or record by hand
        model(x)
    t.graph, t.findings, t.summary
"""

from .api import check, run_check
from .findings import Finding, Report
from .trace import Trace, trace

__all__ = ["Finding", "Report", "Trace", "check", "run_check", "trace"]
