"""Play many games, on one core, all cores, or a Dask cluster, with identical results.

Everything that decides a game — its seed, player count, seat line-up and whether it runs in
checked mode — is a pure function of the run plan and the game's index (``game_setup``). So
the same plan gives the same games whatever the worker count or backend: workers only decide
*where* a game is played.
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
from itertools import islice
import signal
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from engine.core.driver import derive_seed, play_game
from toolkit.rules import failure_text, load_rules
from toolkit.smoke.tally import Tally

#: How often (1 in N games) a default run checks clone and replay equivalence at the end of a game
#: (every game of a default run checks the invariants after every step).
SAMPLE_EVERY = 20


@dataclass(frozen=True)
class RunPlan:
    """What to play. Plain data, so it pickles to worker processes and Dask workers."""

    game: str
    rules: str
    games: int
    players: tuple[int, ...]
    seed: int
    bots: tuple[str, ...]
    check: str = "sample"  # "all", "sample" or "none"
    rotate_seats: bool = True
    options: dict[str, Any] = field(default_factory=dict)


def game_setup(plan: RunPlan, index: int) -> tuple[int, int, list[str], bool]:
    """(players, seed, bot per seat, checked) of game ``index``: a function of the plan only.

    Seats are rotated game by game so that, with mixed line-ups, no bot always sits first:
    seat advantage and bot (or card) strength are then not confused.
    """
    players = plan.players[index % len(plan.players)]
    seed = derive_seed(plan.seed, index)
    lineup = [plan.bots[i % len(plan.bots)] for i in range(players)]
    if plan.rotate_seats and len(set(lineup)) > 1:
        shift = (index // len(plan.players)) % players
        lineup = lineup[shift:] + lineup[:shift]
    checked = plan.check == "all" or (plan.check == "sample" and index % SAMPLE_EVERY == 0)
    return players, seed, lineup, checked


@dataclass
class GameSummary:
    """One game's outcome: folded into the worker's tally as soon as the game ends."""

    index: int
    seed: int
    players: int
    bots: list[str]
    checked: bool
    steps: int
    seconds: float
    invariants: bool = False
    error: str | None = None
    stalemate: bool = False
    end_reason: str = ""
    turns: int = 0
    scores: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    usage: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    stats: dict[str, float] = field(default_factory=dict)
    actions: list[int] | None = None  # kept for failed games only: they are saved as logs


# -- one worker's state: the model is built once per process --------------------------------

_WORKER: dict[str, Any] = {}


def _init_worker(plan: RunPlan, data: dict[str, list[dict[str, Any]]], ignore_sigint: bool = True) -> None:
    """Build the game's model once per worker process; Ctrl-C is handled by the parent only."""
    if ignore_sigint:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    spec = load_rules(plan.rules)
    _WORKER.update(plan=plan, spec=spec, model=spec.build_model(data))


def choice_events(spec: Any) -> frozenset[str]:
    """The usage events the game declares as a seat's own choice (see GameSpec.choice_events)."""
    return frozenset(spec.choice_events)


def play_one(plan: RunPlan, spec: Any, model: Any, index: int) -> GameSummary:
    """Play game ``index`` of the plan and summarise it."""
    players, seed, lineup, checked = game_setup(plan, index)
    start = time.perf_counter()
    invariants = plan.check != "none"
    rec = play_game(spec, model, players, seed, lineup, plan.options, check=checked, invariants=invariants)
    summary = GameSummary(index=index, seed=seed, players=players, bots=lineup, checked=checked,
                          invariants=invariants,
                          steps=rec.steps, seconds=time.perf_counter() - start, error=failure_text(rec),
                          stalemate=rec.stalemate)
    if rec.result is not None:
        r = rec.result
        summary.end_reason, summary.turns = r.end_reason, r.turns
        summary.scores, summary.winners = list(r.scores), list(r.winners)
        summary.usage, summary.stats = r.usage, dict(r.stats)
    if rec.error is not None:
        summary.actions = list(rec.actions)
    return summary


def play_indices(indices: list[int]) -> tuple[Tally, int]:
    """Play the given games in this worker, folding each into a tally as it ends; also report
    the worker's peak memory (KiB). Only the tally travels back: its size does not grow with
    the number of games."""
    plan, spec, model = _WORKER["plan"], _WORKER["spec"], _WORKER["model"]
    tally = Tally(choice_events(spec))
    for index in indices:
        tally.add(play_one(plan, spec, model, index))
    return tally, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _dask_play(plan: RunPlan, token: str, data: dict[str, Any], indices: list[int]) -> tuple[Tally, int]:
    """A Dask task. The model is built once per worker for given rules and content (``token``, a
    digest of the content) and kept for later runs of the same content. Keying it on the digest,
    not on the id of the scattered data, means a later run with changed content can never reuse a
    stale model whose data happened to get the same id."""
    if _WORKER.get("token") != (plan.rules, token):
        _WORKER.clear()
        _init_worker(plan, data, ignore_sigint=False)
        _WORKER["token"] = (plan.rules, token)
    _WORKER["plan"] = plan
    return play_indices(indices)


def _worker_profiles() -> bool:
    """On a Dask worker: whether Dask's statistical profiler runs there (it does by default)."""
    import dask

    return bool(dask.config.get("distributed.worker.profile.enabled", True))


#: Said once per Dask run when the workers profile their tasks.
PROFILER_NOTE = ("note: the Dask workers profile every task (Dask's default): each keeps about 17 minutes of "
                 "stack samples, so its memory rises from run to run until that history is full. Start the "
                 "workers with DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False to keep it flat (docs/smoke.md).")


def content_token(data: dict[str, Any]) -> str:
    """A digest of the content a model is built from: equal content, equal token."""
    blob = json.dumps(data, sort_keys=True, default=str, separators=(",", ":")).encode()
    return hashlib.blake2b(blob, digest_size=16).hexdigest()


# -- backends ---------------------------------------------------------------------------------

Progress = Callable[[int], None]


@dataclass
class RunOutcome:
    tally: Tally
    seconds: float
    workers: int
    backend: str
    interrupted: bool = False
    peak_rss_kib: int = 0
    notes: list[str] = field(default_factory=list)


def chunks(n: int, workers: int) -> Iterator[list[int]]:
    """Game indices in chunks: small enough for even load and progress, big enough to be cheap.
    A generator, so a run of a million games never holds a million indices."""
    size = max(1, min(50, n // max(1, workers * 8)))
    for i in range(0, n, size):
        yield list(range(i, min(n, i + size)))


def run(plan: RunPlan, data: dict[str, list[dict[str, Any]]], workers: int, backend: str = "process",
        scheduler: str | None = None, progress: Progress | None = None) -> RunOutcome:
    """Play ``plan.games`` games and return their running totals (see ``toolkit.smoke.tally``).

    Ctrl-C stops the run: games already finished are kept and the outcome says it was interrupted.
    """
    start = time.perf_counter()
    tally = Tally(choice_events(load_rules(plan.rules)))
    peak = 0
    interrupted = False
    done = progress or (lambda n: None)
    notes: list[str] = []
    if backend != "dask":  # a Dask run's processes are the cluster's, not this machine's
        workers, note = usable_workers(workers, plan.games)
        if note:
            notes.append(note)
    try:
        for part, rss in _execute(plan, data, workers, backend, scheduler, notes):
            tally.merge(part)
            peak = max(peak, rss)
            done(part.played)
    except KeyboardInterrupt:
        interrupted = True
    return RunOutcome(tally, time.perf_counter() - start, workers, backend, interrupted, peak, notes)


def _execute(plan: RunPlan, data: dict[str, Any], workers: int, backend: str,
             scheduler: str | None, notes: list[str]) -> Iterator[tuple[Tally, int]]:
    work = chunks(plan.games, workers)
    if backend == "dask":
        yield from _execute_dask(plan, data, work, scheduler, notes)
    elif workers <= 1:
        _init_worker(plan, data, ignore_sigint=False)
        for indices in work:
            yield play_indices(indices)
    else:
        yield from _execute_pool(plan, data, work, workers)


def _execute_pool(plan: RunPlan, data: dict[str, Any], work: Iterator[list[int]],
                  workers: int) -> Iterator[tuple[Tally, int]]:
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    pool = ProcessPoolExecutor(max_workers=workers, initializer=_init_worker, initargs=(plan, data))
    window = 4 * workers  # chunks in flight: keeps every worker busy without queueing the whole run
    complete = False
    try:
        pending = {pool.submit(play_indices, indices) for indices in islice(work, window)}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            pending |= {pool.submit(play_indices, indices) for indices in islice(work, len(finished))}
            for fut in finished:
                yield fut.result()
        complete = True
    finally:
        if not complete:
            # Stopped (Ctrl-C, or the consumer gave up): the chunks still running would be thrown
            # away anyway, and a chunk of long games can take a minute, so stop the workers now.
            _stop_workers(pool)
        pool.shutdown(wait=True, cancel_futures=True)


def _stop_workers(pool: Any) -> None:
    """End a process pool's workers at once. The executor has no public call for it before
    Python 3.14 (`terminate_workers`), hence its process table."""
    stop = getattr(pool, "terminate_workers", None)
    if stop is not None:
        stop()
        return
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        proc.terminate()


class SchedulerError(RuntimeError):
    """The Dask scheduler could not be used: a wrong address (``usage``) or none answering there."""

    def __init__(self, message: str, usage: bool = False) -> None:
        super().__init__(message)
        self.usage = usage


def _execute_dask(plan: RunPlan, data: dict[str, Any], work: Iterator[list[int]],
                  scheduler: str | None, notes: list[str]) -> Iterator[tuple[Tally, int]]:
    try:
        from distributed import Client, as_completed
    except ImportError as exc:  # pragma: no cover - depends on the optional extra
        raise RuntimeError("the Dask backend needs the extra: pip install 'hordekit[dask]'") from exc
    if not scheduler:
        raise RuntimeError("--backend dask needs --scheduler ADDRESS (e.g. tcp://10.0.0.5:8786)")
    try:
        client = Client(scheduler, timeout="20s")
    except ValueError as exc:  # an address Dask cannot read (unknown scheme, no port)
        raise SchedulerError(f"--scheduler {scheduler}: not a Dask scheduler address ({exc})", usage=True) from exc
    except Exception as exc:  # noqa: BLE001 - refused, timed out, or something else answered there
        raise SchedulerError(f"cannot reach a Dask scheduler at {scheduler} ({type(exc).__name__}: {exc}); "
                             "start one with `dask scheduler` and its workers with `dask worker ADDRESS`, "
                             "or check the address") from exc
    try:
        if any(client.run(_worker_profiles).values()):
            notes.append(PROFILER_NOTE)
        token = content_token(data)
        payload = client.scatter(data, broadcast=True, hash=False)
        window = 4 * max(1, len(client.scheduler_info().get("workers", {})))
        futures = as_completed([client.submit(_dask_play, plan, token, payload, indices, pure=False)
                                for indices in islice(work, window)])
        try:
            for fut in futures:
                for indices in islice(work, 1):
                    futures.add(client.submit(_dask_play, plan, token, payload, indices, pure=False))
                part = fut.result()
                fut.release()  # the worker may drop the result now, not when the run ends
                yield part
        finally:
            futures.clear()
            del payload
    finally:
        client.close()


def known_bots(spec: Any) -> list[str]:
    """Every bot a smoke run may seat in this game: its own, and random and search (engine.core)."""
    return sorted(spec.bots)


def default_bot(spec: Any) -> str:
    """The bot smoke runs seat by default: the game's heuristic bot when it has one."""
    names = known_bots(spec)
    return "heuristic" if "heuristic" in names else "random" if "random" in names else names[0]


def usable_workers(asked: int, games: int) -> tuple[int, str | None]:
    """The worker processes a run starts: never more than it has games, nor more than
    ``WORKERS_PER_CORE`` per core (a mistyped ``--workers 100000`` would otherwise fork that many
    processes and bring the machine down, even for two games); a note when the second limit
    lowered the number asked for."""
    cap = WORKERS_PER_CORE * default_workers()
    used = max(1, min(asked, cap, games))
    note = None
    if asked > cap:
        note = (f"note: --workers {asked} is more than {WORKERS_PER_CORE} per core on this machine's "
                f"{default_workers()}: playing with {used}")
    return used, note


#: More worker processes than this per core only share the same cores, at the cost of memory.
WORKERS_PER_CORE = 4


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))

