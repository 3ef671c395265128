"""Whether a recording's parts agree with each other: no event cut out, none cut off.

The schema (`recording_schema`) checks each part's shape; an edited or truncated file can
pass it and still be no recording of a forward pass: `"events": []` beside the module calls
that ran them, or the events cut short. Analysed anyway, such a file crashes a check or
reports "no findings" for a model it never saw, so it is refused with the first
inconsistency, in words. Every check here holds by construction for what the recorder
writes: events are numbered in order, a module call's events lie inside the list, and
every output was made by an event or is a source.
"""

from __future__ import annotations

from .events import Recording


def inconsistency(recording: Recording) -> str | None:
    """The first way the recording's parts disagree, as a phrase; None when they agree."""
    events = recording.events
    for position, event in enumerate(events):
        if event.index != position:
            return f"events[{position}] is op #{event.index}: events before it are missing"
    if recording.forward_passes and not recording.module_calls:
        return f"{recording.forward_passes} forward passes but no module call"
    for call in recording.module_calls:
        if not 0 <= call.first_event <= call.end_event <= len(events):
            name = call.path or call.type_name
            return (f"module call {name} ran events {call.first_event} to {call.end_event}, "
                    f"but the recording has {len(events)}: its events were cut")
    made = set(recording.sources) | {output.vid for event in events for output in event.outputs}
    missing = [output.vid for output in recording.outputs if output.vid not in made]
    if missing:
        return f"the output value {missing[0]} was made by no recorded event: the events were cut"
    return None
