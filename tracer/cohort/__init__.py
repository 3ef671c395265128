"""Checking many targets safely: each in its own child process, in parallel, locally or on Dask.

Student code is untrusted code. A submission that loops, crashes the interpreter, exits,
allocates without bound or prints must cost only its own result. The pieces, one job each:

- `jobs`: what one check needs (target, options, limits), as plain data;
- `zygote`: the warm parent: a process that has imported torch and attnscope once and
  forks one child per target, enforcing its timeout, and collecting its result and output;
- `child`: what runs inside that child: limits, captured output, the check itself;
- `outcome`: how a child's end (result, exit status, signal, timeout) becomes one object;
- `client`: talks to a zygote from another process (the CLI, or a Dask worker);
- `local` and `dask`: run a list of jobs N at a time here, or on a Dask cluster;
- `results`: the resumable results file (`--results FILE.jsonl`).
"""
