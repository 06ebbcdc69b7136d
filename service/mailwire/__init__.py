"""Mail in two directions that never import each other: `outbound` (templates, composing an
email from a seat's page, transports) and `inbound` (reading raw MIME into what a player
wrote, the SMTP receiver and IMAP poller that take it in). What both must agree on lives here."""

#: The line our outgoing emails put above their content; the inbound reader cuts everything
#: from it down. One constant, so what we write and what we cut cannot drift apart.
REPLY_MARKER = "-- reply above this line --"
