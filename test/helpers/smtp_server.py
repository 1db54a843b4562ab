"""A real SMTP server for the tests (Debian's python3-aiosmtpd), started by smtp-server.ts.

Messages are kept in a Maildir (DIR/new). Options make it behave like servers the service meets:
STARTTLS or implicit TLS (smtps) with a given certificate, AUTH PLAIN/LOGIN required, a slow
answer to DATA, temporary failures (451) for the first N messages, recipients refused for good (550).
Prints "ready <port>" once it listens; stops on SIGTERM.
"""
import argparse
import asyncio
import os
import signal
import ssl
import sys

from aiosmtpd.controller import Controller
from aiosmtpd.handlers import Mailbox
from aiosmtpd.smtp import AuthResult, LoginPassword


class TestMailbox(Mailbox):
    def __init__(self, maildir, delay, fail_first, reject):
        super().__init__(maildir)
        self.path = maildir
        self.seq = 0
        self.delay = delay
        self.fail_first = fail_first
        self.reject = set(reject)

    def handle_message(self, message):
        # Python's Maildir names files by second and unpadded microseconds, which do not sort in the
        # order of arrival; the tests read "what came after the first N", so names here are a
        # zero-padded sequence number. Written in tmp/ and renamed, so a reader never sees half.
        self.seq += 1
        name = "%08d.%d" % (self.seq, os.getpid())
        tmp = os.path.join(self.path, "tmp", name)
        with open(tmp, "wb") as f:
            f.write(message.as_bytes())
        os.rename(tmp, os.path.join(self.path, "new", name))

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.reject:
            return "550 5.1.1 No such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.fail_first > 0:
            self.fail_first -= 1
            return "451 4.3.0 Try again later"
        if self.delay > 0:
            await asyncio.sleep(self.delay)
        return await super().handle_DATA(server, session, envelope)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--dir", required=True)
    p.add_argument("--cert")
    p.add_argument("--key")
    p.add_argument("--smtps", action="store_true")
    p.add_argument("--auth", help="user:password required")
    p.add_argument("--delay-ms", type=int, default=0)
    p.add_argument("--fail-first", type=int, default=0)
    p.add_argument("--reject", action="append", default=[])
    a = p.parse_args()

    handler = TestMailbox(a.dir, a.delay_ms / 1000, a.fail_first, a.reject)
    kwargs = {}
    context = None
    if a.cert:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(a.cert, a.key)
    if a.auth:
        user, password = a.auth.split(":", 1)

        def authenticator(server, session, envelope, mechanism, data):
            ok = isinstance(data, LoginPassword) and data.login.decode() == user and data.password.decode() == password
            return AuthResult(success=ok)

        kwargs.update(authenticator=authenticator, auth_required=True, auth_require_tls=context is not None and not a.smtps)
    if context and not a.smtps:
        kwargs.update(tls_context=context, require_starttls=True)
    controller = Controller(handler, hostname="127.0.0.1", port=a.port, ssl_context=context if a.smtps else None, **kwargs)
    controller.start()
    print(f"ready {a.port}", flush=True)
    stop = asyncio.new_event_loop()
    signal.signal(signal.SIGTERM, lambda *_: stop.call_soon_threadsafe(stop.stop))
    signal.signal(signal.SIGINT, lambda *_: stop.call_soon_threadsafe(stop.stop))
    stop.run_forever()
    controller.stop()
    sys.exit(0)


if __name__ == "__main__":
    main()
