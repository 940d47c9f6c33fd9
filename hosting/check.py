"""``premiere-bot bundle check DIR``: a bundle checked and played as the arena will, on the
author's machine, before it is uploaded.

The folder is packed and checked with the arena's rules, unpacked read-only, and started in
the same sandbox the runner makes (``hosting.sandbox``), with the same environment. Instead
of an arbiter, its socket leads to a small gateway in this process that speaks the bot
protocol and hands each decision of a match played here (``premiere_bot.local.play``: the
engines, the arbiter's clock and fault rules) to the sandboxed bot, one match per claimed game
at its smallest table, against ``random``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

import games
from hosting.runtime import build, readable_by_others
from hosting.sandbox import Cgroups, Launch, Pool, bwrap_argv, detect, limits_for, wrapper_argv
from premiere_bot.bot import Bot
from premiere_bot.local import MatchResult, play
from premiere_wire import bot_gateway_pb2, bot_gateway_pb2_grpc, game_data_pb2_grpc
from premiere_wire.bundle import BundleError, check, pack, unpack
from server.game_data import GameDataService

__all__ = ["Report", "check_bundle"]


@dataclass
class Report:
    lines: list[str] = field(default_factory=list)
    problems: int = 0

    def say(self, line: str, problem: bool = False) -> None:
        self.lines.append(line)
        self.problems += problem


class _Gateway(bot_gateway_pb2_grpc.BotGatewayServiceServicer):
    """One bot stream: what the match driver puts in ``outbox`` goes to the bot; its answers
    complete the futures waiting under their request ids."""

    def __init__(self) -> None:
        self.outbox: asyncio.Queue[bot_gateway_pb2.ConnectResponse] = asyncio.Queue()
        self.waiting: dict[str, Future[bot_gateway_pb2.DecisionAnswer]] = {}
        self.hello: bot_gateway_pb2.Hello | None = None
        self.connected = threading.Event()

    async def Challenge(
        self,
        request: bot_gateway_pb2.ChallengeRequest,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> bot_gateway_pb2.ChallengeResponse:
        await context.abort(
            grpc.StatusCode.FAILED_PRECONDITION, "bundle check plays its own matches"
        )
        raise AssertionError("unreachable")

    async def Connect(  # type: ignore[override]
        self,
        request_iterator: AsyncIterator[bot_gateway_pb2.ConnectRequest],
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> None:
        first = await anext(aiter(request_iterator))
        self.hello = first.hello
        await context.write(
            bot_gateway_pb2.ConnectResponse(
                welcome=bot_gateway_pb2.Welcome(
                    bot_name="bundle-check", server="premiere-bot bundle check"
                )
            )
        )
        self.connected.set()

        async def read() -> None:
            async for message in request_iterator:
                answers = (
                    [message.answer]
                    if message.WhichOneof("message") == "answer"
                    else list(message.answers.answers)
                )
                for answer in answers:
                    waiting = self.waiting.pop(answer.request_id, None)
                    if waiting is not None and not waiting.done():
                        waiting.set_result(answer)

        reader = asyncio.create_task(read())
        try:
            while True:
                await context.write(await self.outbox.get())
        finally:
            reader.cancel()


class _Sandboxed(Bot):
    """The bot in the sandbox, as ``play`` sees a bot: each decision sent over its stream."""

    def __init__(self, gateway: _Gateway, loop: asyncio.AbstractEventLoop) -> None:
        self.gateway = gateway
        self.loop = loop

    def _send(self, message: bot_gateway_pb2.ConnectResponse) -> None:
        self.loop.call_soon_threadsafe(self.gateway.outbox.put_nowait, message)

    def match_started(self, event: bot_gateway_pb2.MatchStarted) -> None:
        self._send(bot_gateway_pb2.ConnectResponse(match_started=event))

    def match_ended(self, event: bot_gateway_pb2.MatchEnded) -> None:
        self._send(bot_gateway_pb2.ConnectResponse(match_ended=event))

    def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Any:
        waiting: Future[bot_gateway_pb2.DecisionAnswer] = Future()
        self.gateway.waiting[request.request_id] = waiting
        self._send(bot_gateway_pb2.ConnectResponse(decision=request))
        limit = (request.move_time_ms + request.time_bank_ms) / 1000 + 1.0
        answer = waiting.result(timeout=limit)
        if answer.WhichOneof("choice") == "legal_move_index":
            return answer.legal_move_index
        return answer.move


def _serve(socket: Path, ready: threading.Event, holder: dict[str, Any]) -> None:
    async def main() -> None:
        server = grpc.aio.server()
        gateway = _Gateway()
        bot_gateway_pb2_grpc.add_BotGatewayServiceServicer_to_server(gateway, server)
        game_data_pb2_grpc.add_GameDataServiceServicer_to_server(GameDataService(), server)
        server.add_insecure_port(f"unix:{socket}")
        await server.start()
        os.chmod(socket, 0o666)
        stop = asyncio.Event()
        holder.update(gateway=gateway, loop=asyncio.get_running_loop(), stop=stop)
        ready.set()
        await stop.wait()
        await server.stop(0.5)

    asyncio.run(main())


def check_bundle(folder: Path, say: Callable[[str], None] = print) -> Report:
    """Check ``folder`` as the arena would, then play it in its sandbox; every finding in
    the report (``problems`` counts those that would be refused or cost strikes)."""
    report = Report()

    def line(text: str, problem: bool = False) -> None:
        report.say(text, problem)
        say(text)

    try:
        data = pack(folder)
        checked = check(data)
    except (BundleError, OSError) as error:
        line(f"refused: {error}", problem=True)
        return report
    manifest = checked.manifest
    line(
        f"bundle {manifest.name}: {checked.files} files, {checked.size} bytes packed,"
        f" {checked.unpacked} unpacked, sha256 {checked.sha256[:12]}"
    )
    claimed = manifest.games or tuple(games.ids())
    unknown = [g for g in claimed if g not in games.ids()]
    if unknown:
        line(f"refused: unknown games {unknown}; the arena plays {list(games.ids())}", True)
        return report
    try:
        bwrap = detect()
    except Exception as error:
        line(f"cannot play it here: {error}", problem=True)
        return report
    work = Path(tempfile.mkdtemp(prefix="premiere-bundle-check-"))
    work.chmod(0o755)
    root = os.geteuid() == 0
    process: subprocess.Popen[bytes] | None = None
    holder: dict[str, Any] = {}
    cgroups = Cgroups()
    slot = f"check-{os.getpid()}"
    try:
        if root and not readable_by_others(work):
            line(f"cannot play it here: {work} is not reachable by the sandbox user", True)
            return report
        modules = Path(__file__).resolve().parents[1] / "clients" / "node" / "node_modules"
        runtime = build(work / "runtime", root, modules)
        bundle = work / "bundle"
        unpack(data, checked.sha256, bundle)
        sockets = work / "sockets"
        sockets.mkdir()
        sockets.chmod(0o755)
        ready = threading.Event()
        server = threading.Thread(
            target=_serve, args=(sockets / "arbiter.sock", ready, holder), daemon=True
        )
        server.start()
        if not ready.wait(30):
            line("cannot play it here: the local gateway did not start", problem=True)
            return report
        limits = limits_for(Pool(), manifest.limits)
        launch = Launch(
            bot_id=0,
            name=manifest.name,
            language=manifest.language,
            entry=manifest.entry,
            games=manifest.games,
            bundle=bundle,
            socket_dir=sockets,
            token="bundle-check",
            limits=limits,
            runtime=runtime,
            uid=300_999 if root else None,
        )
        procs = cgroups.make(slot, limits) if cgroups.available else []
        log = (work / "output.log").open("wb")
        started = time.monotonic()
        process = subprocess.Popen(
            [
                *wrapper_argv(procs, limits, launch.uid, cgroups.available),
                *bwrap_argv(launch, bwrap),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={"PATH": "/usr/bin:/bin"},
        )
        gateway: _Gateway = holder["gateway"]
        while not gateway.connected.wait(0.2):
            if process.poll() is not None or time.monotonic() - started > 30:
                output = (work / "output.log").read_text(errors="replace")[-1500:]
                line(f"it never connected (exit {process.poll()}); its output:\n{output}", True)
                return report
        line(f"started in its sandbox and connected in {time.monotonic() - started:.2f} s")
        bot = _Sandboxed(gateway, holder["loop"])
        for game_id in claimed:
            engine = games.get(game_id)
            players = (
                min(n for n in engine.player_counts if n >= 2)
                if max(engine.player_counts) >= 2
                else 1
            )
            result: MatchResult = play(
                bot, game_id, ["random"] * (players - 1), 0, f"bundle-check/{game_id}"
            )
            faults = ", ".join(f"{k} {v}" for k, v in sorted(result.faults.items())) or "none"
            line(
                f"{game_id}: rank {result.rank} of {players}, score {result.score},"
                f" faults: {faults}",
                problem=bool(result.faults) or result.forfeited,
            )
            for detail in result.details[:5]:
                line(f"  {detail}")
    finally:
        if process is not None and process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
        if cgroups.available:
            cgroups.kill(slot)
            time.sleep(0.05)
            cgroups.remove(slot)
        if "stop" in holder:
            holder["loop"].call_soon_threadsafe(holder["stop"].set)
        subprocess.run(["chmod", "-R", "u+w", str(work)], check=False)
        shutil.rmtree(work, ignore_errors=True)
    return report
