"""`premiere-bot account ...` and `premiere-bot bots ...`: an author's own account and bots,
over the arbiter's AuthorService (no operator needed).

The account token is read from --account-token, then $PREMIERE_ACCOUNT_TOKEN, then the file
`account create` offers to write (`$XDG_CONFIG_HOME/premiere/account.json`, default
`~/.config/premiere/account.json`, readable by its owner only). Tokens a command prints go
to standard output alone, so `export PREMIERE_BOT_TOKEN=$(premiere-bot bots create NAME)`
works; everything else goes to standard error.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc
from google.protobuf.timestamp_pb2 import Timestamp

from premiere_wire import author_pb2, author_pb2_grpc


def config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "premiere" / "account.json"


def save_token(arbiter: str, name: str, token: str) -> Path:
    """Write the account token to a file only its owner can read (created 0600 from the start,
    never widened)."""
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as out:
        json.dump({"arbiter": arbiter, "account": name, "token": token}, out)
    os.chmod(path, 0o600)
    return path


def stored_token() -> str | None:
    try:
        data = json.loads(config_path().read_text())
    except (OSError, ValueError):
        return None
    token = data.get("token") if isinstance(data, dict) else None
    return token if isinstance(token, str) and token else None


def add_commands(commands: Any, connection: Callable[[argparse.ArgumentParser], None]) -> None:
    account = commands.add_parser("account", help="your author account on an arena")
    verbs = account.add_subparsers(dest="verb", required=True, metavar="VERB")
    create = verbs.add_parser(
        "create",
        help="make an account and print its token once",
        description="Make an account on the arena and print its token, once. Sign-up may need"
        " an invite code from the arena's operator.",
    )
    create.add_argument("name", help="the account's name (letters, digits, . _ -)")
    create.add_argument("--invite", help="an invite code, where sign-up is by invite")
    create.add_argument(
        "--save",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=f"store the token in {config_path()} (owner-only); asked when interactive",
    )
    show = verbs.add_parser("show", help="the account your token logs in")
    for parser in (create, show):
        connection(parser)
        _account_token_option(parser)

    bots = commands.add_parser("bots", help="your account's bots")
    bot_verbs = bots.add_subparsers(dest="verb", required=True, metavar="VERB")
    for verb, text in (
        ("create", "register a bot and print its token once"),
        ("list", "your bots with their standing"),
        ("rotate-token", "print a new token for a bot; the old one stops working"),
        ("remove", "retire a bot and every version of it (its matches and ratings stay)"),
        ("versions", "a bot's versions, oldest first (* marks the one seated)"),
        ("activate", "seat one of a bot's versions from now on (a roll back)"),
        ("events", "a bot's standing (validating, rated, probation, ...) and why"),
        ("logs", "what a hosted bot printed, and what the runner said of it (yours only)"),
        ("notes", "the notes a bot attached to its answers, running matches too (yours only)"),
    ):
        parser = bot_verbs.add_parser(verb, help=text, description=text[0].upper() + text[1:])
        if verb != "list":
            parser.add_argument("name", help="the bot's name")
        if verb == "activate":
            parser.add_argument("version", help="one of its versions")
        if verb == "events":
            parser.add_argument(
                "--wait",
                metavar="STATE",
                help="wait until the bot's standing is STATE (e.g. rated: validation done);"
                " exits 1 if it fails validation or --timeout passes",
            )
            parser.add_argument(
                "--timeout", type=float, default=300, help="seconds --wait waits (default 300)"
            )
        if verb == "notes":
            parser.add_argument("--match", help="only the notes of this match")
            parser.add_argument(
                "--limit", type=int, default=100, help="the newest notes to show (default 100)"
            )
        if verb == "logs":
            parser.add_argument("--match", help="only the lines printed during this match")
            parser.add_argument(
                "--lines", type=int, default=200, help="the newest lines to show (default 200)"
            )
        connection(parser)
        _account_token_option(parser)

    events = commands.add_parser("events", help="the arena's events, and entering them")
    event_verbs = events.add_subparsers(dest="verb", required=True, metavar="VERB")
    for verb, text in (
        ("list", "the arena's events: state, start, entry rules, entrants"),
        ("enter", "enter one of your bots in an event whose entry is open"),
        ("withdraw", "withdraw one of your bots from an event before its start"),
        ("create", "propose an event, where the arena's operator lets authors"),
    ):
        parser = event_verbs.add_parser(verb, help=text, description=text[0].upper() + text[1:])
        if verb == "create":
            parser.add_argument("event", help="the event's name")
            parser.add_argument("--game", required=True, help="the game played")
            parser.add_argument("--format", required=True, help="its league format")
            parser.add_argument("--players", type=int, default=2, help="seats a table (2)")
            parser.add_argument("--opens", default="now", help="entry opens: now, +10m, ISO time")
            parser.add_argument("--starts", required=True, help="it starts: +1h, +2d, ISO time")
            parser.add_argument("--rounds", type=int, default=0, help="rounds (0: natural)")
            parser.add_argument("--min-games", type=int, default=0, help="rated games to enter")
            parser.add_argument("--min-rating", type=float, help="rating needed to enter")
            parser.add_argument("--hosted-only", action="store_true", help="hosted bots only")
        elif verb != "list":
            parser.add_argument("event", help="the event's name")
            parser.add_argument("--bot", required=True, help="one of your bots")
        connection(parser)
        _account_token_option(parser)

    upload = commands.add_parser(
        "upload",
        help="pack a bundle folder and upload it as a new version of a hosted bot",
        description="Pack DIR (a folder with premiere-bot.toml at its root, docs/hosting.md),"
        " check it as the arena will, stream it to the arena and print the new version. The"
        " arena runs it in its sandbox whenever it has matches to play.",
    )
    upload.add_argument("folder", metavar="DIR", help="the bundle's folder")
    upload.add_argument("--bot", required=True, help="one of your bots (bots create NAME)")
    upload.add_argument("--version", default="", help="the version to make (default: the next)")
    connection(upload)
    _account_token_option(upload)


def _account_token_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--account-token",
        default=os.environ.get("PREMIERE_ACCOUNT_TOKEN"),
        help="the account token (default: $PREMIERE_ACCOUNT_TOKEN, else the stored one)",
    )


def _err(text: str) -> None:
    print(text, file=sys.stderr)


class Refused(RuntimeError):
    pass


async def _call(args: argparse.Namespace, method: str, request: Any, token: str | None) -> Any:
    """AuthorService.``method``(request), with the account token when given."""
    ca = Path(args.ca).read_bytes() if args.ca else None
    channel = (
        grpc.aio.secure_channel(args.arbiter, grpc.ssl_channel_credentials(root_certificates=ca))
        if args.tls or ca is not None
        else grpc.aio.insecure_channel(args.arbiter)
    )
    metadata = (("authorization", f"Bearer {token}"),) if token else ()
    async with channel:
        stub = author_pb2_grpc.AuthorServiceStub(channel)
        try:
            return await getattr(stub, method)(request, metadata=metadata, timeout=30)
        except grpc.aio.AioRpcError as error:
            if error.code() == grpc.StatusCode.UNAVAILABLE:
                raise Refused(
                    f"cannot reach the arbiter at {args.arbiter}; is it running, and is the"
                    " address right?"
                ) from None
            raise Refused(f"{error.details()} ({error.code().name})") from None


def main(args: argparse.Namespace) -> int:
    try:
        if args.command == "account":
            return asyncio.run(_account(args))
        if args.command == "upload":
            return asyncio.run(_upload(args))
        if args.command == "events":
            return asyncio.run(_event_commands(args))
        return asyncio.run(_bots(args))
    except Refused as error:
        _err(f"premiere-bot: {error}")
        return 1


def _token(args: argparse.Namespace) -> str:
    token = args.account_token or stored_token()
    if not token:
        raise Refused(
            "no account token: run `premiere-bot account create NAME` first, or set"
            " PREMIERE_ACCOUNT_TOKEN"
        )
    return str(token)


async def _account(args: argparse.Namespace) -> int:
    if args.verb == "show":
        reply = await _call(args, "GetAccount", author_pb2.GetAccountRequest(), _token(args))
        print(f"{reply.name}: {reply.state}, {reply.bots} of {reply.max_bots} bots")
        return 0
    created = await _call(
        args,
        "CreateAccount",
        author_pb2.CreateAccountRequest(name=args.name, invite=args.invite or ""),
        None,
    )
    print(created.token)
    save = args.save
    if save is None and sys.stdin.isatty():
        answer = input(f"store the token in {config_path()} (readable by you only)? [Y/n] ")
        save = answer.strip().lower() in ("", "y", "yes")
    if save:
        path = save_token(args.arbiter, created.name, created.token)
        _err(f"account {created.name} created; its token is stored in {path}")
    else:
        _err(
            f"account {created.name} created; keep the token above (it is shown once) and"
            " set PREMIERE_ACCOUNT_TOKEN to it"
        )
    return 0


async def _bots(args: argparse.Namespace) -> int:
    token = _token(args)
    verb = args.verb
    if verb == "create":
        made = await _call(args, "CreateBot", author_pb2.CreateBotRequest(name=args.name), token)
        print(made.token)
        _err(
            f"bot {made.name} created; run it with PREMIERE_BOT_TOKEN set to the token above"
            " (shown once): `premiere-bot run module:Class`"
        )
    elif verb == "list":
        listed = await _call(args, "ListBots", author_pb2.ListBotsRequest(), token)
        if not listed.bots:
            _err("no bots yet; `premiere-bot bots create NAME` registers one")
        for bot in listed.bots:
            plays = ", ".join(bot.games) or "every game" if bot.connected else "never connected"
            print(f"{bot.name:<28} {bot.state or '-':<11} {bot.active:<36} {plays}")
    elif verb == "rotate-token":
        rotated = await _call(
            args,
            "RotateBotToken",
            author_pb2.RotateBotTokenRequest(name=args.name),
            token,
        )
        print(rotated.token)
        _err(f"new token for {args.name}; the old one logs in no more")
    elif verb == "remove":
        removed = await _call(args, "RemoveBot", author_pb2.RemoveBotRequest(name=args.name), token)
        _err(f"{args.name} removed ({removed.retired} version(s)); its matches and ratings stay")
    elif verb == "versions":
        found = await _call(
            args, "ListVersions", author_pb2.ListVersionsRequest(name=args.name), token
        )
        for v in found.versions:
            after = f"after {v.predecessor}" if v.predecessor else "first"
            print(f"{'*' if v.active else ' '} {v.name:<40} {v.version or '-':<12} {after}")
    elif verb == "activate":
        active = await _call(
            args,
            "ActivateVersion",
            author_pb2.ActivateVersionRequest(name=args.name, version=args.version),
            token,
        )
        print(f"{args.name} plays as {active.active} from now on")
    elif verb == "logs":
        got = await _call(
            args,
            "GetBotLogs",
            author_pb2.GetBotLogsRequest(
                name=args.name, match_id=args.match or "", limit=max(1, min(args.lines, 1000))
            ),
            token,
        )
        if not got.lines:
            _err(f"no output of {args.name} kept (is it a hosted bot? has it played?)")
        for line in got.lines:
            when = line.at.ToDatetime().strftime("%Y-%m-%d %H:%M:%S")
            print(f"{when} {line.source:<6} {line.line}")
    elif verb == "notes":
        got = await _call(
            args,
            "GetBotNotes",
            author_pb2.GetBotNotesRequest(
                name=args.name, match_id=args.match or "", limit=max(1, min(args.limit, 500))
            ),
            token,
        )
        if not got.notes:
            _err(f"no notes of {args.name} (its answers carry none yet)")
        for note in got.notes:
            state = "ended" if note.ended else "running"
            print(f"{note.match_id} {state:<7} move {note.ply:<4} seat {note.seat}  {note.note}")
    else:
        events = await _events(args, token)
        if args.wait and events.state != args.wait:
            _show(events)
            return 1
        _show(events)
    return 0


async def _events(args: argparse.Namespace, token: str) -> author_pb2.GetBotEventsResponse:
    """The bot's standing; with --wait, once it is that state (or failed, or timed out)."""
    deadline = time.monotonic() + args.timeout
    while True:
        events: author_pb2.GetBotEventsResponse = await _call(
            args, "GetBotEvents", author_pb2.GetBotEventsRequest(name=args.name), token
        )
        done = events.state in (args.wait, "failed", "disabled")
        if not args.wait or done or time.monotonic() > deadline:
            return events
        await asyncio.sleep(1.0)


def _show(events: author_pb2.GetBotEventsResponse) -> None:
    print(f"{events.name}: {events.state or 'no standing yet (not connected)'}")
    if events.reason:
        print(f"  {events.reason}")
    for event in events.events:
        when = event.at.ToDatetime().strftime("%Y-%m-%d %H:%M:%S")
        print(f"{when}  {event.kind:<18} {event.message}")


_IN = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def _moment(text: str, now: datetime.datetime) -> datetime.datetime:
    """ "now", "+10m" (from now) or an ISO 8601 time (UTC unless it says otherwise)."""
    if text == "now":
        return now
    if text.startswith("+") and text[-1:] in _IN and text[1:-1].isdigit():
        return now + datetime.timedelta(seconds=int(text[1:-1]) * _IN[text[-1]])
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise Refused(f"expected now, +30s, +10m, +2h, +1d or an ISO time, not {text!r}") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=datetime.UTC)


async def _event_commands(args: argparse.Namespace) -> int:
    token = _token(args)
    if args.verb == "list":
        listed = await _call(args, "ListEvents", author_pb2.ListEventsRequest(), token)
        if not listed.events:
            _err("no events on this arena yet")
        for event in listed.events:
            starts = event.starts_at.ToDatetime().strftime("%Y-%m-%d %H:%M:%S")
            print(
                f"{event.name:<24} {event.state:<10} {event.game:<14} {event.format:<14}"
                f" starts {starts} UTC  {len(event.entrants)} entered"
            )
            print(f"  entry: {'; '.join(event.rules)}")
            if event.entrants:
                print(f"  entrants: {', '.join(event.entrants)}")
            if event.reason:
                print(f"  {event.reason}")
    elif args.verb == "create":
        now = datetime.datetime.now(datetime.UTC)
        opens, starts = Timestamp(), Timestamp()
        opens.FromDatetime(_moment(args.opens, now))
        starts.FromDatetime(_moment(args.starts, now))
        request = author_pb2.CreateEventRequest(
            name=args.event,
            game=args.game,
            format=args.format,
            players=args.players,
            opens_at=opens,
            starts_at=starts,
            rounds=args.rounds,
            min_games=args.min_games,
            hosted_only=args.hosted_only,
        )
        if args.min_rating is not None:
            request.min_rating = args.min_rating
        made = await _call(args, "CreateEvent", request, token)
        print(f"event {made.name} proposed; the arena announces it within a few seconds")
    elif args.verb == "enter":
        entered = await _call(
            args, "EnterEvent", author_pb2.EnterEventRequest(event=args.event, bot=args.bot), token
        )
        print(f"{args.bot} entered in {args.event} ({entered.entrants} entered)")
    else:
        left = await _call(
            args,
            "WithdrawEvent",
            author_pb2.WithdrawEventRequest(event=args.event, bot=args.bot),
            token,
        )
        print(f"{args.bot} withdrawn from {args.event} ({left.entrants} entered)")
    return 0


CHUNK = 64 << 10


async def _upload(args: argparse.Namespace) -> int:
    from premiere_wire.bundle import BundleError, digest, pack

    token = _token(args)
    try:
        data = pack(Path(args.folder))
    except (BundleError, OSError) as error:
        raise Refused(f"{args.folder} is not a bundle the arena would take: {error}") from None
    sha256 = digest(data)

    async def parts() -> Any:
        yield author_pb2.UploadBundleRequest(
            header=author_pb2.UploadBundleHeader(
                bot=args.bot, version=args.version, size=len(data), sha256=sha256
            )
        )
        for start in range(0, len(data), CHUNK):
            yield author_pb2.UploadBundleRequest(chunk=data[start : start + CHUNK])

    _err(f"uploading {len(data)} bytes ({sha256[:12]}) to {args.arbiter} ...")
    reply = await _call(args, "UploadBundle", parts(), token)
    games = ", ".join(reply.games) or "every game"
    print(reply.name)
    _err(
        f"{reply.name} stored ({reply.stored_bytes} of {reply.quota_bytes} bytes of your quota);"
        f" it plays {games} once validated: `premiere-bot bots events {args.bot}`"
    )
    return 0
