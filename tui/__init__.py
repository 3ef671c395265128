"""attnscope's terminal UI: step through a recorded forward pass, and the course's demo page.

`tui.app.run_app(trace)` opens the debugger on a finished `tracer.Trace`; the `tui` and
`demo` commands come in through the "attnscope.commands" entry points (`tui.commands`).
Importing this package imports nothing heavy: Textual loads when an app starts.
"""
