"""AuthorService: bot authors make an account and manage their own bots over the network.

Thin around ``server.accounts`` (the account checks and caps) and ``server.bots`` (versions,
tokens, removal): every call but CreateAccount first finds the account its token logs in, then
the named bot *within that account*, so an author can reach no other account's bot.
"""

from __future__ import annotations

import asyncio
import datetime
import hashlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any, NoReturn, TypeVar

import grpc
import psycopg
from google.protobuf.timestamp_pb2 import Timestamp
from psycopg.rows import dict_row

from premiere.entry_rules import describe
from premiere_wire import author_pb2, author_pb2_grpc
from premiere_wire.bundle import BundleError, Caps
from server import accounts, bots, bundles, entries, notes
from server.config import ArbiterSettings
from server.gateway import bearer_token
from server.limits import Rate, peer_host

_T = TypeVar("_T")
log = logging.getLogger("premiere.authors")

SIGNUPS_PER_MINUTE = 10
"""Accounts one network address may make a minute (whatever the sign-up mode)."""

_CODES: tuple[tuple[type[accounts.AccountError], grpc.StatusCode], ...] = (
    (accounts.NotFound, grpc.StatusCode.NOT_FOUND),
    (accounts.Exists, grpc.StatusCode.ALREADY_EXISTS),
    (accounts.Forbidden, grpc.StatusCode.PERMISSION_DENIED),
    (accounts.QuotaExceeded, grpc.StatusCode.RESOURCE_EXHAUSTED),
)


def _timestamp(moment: datetime.datetime | None) -> Timestamp | None:
    if moment is None:
        return None
    stamp = Timestamp()
    stamp.FromDatetime(moment.astimezone(datetime.UTC))
    return stamp


async def _fail(context: grpc.aio.ServicerContext[Any, Any], error: Exception) -> NoReturn:
    code = grpc.StatusCode.INVALID_ARGUMENT
    for kind, status in _CODES:
        if isinstance(error, kind):
            code = status
    if isinstance(error, bots.VersionQuota):
        code = grpc.StatusCode.RESOURCE_EXHAUSTED
    if isinstance(error, (bots.UnknownBot, LookupError)) and not isinstance(error, KeyError):
        code = grpc.StatusCode.NOT_FOUND
    if isinstance(error, entries.EntryRefused):
        code = grpc.StatusCode.FAILED_PRECONDITION
    await context.abort(code, str(error).strip("'\""))
    raise AssertionError("unreachable")


async def _clean(context: grpc.aio.ServicerContext[Any, Any], **fields: str) -> None:
    """INVALID_ARGUMENT naming the first field that holds a NUL character (PostgreSQL text
    cannot hold one: it would fail in the database, as INTERNAL)."""
    for field, value in fields.items():
        if "\x00" in value:
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT, f"{field} may not contain NUL characters"
            )


class AuthorService(author_pb2_grpc.AuthorServiceServicer):
    def __init__(self, database_url: str, settings: ArbiterSettings) -> None:
        self.database_url = database_url
        self.settings = settings
        self.signups: dict[str, Rate] = {}

    def caps(self) -> Caps:
        return Caps(
            max_bytes=self.settings.bundle_max_mb << 20,
            max_unpacked_bytes=self.settings.bundle_unpacked_mb << 20,
            max_files=self.settings.bundle_max_files,
        )

    async def _call(
        self, context: grpc.aio.ServicerContext[Any, Any], work: Callable[..., _T], *args: Any
    ) -> _T:
        try:
            return await asyncio.to_thread(work, self.database_url, *args)
        except (accounts.AccountError, bots.UnknownBot, LookupError, ValueError) as error:
            await _fail(context, error)

    async def _account(self, context: grpc.aio.ServicerContext[Any, Any]) -> accounts.Account:
        token = bearer_token(context)
        account = await self._call(context, accounts.account_by_token, token) if token else None
        if account is None:
            await context.abort(
                grpc.StatusCode.UNAUTHENTICATED,
                "send 'authorization: Bearer <account token>' with the token"
                " `premiere-bot account create` printed (a bot token is not an account token)",
            )
            raise AssertionError("unreachable")
        return account

    async def _own(self, context: grpc.aio.ServicerContext[Any, Any], name: str) -> str:
        await _clean(context, name=name)
        account = await self._account(context)
        return await self._call(context, accounts.bot_of, account, name[:200])

    async def CreateAccount(
        self,
        request: author_pb2.CreateAccountRequest,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> author_pb2.CreateAccountResponse:
        await _clean(context, name=request.name, invite=request.invite)
        rate = self.signups.setdefault(peer_host(context.peer()), Rate(SIGNUPS_PER_MINUTE))
        if not rate.allow():
            await context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"at most {SIGNUPS_PER_MINUTE} accounts a minute from one address",
            )
        token = await self._call(
            context,
            accounts.create_account,
            request.name[:200],
            self.settings.signup,
            request.invite[:200] or None,
        )
        return author_pb2.CreateAccountResponse(name=request.name, token=token)

    async def GetAccount(
        self, request: author_pb2.GetAccountRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> author_pb2.GetAccountResponse:
        account = await self._account(context)
        owned = await self._call(context, accounts.owned_bots, account)
        return author_pb2.GetAccountResponse(
            name=account.name,
            state=account.state,
            created_at=_timestamp(account.created_at),
            bots=len(owned),
            max_bots=self.settings.max_bots_per_account,
        )

    async def CreateBot(
        self, request: author_pb2.CreateBotRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> author_pb2.CreateBotResponse:
        await _clean(context, name=request.name)
        account = await self._account(context)
        token = await self._call(
            context,
            accounts.create_bot,
            account,
            request.name[:200],
            self.settings.max_bots_per_account,
        )
        return author_pb2.CreateBotResponse(name=request.name, token=token)

    async def ListBots(
        self, request: author_pb2.ListBotsRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> author_pb2.ListBotsResponse:
        account = await self._account(context)
        owned = await self._call(context, accounts.owned_bots, account)
        return author_pb2.ListBotsResponse(
            bots=[
                author_pb2.AuthorBot(
                    name=bot.name,
                    created_at=_timestamp(bot.created_at),
                    games=bot.games or (),
                    connected=bot.games is not None,
                    last_connected_at=_timestamp(bot.last_connected_at),
                    versions=bot.versions,
                    active=bot.active,
                    state=bot.state or "",
                    reason=bot.reason,
                )
                for bot in owned
            ]
        )

    async def RotateBotToken(
        self,
        request: author_pb2.RotateBotTokenRequest,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> author_pb2.RotateBotTokenResponse:
        root = await self._own(context, request.name)
        token = await self._call(context, bots.rotate_token, root)
        return author_pb2.RotateBotTokenResponse(token=token)

    async def RemoveBot(
        self, request: author_pb2.RemoveBotRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> author_pb2.RemoveBotResponse:
        await self._own(context, request.name)
        retired = await self._call(context, bots.remove_bot, request.name)
        return author_pb2.RemoveBotResponse(retired=retired)

    async def ListVersions(
        self,
        request: author_pb2.ListVersionsRequest,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> author_pb2.ListVersionsResponse:
        root = await self._own(context, request.name)
        entries = await self._call(context, bots.lineage, root)
        return author_pb2.ListVersionsResponse(
            versions=[
                author_pb2.BotVersion(
                    name=entry.name,
                    version=entry.version or "",
                    predecessor=entry.predecessor or "",
                    active=entry.active,
                    created_at=_timestamp(entry.created_at),
                )
                for entry in entries
            ]
        )

    async def ActivateVersion(
        self,
        request: author_pb2.ActivateVersionRequest,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> author_pb2.ActivateVersionResponse:
        await _clean(context, version=request.version)
        root = await self._own(context, request.name)
        active = await self._call(context, bots.activate_version, root, request.version[:40])
        return author_pb2.ActivateVersionResponse(active=active)

    async def GetBotEvents(
        self,
        request: author_pb2.GetBotEventsRequest,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> author_pb2.GetBotEventsResponse:
        root = await self._own(context, request.name)
        name = request.name
        if name == root:  # a bot's name: the standing of the version it seats
            _, name = await self._call(context, bots.active_version, root)
        found = await self._call(context, _standing, name)
        return author_pb2.GetBotEventsResponse(
            name=found["name"],
            state=found["state"] or "",
            reason=found["reason"] or "",
            events=[
                author_pb2.BotEvent(at=_timestamp(e["at"]), kind=e["kind"], message=e["message"])
                for e in found["events"]
            ],
        )

    async def UploadBundle(
        self,
        request_iterator: AsyncIterator[author_pb2.UploadBundleRequest],
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> author_pb2.UploadBundleResponse:
        account = await self._account(context)
        if not self.settings.hosted:
            await context.abort(
                grpc.StatusCode.FAILED_PRECONDITION,
                "this arena runs no hosted bots (PREMIERE_HOSTED is off: its operator runs no"
                " runner); connect your bot yourself with `premiere-bot run`",
            )
        caps = self.caps()
        header: author_pb2.UploadBundleHeader | None = None
        data = bytearray()
        async for part in request_iterator:
            if header is None:
                if part.WhichOneof("part") != "header":
                    await context.abort(
                        grpc.StatusCode.INVALID_ARGUMENT, "send the header first, then chunks"
                    )
                header = part.header
                await _clean(context, bot=header.bot, version=header.version)
                if not 0 < header.size <= caps.max_bytes:
                    await context.abort(
                        grpc.StatusCode.INVALID_ARGUMENT,
                        f"a bundle is 1 byte to {caps.max_bytes >> 20} MiB"
                        f" (PREMIERE_BUNDLE_MAX_MB), not {header.size}",
                    )
                continue
            if part.WhichOneof("part") != "chunk" or len(part.chunk) > 64 << 10:
                await context.abort(
                    grpc.StatusCode.INVALID_ARGUMENT, "after the header, chunks of at most 64 KiB"
                )
            data += part.chunk
            if len(data) > header.size:
                await context.abort(
                    grpc.StatusCode.INVALID_ARGUMENT,
                    f"more bytes than the header's size ({header.size})",
                )
        if header is None or len(data) != header.size:
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                "the upload ended early: send a header and every chunk of the archive",
            )
        assert header is not None
        if header.sha256 and header.sha256 != hashlib.sha256(data).hexdigest():
            await context.abort(
                grpc.StatusCode.DATA_LOSS, "the archive's SHA-256 differs from the header's"
            )
        root = await self._call(context, accounts.bot_of, account, header.bot[:200])
        if root != header.bot:
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT, "upload to a bot's name, not NAME@VERSION"
            )
        try:
            stored = await asyncio.to_thread(
                bundles.store,
                self.database_url,
                account,
                root,
                header.version[:40],
                bytes(data),
                caps,
                self.settings.bundle_quota_mb << 20,
                self.settings.max_versions_per_day,
            )
        except BundleError as error:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"bundle refused: {error}")
        except (accounts.AccountError, bots.UnknownBot, LookupError, ValueError) as error:
            await _fail(context, error)
        log.info("account %s uploaded %s (%s)", account.name, stored.name, stored.sha256[:12])
        return author_pb2.UploadBundleResponse(
            name=stored.name,
            version=stored.version,
            sha256=stored.sha256,
            stored_bytes=stored.stored_bytes,
            quota_bytes=stored.quota_bytes,
            games=stored.games,
        )

    async def GetBotLogs(
        self, request: author_pb2.GetBotLogsRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> author_pb2.GetBotLogsResponse:
        await _clean(context, match_id=request.match_id)
        root = await self._own(context, request.name)
        limit = request.limit if 0 < request.limit <= 1000 else 1000
        lines = await self._call(
            context, bundles.logs, root, request.name[:200], request.match_id[:64] or None, limit
        )
        return author_pb2.GetBotLogsResponse(
            lines=[
                author_pb2.BotLogLine(
                    at=_timestamp(row["at"]),
                    source=row["source"],
                    line=row["line"],
                    name=row["name"],
                )
                for row in lines
            ]
        )

    async def GetBotNotes(
        self, request: author_pb2.GetBotNotesRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> author_pb2.GetBotNotesResponse:
        await _clean(context, match_id=request.match_id)
        root = await self._own(context, request.name)
        limit = request.limit if 0 < request.limit <= notes.MAX_NOTES else notes.MAX_NOTES
        found = await self._call(
            context, notes.notes, root, request.name[:200], request.match_id[:64] or None, limit
        )
        return author_pb2.GetBotNotesResponse(notes=[author_pb2.BotNote(**row) for row in found])

    async def ListEvents(
        self, request: author_pb2.ListEventsRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> author_pb2.ListEventsResponse:
        await self._account(context)
        found = await self._call(context, entries.list_events)
        return author_pb2.ListEventsResponse(
            events=[
                author_pb2.Event(
                    name=row["name"],
                    game=row["game"],
                    format=row["format"],
                    players=row["players"],
                    state=row["status"],
                    opens_at=_timestamp(row["opens_at"]),
                    starts_at=_timestamp(row["starts_at"]),
                    rules=describe(row),
                    entrants=entrants,
                    reason=row["reason"],
                )
                for row, entrants in found
            ]
        )

    async def EnterEvent(
        self, request: author_pb2.EnterEventRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> author_pb2.EnterEventResponse:
        await _clean(context, event=request.event, bot=request.bot)
        account = await self._account(context)
        count = await self._call(
            context, entries.enter, account, request.event[:200], request.bot[:200]
        )
        return author_pb2.EnterEventResponse(entrants=count)

    async def CreateEvent(
        self, request: author_pb2.CreateEventRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> author_pb2.CreateEventResponse:
        await _clean(context, name=request.name, game=request.game, format=request.format)
        account = await self._account(context)
        if self.settings.author_events != "on":
            await context.abort(
                grpc.StatusCode.PERMISSION_DENIED,
                "only the operator creates events on this arena (PREMIERE_AUTHOR_EVENTS is off)",
            )
        try:
            opens_at = request.opens_at.ToDatetime(datetime.UTC)
            starts_at = request.starts_at.ToDatetime(datetime.UTC)
        except (ValueError, OverflowError):
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                "opens_at and starts_at are times between the years 1 and 9999",
            )
        await self._call(
            context,
            entries.propose,
            account,
            request.name[:200],
            request.game[:200],
            request.format[:200],
            request.players,
            opens_at,
            starts_at,
            request.rounds or None,
            request.min_games,
            request.min_rating if request.HasField("min_rating") else None,
            request.hosted_only,
        )
        return author_pb2.CreateEventResponse(name=request.name)

    async def WithdrawEvent(
        self,
        request: author_pb2.WithdrawEventRequest,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> author_pb2.WithdrawEventResponse:
        await _clean(context, event=request.event, bot=request.bot)
        account = await self._account(context)
        count = await self._call(
            context, entries.withdraw, account, request.event[:200], request.bot[:200]
        )
        return author_pb2.WithdrawEventResponse(entrants=count)


def _standing(database_url: str, name: str) -> dict[str, Any]:
    """The standing and last 100 events of the bots row ``name``."""
    with psycopg.connect(database_url, row_factory=dict_row) as conn:
        standing = conn.execute(
            "SELECT state, reason FROM bot_standing_public WHERE bot = %s", (name,)
        ).fetchone()
        events = conn.execute(
            "SELECT at, kind, message FROM ("
            " (SELECT at, kind, message FROM bot_events_public WHERE bot = %s"
            "  ORDER BY id DESC LIMIT 100)"
            " UNION ALL (SELECT e.at, e.kind, e.message FROM hosted_events_public e"
            "  WHERE e.bot = %s ORDER BY e.id DESC LIMIT 100)) both_kinds"
            " ORDER BY at DESC LIMIT 100",
            (name, name),
        ).fetchall()[::-1]
    return {
        "name": name,
        "state": standing["state"] if standing else None,
        "reason": standing["reason"] if standing else None,
        "events": events,
    }


def add_to_server(service: AuthorService, server: grpc.aio.Server) -> None:
    author_pb2_grpc.add_AuthorServiceServicer_to_server(service, server)
