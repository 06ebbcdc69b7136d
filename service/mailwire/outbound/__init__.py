"""Mail out: the Jinja environment of the email templates, composing an email from what a seat
is shown (a `presenting.SeatPage`) and its links, and the transports that hand it on (SMTP,
Maildir). Nothing here touches the database: the use cases (`service.play.deliver`) load what to
show and call these."""
