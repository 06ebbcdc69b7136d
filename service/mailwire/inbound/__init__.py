"""Mail in: raw MIME bytes -> what a player wrote (`parse`), and the two ways of taking mail in
that this package runs itself (the SMTP receiver, the IMAP poller). Nothing here touches the
database or knows the use cases: the receivers are handed an `accept(raw) -> (id, new)`."""
