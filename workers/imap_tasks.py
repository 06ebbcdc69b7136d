"""IMAP polling task (placeholder until the IMAP poller lands)."""
