"""Work spread over a Ray cluster: the public-tree solver split at public chance, and experiments'
independent runs.  Nothing here imports Ray until a ``--ray`` option asks for it."""
