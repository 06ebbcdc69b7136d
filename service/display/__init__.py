"""How games look: the seat page, the board picture, card faces and suit symbols, the lobby's rulebook."""
