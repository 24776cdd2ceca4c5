"""One module per game: its sheet layout (and, later, its rules)."""
