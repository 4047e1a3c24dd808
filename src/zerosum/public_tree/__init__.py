"""The public-tree form: a public tree walked once per iteration with vectors over each player's private hands."""
