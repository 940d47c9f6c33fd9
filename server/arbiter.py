"""The arbiter's core: creates matches, hosts each in its own task, resumes them on start."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import socket
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import psycopg

import games
from games.bots import bot_names
from games.errors import GameError
from games.interface import Game, parse_option_value
from premiere.admission import UNRATED_REASONS
from premiere.seeds import MIN_SEED_HEX, new_seed, strong_seed
from server import metrics
from server.config import ArbiterSettings
from server.events import EventHub
from server.host import MatchHost
from server.match_ids import new_match_id
from server.placement import choose
from server.relay import Relay
from server.router import Bots
from server.store import Fenced, MatchSpec, Orphan, SeatRefused, SeatSpec, Store, describe

log = logging.getLogger("premiere.arbiter")


PLACEMENT_READ_S = 0.5
"""How long reading the bots' presence may take when placing a match; past it, the match is
hosted where it is (a slow Redis must not slow match creation down)."""
PLACEMENT_BACKOFF_S = 5.0
PLACEMENT_MARGIN_S = 0.1
"""Past the placement's lapse, so the lease has lapsed on the database's clock too."""


Taking = Callable[[str, str, float], Awaitable[int | None]]
"""A way to take a match's lease: (match, owner, lease seconds) -> fencing number or None."""


class BadRequest(ValueError):
    """A match request the arbiter cannot honour; the message says why."""


class KeyConflict(BadRequest):
    """An idempotency key already used for a different request."""


def fingerprint(
    game_id: str,
    options: Mapping[str, str],
    seats: Sequence[tuple[str, str]],
    seed: str,
    time_control: tuple[int, int, int],
    deal_tables: int,
) -> str:
    """What an idempotency key stands for: the request's game, options, seats, seed, time
    control and deal tables as asked (defaults unresolved). Whether it is rated is left out:
    the gate decides that again at seating, so a retry may differ there honestly."""
    canonical = json.dumps(
        [game_id, sorted(options.items()), list(seats), seed, list(time_control), deal_tables],
        separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


MAX_SEATS = 16
MAX_NAME = 64
MAX_OPTIONS = 32
MAX_TEXT = 256
INT4_MAX = 2**31 - 1  # the database's integer columns
MAX_DEAL_TABLES = 64
MAX_BATCH = 256
"""Matches one CreateMatches call may ask for."""


def _check_sizes(
    game_id: str,
    options: Mapping[str, str],
    seats: Sequence[tuple[str, str]],
    seed: str,
    idempotency_key: str,
) -> None:
    """Bounds on every string of a request, checked before anything reaches the database."""
    if len(seats) > MAX_SEATS or len(options) > MAX_OPTIONS:
        raise BadRequest(f"at most {MAX_SEATS} seats and {MAX_OPTIONS} options")
    names = [game_id, *(name for _, name in seats), *options]
    texts = [seed, idempotency_key, *options.values()]
    if any(len(name) > MAX_NAME for name in names) or any(len(t) > MAX_TEXT for t in texts):
        raise BadRequest(f"names are at most {MAX_NAME} characters, values {MAX_TEXT}")
    if any("\x00" in text for text in (*names, *texts)):
        raise BadRequest("text fields may not contain NUL characters")


class Arbiter:
    """Hosts the matches whose leases it holds. Any number of arbiters share one database: each
    renews its leases, stops hosting a match whose lease it lost, and adopts matches whose
    lease lapsed (their arbiter died) or that nobody holds."""

    def __init__(
        self, store: Store, router: Bots, hub: EventHub, settings: ArbiterSettings
    ) -> None:
        self.store = store
        self.router = router
        self.hub = hub
        self.settings = settings
        name = settings.arbiter_name or socket.gethostname()
        self.owner = f"{name}/{os.getpid()}/{uuid.uuid4().hex[:8]}"
        self.hosts: dict[str, asyncio.Task[None]] = {}
        self.hosted: dict[str, MatchHost] = {}
        self.fences: dict[str, int] = {}
        self._keeper: asyncio.Task[None] | None = None
        self._adopter: asyncio.Task[None] | None = None
        self._watchdog: asyncio.Task[None] | None = None
        self.leased_at: dict[str, float] = {}
        """Per hosted match, when the write that last set its lease's expiry was sent (this
        process's monotonic clock): the lease runs at least `lease_s` from then."""
        self.relay: Relay | None = None
        """With the relay on: where bots' streams are, for placing matches."""
        self._taking: set[str] = set()
        """Matches being claimed or adopted here right now (their lease is being taken)."""
        self._fallbacks: set[asyncio.Task[None]] = set()
        self._presence_back_at = 0.0
        """Until then (monotonic), placement reads no presence: the last read failed."""

    def use_relay(self, relay: Relay) -> None:
        """Ask bots through `relay`, and place matches where their bots' streams are."""
        self.router = relay
        self.relay = relay
        relay.on_claim = self.claim

    async def create(
        self,
        game_id: str,
        options: Mapping[str, str],
        seats: Sequence[tuple[str, str]],
        seed: str = "",
        move_time_ms: int = 0,
        time_bank_ms: int = 0,
        strike_limit: int = 0,
        idempotency_key: str = "",
        rated: bool = False,
        validation: bool = False,
        deal_tables: int = 0,
        unrated_reason: str | None = None,
    ) -> str:
        """Validate, store and start a match; `seats` holds ("bot" | "builtin", name) pairs.

        With an idempotency key, a repeated request returns the first request's match. A rated
        match's seed is drawn here, or is a league's derived seed (at least 128 bits of hex);
        callers decide whether they may ask for one.
        """
        _check_sizes(game_id, options, seats, seed, idempotency_key)
        if unrated_reason is not None and unrated_reason not in UNRATED_REASONS:
            raise BadRequest(f"unrated_reason is one of {', '.join(UNRATED_REASONS)}")
        if rated and seed and not strong_seed(seed):
            raise BadRequest(
                "a rated match's seed is drawn by the arbiter (leave it empty) or derived by a"
                f" league ({MIN_SEED_HEX}+ lowercase hex digits)"
            )
        self._check_time_control(move_time_ms, time_bank_ms, strike_limit)
        if not 0 <= deal_tables <= MAX_DEAL_TABLES:
            raise BadRequest(f"deal_tables must be between 0 and {MAX_DEAL_TABLES}")
        move_time_ms = move_time_ms or self.settings.move_time_ms
        time_bank_ms = time_bank_ms or self.settings.time_bank_ms
        strike_limit = strike_limit or self.settings.strike_limit
        self._check_columns(move_time_ms, time_bank_ms, strike_limit)
        asked = fingerprint(
            game_id,
            options,
            seats,
            seed,
            (move_time_ms, time_bank_ms, strike_limit),
            deal_tables,
        )
        if idempotency_key:
            existing = await self._keyed(idempotency_key, asked)
            if existing is not None:
                return existing
        try:
            game = games.get(game_id)
        except KeyError as error:
            raise BadRequest(str(error)) from None
        if len(seats) not in game.player_counts:
            raise BadRequest(f"{game_id} is played by {game.player_counts} seats, not {len(seats)}")
        resolved = self._options(game, options)
        wanted = sorted({name for kind, name in seats if kind == "bot"})
        ids = await self.store.bots_by_name(wanted)
        missing = [name for name in wanted if name not in ids]
        if missing:
            raise BadRequest(f"no registered bots named {missing}")
        elsewhere = await self.store.bots_not_playing([ids[name][0] for name in wanted], game.id)
        if elsewhere:
            raise BadRequest(f"bots {elsewhere} do not play {game_id} (as they said on connecting)")
        refusing = await self.store.bots_refusing(
            [ids[name][0] for name in wanted], len(seats), rated, validation
        )
        if refusing:
            kind_of = "rated" if rated else "casual"
            raise BadRequest(
                f"bots {refusing} accept no {len(seats)}-seat {kind_of} match (as they said on"
                " connecting)"
            )
        specs = []
        for kind, name in seats:
            if kind == "bot":
                specs.append(SeatSpec(bot_id=ids[name][0], bot_name=ids[name][1]))
            elif name in bot_names(game):
                specs.append(SeatSpec(builtin=name))
            else:
                raise BadRequest(f"no built-in bot {name!r} for {game_id}: {bot_names(game)}")
        spec = MatchSpec(
            id=new_match_id(),
            game=game.id,
            options=resolved,
            players=len(seats),
            seed=seed or new_seed(),
            move_time_ms=move_time_ms,
            time_bank_ms=time_bank_ms,
            strike_limit=strike_limit,
            seats=tuple(specs),
            rated=rated,
            deal_tables=max(1, deal_tables),
            unrated_reason=None
            if rated
            else (unrated_reason or ("validation" if validation else "casual")),
        )
        holder = await self._placed(spec)
        leased = time.monotonic()
        try:
            spec = await self.store.create_match(
                spec,
                idempotency_key or None,
                holder,
                self.settings.lease_s if holder == self.owner else self.settings.placement_wait_s,
                seat_names=[name for kind, name in seats if kind == "bot"],
                fingerprint=asked if idempotency_key else None,
            )
        except SeatRefused as error:
            raise BadRequest(str(error)) from None
        if idempotency_key:
            winner = await self._keyed(idempotency_key, asked)
            if winner != spec.id:
                assert winner is not None
                return winner
        if holder != self.owner:
            await self._hand_over(spec.id, holder)
            return spec.id
        self.leased_at[spec.id] = leased
        self._host(MatchHost(spec, self.store, self.router, self.hub, 1), False)
        return spec.id

    async def _placed(self, spec: MatchSpec) -> str:
        """The arbiter that should host a new match: the one holding the streams of most of
        its bot seats (`server.placement`), this one on a tie, without the relay, with
        placement off, or when Redis does not answer at once."""
        bots = [seat.bot_id for seat in spec.seats if seat.bot_id is not None]
        held = await self._seats_held(bots, spec.game)
        return self.owner if held is None else choose(self.owner, held)

    async def _seats_held(self, bots: Sequence[int], game: str) -> dict[str, int] | None:
        """Per arbiter, the seats whose bot holds a stream there (`Relay.seats_held`); None
        when placement is off or the presence cannot be read now. A failed read is not tried
        again for PLACEMENT_BACKOFF_S, so an unreachable Redis delays one creation or adoption
        pass by PLACEMENT_READ_S at most, not each of them."""
        if self.relay is None or self.settings.placement_wait_s <= 0 or not bots:
            return None
        if time.monotonic() < self._presence_back_at:
            return None
        try:
            async with asyncio.timeout(PLACEMENT_READ_S):
                return await self.relay.seats_held(bots, game)
        except Exception as error:
            self._presence_back_at = time.monotonic() + PLACEMENT_BACKOFF_S
            log.warning("bots' presence unreadable (%s): hosting matches where they are", error)
            return None

    async def _hand_over(self, match_id: str, holder: str) -> None:
        """The match's first lease is made out to `holder` for `placement_wait_s`: tell it to
        take the match up (`claim`). If it does not in time (gone, cut from the database, the
        message lost), the lease lapses and this arbiter takes the match itself (or any other
        adopts it as an orphan), with the next fencing number."""
        metrics.PLACED.inc()
        told = False
        assert self.relay is not None
        with contextlib.suppress(Exception):
            told = await self.relay.offer(holder, match_id)
        if not told:
            log.warning("match %s placed on %s, which did not hear of it", match_id, holder)
        task = asyncio.create_task(self._fall_back(match_id), name=f"placement-{match_id}")
        self._fallbacks.add(task)
        task.add_done_callback(self._fallbacks.discard)

    async def _fall_back(self, match_id: str) -> None:
        await asyncio.sleep(self.settings.placement_wait_s + PLACEMENT_MARGIN_S)
        try:
            if await self._take(match_id, None):
                log.info("match %s was not taken up where it was placed; hosting it", match_id)
        except Exception:
            log.exception("taking up match %s after its placement lapsed failed", match_id)

    async def claim(self, match_id: str) -> None:
        """Host a match another arbiter placed here (its first lease is made out to us)."""
        if await self._take(match_id, self.store.claim):
            metrics.CLAIMED.inc()

    async def _take(self, match_id: str, claim: Taking | None, adopted: bool = False) -> bool:
        """Take the match's lease (`claim`, else `acquire`) and host it from its log; False
        when another arbiter holds it, it has ended, or we host it already. An adopted match
        is resumed (a `restart` fault, the resume grace); a placed one starts as new unless
        its log has begun."""
        if match_id in self.hosts or match_id in self._taking:
            return False
        self._taking.add(match_id)
        try:
            leased = time.monotonic()
            take = claim or self.store.acquire
            fence = await take(match_id, self.owner, self.settings.lease_s)
            spec = await self.store.spec(match_id) if fence is not None else None
            if fence is None or spec is None or match_id in self.hosts:
                return False
            self.leased_at[match_id] = leased
            host = MatchHost(spec, self.store, self.router, self.hub, fence)
            moves = await self.store.moves(match_id)
            faults = await self.store.faults(match_id)
            resumed = adopted or bool(moves or faults)
            if resumed:
                host.restore(moves, faults)
            self._host(host, resumed)
            return True
        finally:
            self._taking.discard(match_id)

    async def _keyed(self, key: str, asked: str) -> str | None:
        """The match made with idempotency key ``key``, if any; KeyConflict when it was made
        for a different request (a key names one request, as payment APIs hold it)."""
        found = await self.store.match_by_key_with_fingerprint(key)
        if found is None:
            return None
        match_id, stored = found
        if stored is not None and stored != asked:
            raise KeyConflict(
                f"idempotency key {key[:64]!r} was used for a different request (match"
                f" {match_id}): its game, options, seats, seed, time control or deal tables"
                " differ; send the same request to get that match, or use a new key"
            )
        return match_id

    @staticmethod
    def _check_columns(move_time_ms: int, time_bank_ms: int, strike_limit: int) -> None:
        """The time control as stored (defaults included) fits the database's columns, so a
        misconfigured default is a clear error here, not a failed write."""
        for name, value, least in (
            ("move_time_ms", move_time_ms, 1),
            ("time_bank_ms", time_bank_ms, 0),
            ("strike_limit", strike_limit, 0),
        ):
            if not least <= value <= INT4_MAX:
                raise BadRequest(f"{name} must be between {least} and {INT4_MAX}, not {value}")

    def _check_time_control(self, move_time_ms: int, time_bank_ms: int, strike_limit: int) -> None:
        """Zero takes the default; anything else must lie within the documented bounds."""
        s = self.settings
        for name, value in (
            ("move_time_ms", move_time_ms),
            ("time_bank_ms", time_bank_ms),
            ("strike_limit", strike_limit),
        ):
            if not 0 <= value <= INT4_MAX:
                raise BadRequest(f"{name} must be between 0 and {INT4_MAX}")
        if move_time_ms and not s.min_move_time_ms <= move_time_ms <= s.max_move_time_ms:
            raise BadRequest(
                f"move_time_ms must be between {s.min_move_time_ms} and {s.max_move_time_ms}"
            )
        if time_bank_ms > s.max_time_bank_ms:
            raise BadRequest(f"time_bank_ms must be at most {s.max_time_bank_ms}")
        if strike_limit > s.max_strike_limit:
            raise BadRequest(f"strike_limit must be at most {s.max_strike_limit}")

    @staticmethod
    def _options(game: Game, options: Mapping[str, str]) -> dict[str, Any]:
        specs = {spec.name: spec for spec in game.options}
        parsed: dict[str, Any] = {}
        try:
            for name, text in options.items():
                if name not in specs:
                    raise BadRequest(f"{game.id} has no option {name!r}; it has {list(specs)}")
                parsed[name] = parse_option_value(specs[name], text)
            return game.resolve_options(parsed)
        except GameError as error:
            raise BadRequest(str(error)) from None

    def _host(self, host: MatchHost, resumed: bool) -> None:
        grace = self.settings.resume_grace_s if resumed else self.settings.start_grace_s
        task = asyncio.create_task(self._run(host, resumed, grace), name=f"match-{host.spec.id}")
        self.hosts[host.spec.id] = task
        self.hosted[host.spec.id] = host
        self.fences[host.spec.id] = host.fence

    async def _run(self, host: MatchHost, resumed: bool, grace: float) -> None:
        match_id = host.spec.id
        try:
            await host.run(resumed, grace)
        except asyncio.CancelledError:
            raise
        except Fenced:
            metrics.LOST_LEASES.inc()
            log.warning("match %s is hosted by another arbiter now; stopped hosting it", match_id)
        except psycopg.Error as error:
            log.error("match %s failed while hosted here: %s", match_id, describe(error))
            await self._give_up(host, error)
        except Exception as error:
            log.exception("match %s failed while hosted here", match_id)
            await self._give_up(host, error)
        finally:
            self.hosts.pop(match_id, None)
            self.hosted.pop(match_id, None)
            self.fences.pop(match_id, None)
            self.leased_at.pop(match_id, None)
            await self.hub.close(match_id)

    async def _give_up(self, host: MatchHost, error: Exception) -> None:
        """A match whose host failed is voided with the reason; if even that cannot be written,
        its lease is let go so another arbiter (or this one) hosts it again from its log."""
        reason = f"the arbiter hosting it failed ({type(error).__name__})"
        try:
            await host.void(reason)
        except Fenced:
            pass
        except Exception as failure:
            log.error(
                "match %s could not be voided (%s); letting its lease go",
                host.spec.id,
                type(failure).__name__,
            )
            with contextlib.suppress(Exception):
                await self.store.release(host.spec.id, self.owner, host.fence)

    async def start(self) -> None:
        """Adopt the matches nobody holds, then keep leases and adopt orphans periodically."""
        await self.adopt()
        self._keeper = asyncio.create_task(self._keep(), name="arbiter-leases")
        self._adopter = asyncio.create_task(self._adopt_orphans(), name="arbiter-adoption")
        self._watchdog = asyncio.create_task(self._watch_leases(), name="arbiter-lease-watchdog")

    async def _keep(self) -> None:
        """Renewal has a loop of its own: adopting a hundred orphans (each read back from its
        log) takes seconds under load, and renewals waiting behind it let every lease this
        arbiter holds go unrenewed past the self-fence, orphaning them all in turn."""
        while True:
            await asyncio.sleep(self.settings.lease_renew_s)
            try:
                await self.renew()
            except Exception:
                log.exception("lease renewal failed; trying again")

    async def _adopt_orphans(self) -> None:
        while True:
            await asyncio.sleep(self.settings.lease_renew_s)
            try:
                await self.adopt()
            except Exception:
                log.exception("adopting orphaned matches failed; trying again")

    def self_fence_after_s(self) -> float:
        """How long after the last renewal was sent this arbiter stops hosting on its own.

        The database extends a lease to `lease_s` after it *executes* the renewal, which is no
        earlier than when it was sent; stopping `lease_renew_s` before that (on this process's
        clock) means an arbiter cut from the database has stopped asking its bots and writing
        before any other arbiter can take its matches over."""
        return self.settings.lease_s - self.settings.lease_renew_s

    async def _watch_leases(self) -> None:
        while True:
            await asyncio.sleep(self.settings.lease_renew_s / 2)
            self.fence_self_if_unrenewed()

    def fence_self_if_unrenewed(self) -> int:
        """Stop hosting each match whose lease went unrenewed for too long (the database is
        unreachable, or this process was paused); returns how many it stopped."""
        now = time.monotonic()
        limit = self.self_fence_after_s()
        stopped = 0
        for match_id, task in list(self.hosts.items()):
            host = self.hosted.get(match_id)
            leased = self.leased_at.get(match_id, now)
            if host is not None and not task.done() and now - leased >= limit:
                host.lost = True
                task.cancel()
                stopped += 1
                log.warning(
                    "lease of match %s unrenewed for %.1f s: stopped hosting it before the"
                    " lease can lapse (self-fenced)",
                    match_id,
                    now - leased,
                )
        if stopped:
            metrics.LOST_LEASES.inc(stopped)
        return stopped

    async def renew(self) -> None:
        """Extend every lease still held; stop hosting the matches whose lease was taken."""
        held = dict(self.fences)
        sent = time.monotonic()
        renewed = await self.store.renew(self.owner, held, self.settings.lease_s)
        for match_id in renewed:
            if self.fences.get(match_id) == held.get(match_id):
                self.leased_at[match_id] = max(self.leased_at.get(match_id, sent), sent)
        for match_id, fence in held.items():
            if match_id not in renewed and self.fences.get(match_id) == fence:
                task, host = self.hosts.get(match_id), self.hosted.get(match_id)
                if task is not None and host is not None:
                    log.warning("lost the lease of match %s; stopped hosting it", match_id)
                    metrics.LOST_LEASES.inc()
                    host.lost = True
                    task.cancel()

    async def adopt(self) -> int:
        """Host every unfinished match nobody holds, from its log. With placement on, an
        orphan whose bots' streams are mostly on another arbiter is left to that arbiter for
        `placement_wait_s` after it became nobody's; any arbiter adopts it after that."""
        count = 0
        for orphan in await self.store.orphans_placed():
            if orphan.id in self.hosts or not await self._adopts(orphan):
                continue
            if await self._take(orphan.id, None, adopted=True):
                metrics.ADOPTED.inc()
                count += 1
        if count:
            log.info("hosting %d unfinished matches from their logs", count)
        return count

    async def _adopts(self, orphan: Orphan) -> bool:
        """Whether to adopt this orphan now (see `adopt`)."""
        if orphan.idle_s >= self.settings.placement_wait_s:
            return True
        held = await self._seats_held(orphan.bots, orphan.game)
        return held is None or choose(self.owner, held) == self.owner

    async def stop(self) -> None:
        """Stop hosting and let the leases go, so other arbiters take the matches at once."""
        for task in (self._keeper, self._adopter, self._watchdog, *self._fallbacks):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        held = dict(self.fences)
        for task in list(self.hosts.values()):
            task.cancel()
        await asyncio.gather(*self.hosts.values(), return_exceptions=True)
        for match_id, fence in held.items():
            with contextlib.suppress(Exception):
                await self.store.release(match_id, self.owner, fence)
