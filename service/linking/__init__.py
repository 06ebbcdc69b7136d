"""Every link handed out: signed tokens, the URLs that carry them, the position marks that make a link stale."""
