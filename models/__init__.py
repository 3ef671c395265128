"""Plain-PyTorch models for attnscope: the course's reference modules and a zoo of buggy ones.

Nothing here imports `tracer` or `tui`; every file could be copied into a notebook.
"""
