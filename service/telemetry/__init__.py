"""What log lines carry: the request, game and seat."""
