"""An SMTP sink for the benchmarks: accepts every message and logs when it arrived. It offers
PIPELINING, as the relays it stands for do (Postfix, Exim, the hosted ones; RFC 2920):
aiosmtpd reads pipelined commands in order but does not say so itself. Plain smtplib, the
floor, ignores the offer.

    python bench/sink.py PORT LOGFILE      (one line per message: arrival time, Message-ID)"""
import sys
import time

from aiosmtpd.controller import Controller


class Handler:
    def __init__(self, log):
        self.log = log

    async def handle_EHLO(self, server, session, envelope, hostname, responses):
        session.host_name = hostname
        return [*responses[:-1], "250-PIPELINING", responses[-1]]

    async def handle_DATA(self, server, session, envelope):
        mid = b""
        for line in envelope.content.split(b"\n", 60):
            if line.lower().startswith(b"message-id:"):
                mid = line.split(b":", 1)[1].strip()
                break
        self.log.write(f"{time.time():.6f} {mid.decode(errors='replace')}\n")
        return "250 OK"


if __name__ == "__main__":
    port, path = int(sys.argv[1]), sys.argv[2]
    with open(path, "a", buffering=1) as log:
        controller = Controller(Handler(log), hostname="127.0.0.1", port=port)
        controller.start()
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
        finally:
            controller.stop()
