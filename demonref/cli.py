"""The ``demonref`` command line (typer)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer
from rich.console import Console

from demonref import feed
from referee.events import Event, EventError, dumps, parse_lines
from referee.game import RoundState, apply, initial
from referee.handicap import METHODS, HandicapError
from referee.match import Match
from referee.rules import PRESETS, Rules, RulesError
from referee.scoring import tally
from referee.simulate import INJECTABLE, SimulationError, simulate

if TYPE_CHECKING:
    from vision.live import LiveStats

app = typer.Typer(
    name="demonref",
    help="A camera referee for Racing Demon / Nerts / Pounce.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
bench_app = typer.Typer(help="Benchmarks (speed figures live here, not in tests).", no_args_is_help=True)
app.add_typer(bench_app, name="bench")
dataset_app = typer.Typer(help="Rendered training data: build YOLO datasets, preview renders.", no_args_is_help=True)
app.add_typer(dataset_app, name="dataset")
evaluate_app = typer.Typer(help="Measure the models and the whole chain.", no_args_is_help=True)
app.add_typer(evaluate_app, name="evaluate")

console = Console()
err = Console(stderr=True)


def error(message: str) -> None:
    """Prints a one-line error (never wrapped: paths stay greppable)."""
    err.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)


def _note(text: str) -> None:
    """A note on stderr: something the user should know about a run that still succeeded."""
    err.print(f"[yellow]note:[/] {text}", highlight=False, soft_wrap=True)


def _note_falling_behind(stats: LiveStats) -> None:
    """Live and demo: say so when frames were lost because the machine could not keep up."""
    if behind := stats.falling_behind():
        _note(behind)


def fail(message: str) -> NoReturn:
    """Prints a one-line error and exits with status 2 (bad input)."""
    error(message)
    raise typer.Exit(2)


def build_rules(preset: str, options: list[str] | None) -> Rules:
    """``--rules`` plus ``--option key=value`` pairs (values read as JSON when they parse)."""
    try:
        rules = Rules.preset(preset)
        parsed: dict[str, object] = {}
        for item in options or []:
            key, sep, value = item.partition("=")
            if not sep:
                fail(f"--option expects key=value, got {item!r}")
            try:
                parsed[key.strip()] = json.loads(value)
            except json.JSONDecodeError:
                parsed[key.strip()] = value
        return rules.with_options(parsed)
    except RulesError as exc:
        fail(str(exc))


PresetOpt = Annotated[str, typer.Option("--rules", help=f"Rule preset: {', '.join(PRESETS)}.")]
OptionOpt = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="Rule option override, e.g. -o demon_size=11 -o refill=any.")
]
DetectorSizeOpt = Annotated[
    int | None,
    typer.Option(
        min=320,
        help="The detector's input side in px, a multiple of 32 (default 896; 640 is about a quarter faster and finds "
        "fewer cards).",
    ),
]
LiveFpsOpt = Annotated[float, typer.Option(min=1.0, help="At most this many frames per second are processed.")]


def _read_events(path: Path) -> tuple[list, dict[int, int]]:  # type: ignore[type-arg]
    """Reads a log: its events and the file line of each seq (for error messages); bad input exits 2."""
    if str(path) == "-":
        lines = sys.stdin.read().splitlines()
    else:
        if not path.exists():
            fail(f"{path}: no such file")
        if path.is_dir():
            fail(f"{path} is a folder; expected an event log (.jsonl)")
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except UnicodeDecodeError:
            fail(f"{path} is not UTF-8 text; expected an event log (.jsonl)")
    try:
        events = list(parse_lines(lines))
    except EventError as exc:
        fail(f"{path}: {exc}")
    line_of = {}
    index = 0
    for i, text in enumerate(lines):
        if text.strip():
            if index < len(events):
                line_of[events[index].seq] = i
            index += 1
    return events, line_of


def _replay_or_fail(path: Path, events: list, line_of: dict[int, int], *, on_step=None) -> RoundState:  # type: ignore[no-untyped-def, type-arg]
    state = initial()
    try:
        for ev in events:
            state, verdicts = apply(state, ev)
            if on_step is not None:
                on_step(ev, verdicts, state)
    except EventError as exc:
        line = line_of.get(exc.seq) if exc.seq is not None else None
        fail(f"{path}: {exc.describe(line)}")
    return state


@app.command("simulate")
def simulate_cmd(
    out: Annotated[Path, typer.Option("--out", help="Where to write the event log (JSON Lines).")],
    players: Annotated[int, typer.Option(min=2, max=12, help="People at the table (2-8 typical).")] = 4,
    seed: Annotated[int, typer.Option(help="Random seed: the same seed gives the same round.")] = 0,
    rules: PresetOpt = "racing-demon",
    option: OptionOpt = None,
    inject: Annotated[
        str, typer.Option(help=f"Illegal plays to inject, comma-separated: {', '.join(INJECTABLE)}.")
    ] = "",
) -> None:
    """Simulates one round with bots and writes its ground-truth event log."""
    r = build_rules(rules, option)
    kinds = [k.strip() for k in inject.split(",") if k.strip()]
    try:
        result = simulate(players=players, seed=seed, rules=r, inject=kinds)
    except SimulationError as exc:
        fail(str(exc))
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(out.suffix + ".part")
    with tmp.open("w", encoding="utf-8") as fh:
        for ev in result.events:
            fh.write(dumps(ev) + "\n")
    tmp.replace(out)
    console.print(
        f"wrote {out}: {len(result.events)} events, {result.duration:.1f}s of play, ended by {result.finished_by}, "
        f"{len(result.staged_conflicts)} conflict(s)"
        + (f", injected {', '.join(result.injected)}" if result.injected else "")
        + (f"; no chance to inject {', '.join(result.missed)}" if result.missed else ""),
        highlight=False,
    )


@app.command()
def referee(
    log: Annotated[Path, typer.Argument(help="Event log (JSON Lines); '-' reads standard input.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print exactly one JSON object.")] = False,
    feed_: Annotated[bool, typer.Option("--feed", help="Also print the running feed.")] = False,
) -> None:
    """Replays an event log: flags and tally."""
    events, line_of = _read_events(log)

    def show(ev, verdicts, state):  # type: ignore[no-untyped-def]
        line = feed.feed_line(ev, verdicts, state)
        if line is not None:
            console.print(line)

    state = _replay_or_fail(log, events, line_of, on_step=show if feed_ and not as_json else None)
    result = tally(state)
    if as_json:
        sys.stdout.write(json.dumps(result.to_json()) + "\n")
        return
    if result.flags:
        console.print(feed.flags_table(result.flags))
    console.print(feed.tally_table(result))


app.command("tally", help="Same as `referee`.")(referee)


@app.command()
def match(
    players: Annotated[int, typer.Option(min=2, max=12)] = 4,
    handicap: Annotated[str, typer.Option(help=f"One of {', '.join(METHODS)}.")] = "cumulative",
    seed: Annotated[int, typer.Option()] = 0,
    target: Annotated[int, typer.Option(help="Play until someone's total reaches this.")] = 100,
    rules: PresetOpt = "racing-demon",
    option: OptionOpt = None,
    max_rounds: Annotated[
        int, typer.Option(help="Stop after this many rounds even if nobody reached the target.")
    ] = 40,
) -> None:
    """Plays a simulated match round by round, with handicapped demons, and prints the scoreboard."""
    r = build_rules(rules, option)
    seats = [f"p{i + 1}" for i in range(players // 2 if r.partnerships else players)]
    try:
        m = Match.new(seats, rules=r, handicap=handicap, target=target)
    except HandicapError as exc:
        fail(str(exc))
    names: dict[str, str] = {}
    while not m.finished and len(m.rounds) < max_rounds:
        try:
            result = simulate(players=players, seed=seed * 1000 + len(m.rounds), rules=r, demons=m.next_demons)
        except SimulationError as exc:
            fail(str(exc))
        names = {p.id: p.name or p.id for p in result.players}
        t = tally(_replay_or_fail(Path("<simulated>"), result.events, {}))
        m = m.add_round({p.id: p.score for p in t.players})
        latest = m.rounds[-1]
        line = ", ".join(
            f"{names[p]} {latest.scores[p]:+d} (total {latest.totals[p]}, next demon {m.next_demons[p]})" for p in seats
        )
        console.print(f"round {latest.number} ({result.finished_by}): {line}", highlight=False)
    console.print(feed.scoreboard(m, names))
    if m.winners:
        console.print(f"[bold green]winner: {', '.join(names[w] for w in m.winners)}[/]")
    else:
        console.print(f"nobody reached {target} in {len(m.rounds)} rounds")


DEMO_VIDEO = Path(__file__).resolve().parents[1] / "datasets" / "demo" / "game.mp4"


@app.command()
def demo(
    seed: Annotated[int, typer.Option()] = 7,
    players: Annotated[int, typer.Option(min=2, max=12)] = 4,
    speed: Annotated[float, typer.Option(help="Playback speed of --simulated (0 = as fast as possible).")] = 20.0,
    rules: PresetOpt = "racing-demon",
    simulated: Annotated[
        bool, typer.Option("--simulated", help="No camera: referee a simulated round in the terminal.")
    ] = False,
    video: Annotated[Path, typer.Option(help="The recorded game to play as if live.")] = DEMO_VIDEO,
    port: Annotated[int, typer.Option(min=1, max=65535)] = 8000,
    models: Annotated[Path, typer.Option(help="Folder with detector.pt and identifier.pt.")] = Path("models"),
    keep_serving: Annotated[bool, typer.Option(help="Keep the dashboard up after the video ends.")] = True,
    seconds: Annotated[float | None, typer.Option(min=0.5, help="Play only this many seconds of the video.")] = None,
    pace: Annotated[
        bool, typer.Option(help="Play at the video's own speed, skipping frames a slow machine cannot keep up with.")
    ] = True,
    fps: LiveFpsOpt = 15.0,
    detector_size: DetectorSizeOpt = None,
) -> None:
    """The bundled rendered game through the real card models, refereed live in the dashboard at
    http://127.0.0.1:PORT (--simulated: a simulated round's feed and tally in the terminal)."""
    if not simulated:
        _camera_demo(video, port, models, keep_serving, seconds, pace, fps, detector_size)
        return
    r = build_rules(rules, None)
    result = simulate(players=players, seed=seed, rules=r, inject=("wrong-suit", "late-play"))
    console.rule(f"demonref demo — {players} players, {r.name}, seed {seed}")
    state = initial()
    started = time.monotonic()
    for ev in result.events:
        if speed > 0:
            delay = ev.t / speed - (time.monotonic() - started)
            if delay > 0:
                time.sleep(delay)
        state, verdicts = apply(state, ev)
        line = feed.feed_line(ev, verdicts, state)
        if line is not None:
            console.print(line)
    final = tally(state)
    if final.flags:
        console.print(feed.flags_table(final.flags))
    console.print(feed.tally_table(final))


def _camera_demo(
    video: Path,
    port: int,
    models: Path,
    keep_serving: bool,
    seconds: float | None,
    pace: bool,
    fps: float,
    detector_size: int | None = None,
) -> None:
    """Serves the dashboard, then plays ``video`` through the chain as a rig would (HTTP ingest, outbox)."""
    import json as _json
    import shutil
    import tempfile
    import threading

    import uvicorn

    from dashboard.app import create_app
    from dashboard.settings import Settings
    from demonref.outbox import Outbox, PictureSender, http_poster
    from vision.capture import CaptureError, Source
    from vision.live import run_live
    from vision.models import CardReader, ModelMissingError

    try:
        reader = CardReader.load(models, watch=True, detector_size=detector_size)
        source = Source.open(video)
    except (ModelMissingError, CaptureError, ValueError) as exc:
        fail(str(exc))
    players = None
    roster = video.with_name("players.json")
    if roster.exists():  # the rendered game's players and back colours, as a club would type them in
        players = [(p["id"], p.get("back")) for p in _json.loads(roster.read_text())]
    work = Path(tempfile.mkdtemp(prefix="demonref-demo-"))
    try:  # the demo's database, tokens and outbox go with it: nothing is left behind in the temp folder
        settings = Settings(database_url=f"sqlite:///{work / 'demo.db'}", host="127.0.0.1", port=port,
                            token_file=work / "admin-token")  # fmt: skip
        app_ = create_app(settings)
        server = uvicorn.Server(uvicorn.Config(app_, host="127.0.0.1", port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            if not thread.is_alive():
                fail(f"the dashboard could not start on port {port} (in use? try --port)")
            time.sleep(0.05)
        import httpx

        url = f"http://127.0.0.1:{port}"
        admin = {"Authorization": f"Bearer {(work / 'admin-token').read_text().strip()}"}
        made = httpx.post(f"{url}/api/tables", json={"id": "demo", "name": f"Demo: {video.name}"}, headers=admin)
        token = made.json()["rig_token"]
        console.print(f"[bold]dashboard: {url}/tables/demo[/]  (adjudicator token in {work / 'admin-token'})")
        console.print(f"playing {video} through the card models as a live camera…", highlight=False)
        outbox = Outbox(work / "rig", http_poster(url, "demo", token))
        pictures = PictureSender(url, "demo", token)
        _, stats = run_live(source, work / "round", players=players, reader=reader, outbox=outbox, pictures=pictures, pace=pace, max_seconds=seconds,
                            process_fps=fps,
                            on_event=lambda e: console.print(f"{e.t:7.1f}s  {dumps(e)}", highlight=False, soft_wrap=True))  # fmt: skip
        console.print(f"round over: {stats.processed} frames processed ({stats.fps:.1f}/s); the tally is on the page.")
        _note_falling_behind(stats)
        if keep_serving:
            import signal

            stop = threading.Event()
            for sig in (signal.SIGINT, signal.SIGTERM):  # Ctrl-C, or a service manager's stop
                signal.signal(sig, lambda *_: stop.set())
            console.print("Ctrl-C stops the dashboard.")
            while thread.is_alive() and not stop.wait(0.5):
                pass
        server.should_exit = True
        thread.join(timeout=5)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _print_figures(figures: dict[str, object], *, as_json: bool) -> None:
    """A benchmark's figures: one JSON object, or one aligned line each."""
    if as_json:
        sys.stdout.write(json.dumps(figures) + "\n")
        return
    width = max(map(len, figures))
    for key, value in figures.items():
        console.print(f"{key:>{width}}: {value:,.1f}" if isinstance(value, float) else f"{key:>{width}}: {value}")


@bench_app.command("referee")
def bench_referee(
    rounds: Annotated[int, typer.Option(help="Simulated rounds to time.")] = 200,
    players: Annotated[int, typer.Option()] = 4,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Times the simulator (rounds/s) and the referee's replay (events/s)."""
    from demonref.bench import bench_referee as run

    figures = run(rounds=rounds, players=players)
    _print_figures(figures, as_json=as_json)


@bench_app.command("render")
def bench_render(
    seconds: Annotated[float, typer.Option(help="Seconds of game to render.")] = 20.0,
    size: Annotated[str, typer.Option()] = "1280x720",
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Times the renderer: a rendered game (frames/s) and fresh dataset scenes."""
    from demonref.bench import bench_render as run

    figures = run(seconds=seconds, size=_size(size))
    _print_figures(figures, as_json=as_json)


@bench_app.command("dashboard")
def bench_dashboard(
    clients: Annotated[int, typer.Option(min=1, help="Concurrent SSE subscribers.")] = 200,
    pushes: Annotated[int, typer.Option(min=1, help="Events posted one at a time while they listen.")] = 60,
    ingest: Annotated[int, typer.Option(min=1, help="Events to time the ingest with.")] = 2000,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Push latency to many SSE clients (p50/p99) and ingest events/s, on loopback."""
    from demonref.bench import bench_dashboard as run

    _print_figures(run(clients=clients, pushes=pushes, ingest=ingest), as_json=as_json)


@bench_app.command("review")
def bench_review(
    seconds: Annotated[float, typer.Option(min=1, help="Seconds of rendered game.")] = 20.0,
    size: Annotated[str, typer.Option()] = "1280x720",
    fps: Annotated[int, typer.Option(min=15, max=30, help="The video's frame rate.")] = 30,
    process_fps: Annotated[float, typer.Option(min=1.0, help="Frames per second the review processes.")] = 10.0,
    backend: Annotated[str, typer.Option(help="auto, int8, openvino, onnx or torch.")] = "auto",
    detector_size: DetectorSizeOpt = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Review speed (times real time) and live processing rate on a rendered game, with the real models."""
    from demonref.bench import bench_review as run

    figures = run(seconds=seconds, size=_size(size), fps=fps, process_fps=process_fps, backend=backend,
                  detector_size=detector_size)  # fmt: skip
    _print_figures(figures, as_json=as_json)


@bench_app.command("vision")
def bench_vision(
    backend: Annotated[list[str] | None, typer.Option(help="torch, onnx, openvino, int8 (default: all four).")] = None,
    runs: Annotated[int, typer.Option(min=1)] = 20,
    detector_size: DetectorSizeOpt = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Times detector + identifier per frame (720p and 1080p, ~40 cards) on each backend, as the chain runs them."""
    from demonref.bench import bench_vision as run

    figures = run(
        backends=tuple(backend or ("torch", "onnx", "openvino", "int8")), runs=runs, detector_size=detector_size
    )
    _print_figures(figures, as_json=as_json)


@app.command("train")
def train_cmd(
    what: Annotated[str, typer.Argument(help="detector or identifier")],
    data: Annotated[Path, typer.Option(help="A dataset folder made by `demonref dataset build`.")],
    epochs: Annotated[int, typer.Option(min=1)] = 20,
    batch: Annotated[int, typer.Option(min=1)] = 16,
    fraction: Annotated[float, typer.Option(min=0.01, max=1.0, help="Share of the training images to use.")] = 1.0,
    seed: Annotated[int, typer.Option()] = 0,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the last run from its last epoch.")] = False,
    imgsz: Annotated[int | None, typer.Option(help="Network input size (default: the model's recipe).")] = None,
    start_from: Annotated[
        Path | None, typer.Option(help="Continue from weights trained here earlier (e.g. models/detector.pt).")
    ] = None,
    out: Annotated[
        Path, typer.Option(help="Where the trained weights and card go (another folder keeps a candidate apart).")
    ] = Path("models"),
    name: Annotated[str | None, typer.Option(help="Run folder under runs/ (default: the model's name).")] = None,
    take_last: Annotated[
        bool,
        typer.Option(
            "--take-last",
            help="Don't train: make the weights and card from the run's last checkpoint (a run cut short).",
        ),
    ] = False,
) -> None:
    """Trains a card model on rendered data, from scratch or --start-from earlier weights (checkpoints every
    epoch; --resume continues an interrupted run; --take-last packages the epochs it finished)."""
    from vision.train import TrainError, train

    try:
        card = train(
            what,
            data.resolve(),
            epochs=epochs,
            batch=batch,
            fraction=fraction,
            seed=seed,
            resume=resume,
            imgsz=imgsz,
            start_from=start_from,
            models_dir=out,
            name=name,
            take_last=take_last,
        )
    except TrainError as exc:
        fail(str(exc))
    console.print(f"{out / what}.pt written; metrics: {card['metrics']}", highlight=False)


@app.command("quantize")
def quantize_cmd(
    what: Annotated[str, typer.Argument(help="detector or identifier")],
    data: Annotated[
        Path, typer.Option(help="A `demonref dataset build` folder of the model's kind; its train split calibrates.")
    ],
    images: Annotated[int, typer.Option(min=1, help="About this many calibration images.")] = 300,
    seed: Annotated[int, typer.Option()] = 0,
    models: Annotated[Path, typer.Option(help="Folder of the weights; the export goes to its int8/.")] = Path("models"),
    imgsz: Annotated[
        int | None,
        typer.Option(help="Detector: the input's longer side (default: as review and live look at a table, 896)."),
    ] = None,
) -> None:
    """Makes the int8 OpenVINO export of a trained model (about twice as fast on CPUs without AVX-512), used by
    default while the weights it was made from are the ones in the folder."""
    from vision.quantize import QuantizeError, quantize

    try:
        card = quantize(what, data.resolve(), models_dir=models, images=images, seed=seed, imgsz=imgsz)
    except QuantizeError as exc:
        fail(str(exc))
    images_used, seconds = card["calibration"]["images"], card["wall_seconds"]
    console.print(f"{models / 'int8' / card['export']} written ({images_used} calibration images, {seconds} s)")


def _photos(paths: list[Path]) -> tuple[list[Path], list[str]]:
    """The photos named, a folder standing for the images in it (sorted, not its sub-folders); and one error for
    each folder that holds none. A folder's images are those a capture folder reads, and TIFF (scanned photos)."""
    from vision.capture import IMAGE_SUFFIXES as FRAME_SUFFIXES

    suffixes = (*FRAME_SUFFIXES, ".tif", ".tiff")
    photos: list[Path] = []
    problems: list[str] = []
    for path in paths:
        if path.is_dir():
            inside = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in suffixes)
            if not inside:
                problems.append(f"{path}: a folder with no images in it ({', '.join(suffixes)})")
            photos.extend(inside)
        else:
            photos.append(path)
    return photos, problems


def _drawn_name(path: Path, taken: set[str]) -> str:
    """A file name for the drawn copy of ``path`` that no other photo of this run has: ``NAME.jpg``, or, when
    photos in two folders share a name, ``FOLDER_NAME.jpg`` (then a number)."""
    name = f"{path.stem}.jpg"
    if name in taken:
        name = f"{path.parent.name}_{path.stem}.jpg"
    k = 2
    while name in taken:
        name, k = f"{path.parent.name}_{path.stem}_{k}.jpg", k + 1
    taken.add(name)
    return name


@app.command("detect")
def detect_cmd(
    images: Annotated[list[Path], typer.Argument(help="Photos to read, or folders of them.")],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per image per line.")] = False,
    annotate_dir: Annotated[Path | None, typer.Option("--annotate", help="Save drawn copies here.")] = None,
    models: Annotated[Path, typer.Option(help="Folder with detector.pt and identifier.pt.")] = Path("models"),
) -> None:
    """Reads the cards in still photos (no calibration needed)."""
    from vision.models import CardReader, ModelMissingError, annotate, read_image

    try:
        reader = CardReader.load(models)
    except ModelMissingError as exc:
        fail(str(exc))
    photos, problems = _photos(images)
    for problem in problems:
        error(problem)
    failed = len(problems)
    drawn: set[str] = set()
    with _progress("photos") as bar:  # on stderr: the readings (and --json) stay alone on stdout
        task = bar.add_task("photos", total=len(photos), visible=len(photos) > 1)
        for path in bar.track(photos, task_id=task):
            try:
                image = read_image(path)
            except (FileNotFoundError, ValueError) as exc:
                error(str(exc))  # (the bar's console: stderr)
                failed += 1
                continue
            found = reader(image)
            if as_json:
                sys.stdout.write(json.dumps({"image": str(path), "cards": found.to_json()}) + "\n")
                sys.stdout.flush()
            else:
                cards = ", ".join(c["card"] for c in found.to_json()) or "no cards"
                console.print(f"{path}: {cards}", highlight=False)
            if annotate_dir is not None:
                import cv2

                annotate_dir.mkdir(parents=True, exist_ok=True)
                cv2.imwrite(str(annotate_dir / _drawn_name(path, drawn)), annotate(image, found))
    if failed:
        raise typer.Exit(2)


@evaluate_app.command("models")
def evaluate_models(
    frames: Annotated[int, typer.Option(help="Held-out-design renders to score.")] = 40,
    real: Annotated[Path, typer.Option(help="The real photos (evaluation only).")] = Path("../shared/eval/real"),
    out: Annotated[Path, typer.Option(help="Folder for metrics.json, confusion.png and annotated photos.")] = Path(
        "out/eval"
    ),
    models: Annotated[Path, typer.Option()] = Path("models"),
    combine: Annotated[
        str,
        typer.Option(help="How the identifier pools a card's three views: max or sum (of log-probabilities)."),
    ] = "max",
    backend: Annotated[str, typer.Option(help="auto, int8, openvino, onnx or torch.")] = "auto",
) -> None:
    """Scores the detector and identifier on held-out deck designs and on the real photos."""
    from rich.table import Table

    from vision.evaluate import confusion_image, evaluate_real, evaluate_renders
    from vision.models import COMBINE, CardReader, ModelMissingError

    if combine not in COMBINE:
        fail(f"--combine must be one of {', '.join(COMBINE)}, got {combine!r}")
    try:
        reader = CardReader.load(models, backend=backend, combine=combine)
    except (ModelMissingError, ValueError) as exc:
        fail(str(exc))
    console.print(f"backends: detector {reader.detector.backend}, identifier {reader.identifier.backend}")
    out.mkdir(parents=True, exist_ok=True)
    with _progress("renders") as bar:
        task = bar.add_task("held-out renders", total=frames)
        renders = evaluate_renders(reader, frames, progress=lambda i, n: bar.update(task, completed=i))
    confusion_image(renders.pop("_confusion"), out / "confusion.png")
    photos = evaluate_real(reader, real, annotate_dir=out / "real") if real.is_dir() else {}
    (out / "metrics.json").write_text(json.dumps({"renders": renders, "real": photos}, indent=1), encoding="utf-8")
    table = Table(title="Card models")
    table.add_column("measure")
    table.add_column("value", justify="right")
    d = renders["detection"]
    table.add_row(
        "held-out renders: detection recall / precision (IoU 0.5)", f"{d['recall']:.3f} / {d['precision']:.3f}"
    )
    table.add_row(
        "detection recall: cards lying clear / covered",
        f"{d['recall_clear']:.3f} (n={d['clear_n']}) / {d['recall_covered']:.3f} (n={d['covered_n']})",
    )
    table.add_row(
        "detection recall by where cards lie",
        ", ".join(f"{z} {v['recall']:.2f} ({v['n']})" for z, v in d["recall_by_zone"].items()),
    )
    w = d["watching"]
    table.add_row(
        "as review/live run it (stacks kept): recall / precision",
        f"{w['recall']:.3f} / {w['precision']:.3f}; "
        + ", ".join(f"{z} {v:.2f}" for z, v in w["recall_by_zone"].items()),
    )
    table.add_row(
        "identity top-1, whole cards", f"{renders['identity_top1_whole']:.3f} (n={renders['identity_whole_n']})"
    )
    table.add_row(
        "identity top-1, index only",
        f"{renders['identity_top1_index_only']:.3f} (n={renders['identity_index_only_n']})",
    )
    table.add_row("end to end, faces read right", f"{renders['end_to_end_face_top1']:.3f}")
    for source, r in photos.items():
        backs = "-" if r["backs_counted"] is None else f"{r['backs_counted']:.2f}"
        table.add_row(
            f"real {source}: recall / precision / backs", f"{r['recall']:.3f} / {r['precision']:.3f} / {backs}"
        )
    console.print(table)
    console.print(f"wrote {out}/metrics.json, {out}/confusion.png")


@evaluate_app.command("e2e")
def evaluate_e2e(
    games: Annotated[int, typer.Option(min=1, help="Rendered games (held-out deck designs) to review.")] = 3,
    oracle: Annotated[
        bool, typer.Option("--oracle", help="Read the renderer's truth instead of running the models.")
    ] = False,
    out: Annotated[Path, typer.Option(help="Where the games and e2e.json go.")] = Path("out/e2e"),
    seed: Annotated[int, typer.Option()] = 100,
    players: Annotated[int, typer.Option(min=2, max=8)] = 4,
    seconds: Annotated[float | None, typer.Option(help="Film only the first SECONDS of each round.")] = None,
    fps: Annotated[float, typer.Option(min=1.0, help="Frames per second the chain processes.")] = 15.0,
    models: Annotated[Path, typer.Option(help="Folder with detector.pt and identifier.pt.")] = Path("models"),
    detector_size: DetectorSizeOpt = None,
    size: Annotated[
        str | None,
        typer.Option(
            help="Frame size WIDTHxHEIGHT of the rendered games (default: 1280x720 up to four players, 1920x1080 from "
            "five, whose wider tables leave a card about 32 px wide at 720p)."
        ),
    ] = None,
) -> None:
    """Renders games (every other one with injected illegal plays), reviews them through the camera chain and
    scores the result against the truth: plays, attribution, exact scores, flags, latency."""
    from vision.e2e import evaluate_game
    from vision.synth.render import render_game

    frame_size = _size(size or ("1280x720" if players <= 4 else "1920x1080"))
    reader = None
    if not oracle:
        from vision.models import CardReader, ModelMissingError

        try:
            reader = CardReader.load(models, watch=True, detector_size=detector_size)
        except (ModelMissingError, ValueError) as exc:
            fail(str(exc))
    results = []
    for g in range(games):
        game = out / f"game{g:02d}"
        inject = ("wrong-suit", "wrong-rank", "not-an-ace", "late-play") if g % 2 else ()
        if not (game / "render.json").exists():
            with _progress("rendering") as bar:
                task = bar.add_task(f"game {g + 1}/{games}", total=None)
                render_game(game, players=players, seed=seed + g, heldout=True, inject=inject, max_seconds=seconds,
                            size=frame_size, progress=lambda i, n, task=task: bar.update(task, completed=i, total=n))  # fmt: skip
        r = evaluate_game(game, reader=reader, process_fps=fps)
        results.append(r)
        console.print(
            f"game {g}: plays {r['plays']}, recall {r['recall']:.3f}, precision {r['precision']:.3f}, "
            f"attribution {r['attribution']:.3f}, scores exact {r['scores_exact']}/{r['player_rounds']}, "
            f"flags found {r['flags_found']}/{r['truth_flags']} missed {r['flags_missed']} false {r['flags_false']}, "
            f"latency {r['latency_median_ms']} ms",
            highlight=False,
        )
    plays = sum(r["plays"] for r in results)
    latencies = [r["latency_median_ms"] for r in results if r["latency_median_ms"] is not None]
    summary = {
        "games": games,
        "oracle": oracle,
        "fps": fps,
        "recall": sum(r["recall"] * r["plays"] for r in results) / max(1, plays),
        "precision": sum(r["precision"] for r in results) / len(results),
        "attribution": sum(r["attribution"] for r in results) / len(results),
        "scores_exact": sum(r["scores_exact"] for r in results) / max(1, sum(r["player_rounds"] for r in results)),
        "flags_found": sum(r["flags_found"] for r in results),
        "truth_flags": sum(r["truth_flags"] for r in results),
        "flags_false": sum(len(r["flags_false"]) for r in results),
        "injected": sum(r["injected"] for r in results),
        "injected_flagged": sum(r["injected_flagged"] for r in results),
        "latency_median_ms": sorted(latencies)[len(latencies) // 2] if latencies else None,
        "per_game": results,
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / "e2e.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    console.print(f"all: recall {summary['recall']:.3f}, precision {summary['precision']:.3f}, attribution "
                  f"{summary['attribution']:.3f}, scores exact {summary['scores_exact']:.3f}, flags found "
                  f"{summary['flags_found']}/{summary['truth_flags']} (false {summary['flags_false']}; injected illegal "
                  f"plays {summary['injected_flagged']}/{summary['injected']}), latency "
                  f"{summary['latency_median_ms']} ms; wrote {out}/e2e.json", highlight=False)  # fmt: skip


@app.command("review")
def review_cmd(
    video: Annotated[Path, typer.Argument(help="A recorded game (MP4, AVI, …) or a folder of frames.")],
    out: Annotated[Path, typer.Option("--out", help="Folder for events.jsonl, report.html, annotated.mp4.")],
    players: Annotated[
        str | None,
        typer.Option(help='Player ids and back colours, e.g. "Ann:red,Bob:blue" (default: named by colour).'),
    ] = None,
    calibration: Annotated[Path | None, typer.Option(help="A table.json from `demonref calibrate`.")] = None,
    rules: PresetOpt = "racing-demon",
    option: OptionOpt = None,
    fps: Annotated[float, typer.Option(min=1.0, help="Frames per second to process.")] = 10.0,
    models: Annotated[Path, typer.Option(help="Folder with detector.pt and identifier.pt.")] = Path("models"),
    oracle: Annotated[
        Path | None, typer.Option(help="A rendered game's truth.jsonl: read cards from it instead of the models.")
    ] = None,
    detector_size: DetectorSizeOpt = None,
) -> None:
    """Reviews a recorded game: the referee's event log, an HTML report with flags and tally, an annotated video."""
    from vision.calibrate import Calibration, CalibrationError
    from vision.capture import CaptureError
    from vision.review import ReviewError, parse_players, review

    table_rules = build_rules(rules, option)
    try:
        roster = parse_players(players)
        cal = Calibration.load(calibration) if calibration else None
    except (ReviewError, CalibrationError) as exc:
        fail(str(exc))
    if oracle is not None and not oracle.exists():
        fail(f"{oracle}: no such file")
    reader = None
    if oracle is None:
        from vision.models import CardReader, ModelMissingError

        try:
            reader = CardReader.load(models, watch=True, detector_size=detector_size)
        except (ModelMissingError, ValueError) as exc:
            fail(str(exc))
    with _progress("reviewing") as bar:
        task = bar.add_task(video.name, total=None)
        try:
            result = review(video, out, rules=rules, options=table_rules.to_options(), players=roster, calibration=cal,
                            reader=reader, truth=oracle, process_fps=fps,
                            progress=lambda i, n: bar.update(task, completed=i, total=n))  # fmt: skip
        except (CaptureError, ReviewError) as exc:
            fail(str(exc))
    for note in result.notes:
        _note(note)
    plays = sum(1 for e in result.events if type(e).__name__ == "Play")
    flags = len(result.chain.flags) if result.chain else 0
    console.print(f"{video}: {plays} plays, {flags} flags over {result.seconds:.1f} s; wrote {out}/events.jsonl, "
                  f"{out}/report.html, {out}/annotated.mp4, {out}/calibration.json", highlight=False)  # fmt: skip
    if result.partial:
        raise typer.Exit(3)


@app.command("live")
def live_cmd(
    source: Annotated[str, typer.Option(help="Camera index (0), stream URL, or a video to play at its own speed.")],
    out: Annotated[Path, typer.Option(help="Folder for this round's events.jsonl, outbox and calibration.")],
    players: Annotated[str | None, typer.Option(help='Player ids and back colours, e.g. "Ann:red,Bob:blue".')] = None,
    calibration: Annotated[Path | None, typer.Option(help="A table.json from `demonref calibrate`.")] = None,
    rules: PresetOpt = "racing-demon",
    option: OptionOpt = None,
    server: Annotated[str | None, typer.Option(help="Dashboard to feed, e.g. http://127.0.0.1:8000.")] = None,
    table: Annotated[str, typer.Option(help="The dashboard table id.")] = "table1",
    token: Annotated[
        str | None, typer.Option(envvar="DEMONREF_RIG_TOKEN", help="The table's rig token (or DEMONREF_RIG_TOKEN).")
    ] = None,
    fps: LiveFpsOpt = 15.0,
    models: Annotated[Path, typer.Option(help="Folder with detector.pt and identifier.pt.")] = Path("models"),
    detector_size: DetectorSizeOpt = None,
) -> None:
    """Referees a round live from a camera; events go to disk first, then to the dashboard (resent after a
    network loss) with the annotated camera view and a picture of each flag. Ctrl-C ends the round."""
    from demonref.outbox import Outbox, PictureSender, http_poster
    from vision.calibrate import Calibration, CalibrationError
    from vision.capture import CaptureError, Source
    from vision.live import run_live
    from vision.models import CardReader, ModelMissingError
    from vision.review import ReviewError, parse_players

    table_rules = build_rules(rules, option)
    try:
        roster = parse_players(players)
        cal = Calibration.load(calibration) if calibration else None
        reader = CardReader.load(models, watch=True, detector_size=detector_size)
        src = Source.open(source)
    except (ReviewError, CalibrationError, ModelMissingError, CaptureError, ValueError) as exc:
        fail(str(exc))
    outbox = pictures = None
    if server:
        if not token:
            fail("--server needs the table's rig token: --token or DEMONREF_RIG_TOKEN")
        outbox = Outbox(out, http_poster(server, table, token))
        pictures = PictureSender(server, table, token)

    def show(event: Event) -> None:
        console.print(f"{event.t:7.1f}s  {dumps(event)}", highlight=False, soft_wrap=True)

    try:
        chain, stats = run_live(src, out, rules=rules, options=table_rules.to_options(), players=roster,
                                calibration=cal, reader=reader, outbox=outbox, pictures=pictures, process_fps=fps,
                                pace=not src.live, on_event=show)  # fmt: skip
    except CaptureError as exc:
        fail(f"{exc} (the round so far is in {out}/events.jsonl)")
    console.print(f"processed {stats.processed} of {stats.frames} frames ({stats.fps:.1f}/s); log in {out}/events.jsonl",
                  highlight=False)  # fmt: skip
    for note in chain.notes:
        _note(note)
    _note_falling_behind(stats)
    if outbox is not None and outbox.last_error:
        _note(f"not everything reached {server} ({outbox.last_error}); it stays in {out}/outbox.jsonl")


@app.command("calibrate")
def calibrate_cmd(
    print_sheet: Annotated[
        Path | None, typer.Option("--print", help="Write a printable sheet of the four table markers (PNG).")
    ] = None,
    source: Annotated[
        str | None, typer.Option(help="Camera index, stream URL, video or image to find them in.")
    ] = None,
    out: Annotated[Path, typer.Option(help="Where to save the calibration.")] = Path("table.json"),
    corners: Annotated[
        str | None,
        typer.Option(
            help='The table\'s four corners in the image instead of markers: "x,y x,y x,y x,y" clockwise from '
            "top-left (cards more than a card's length outside them are taken as off the table)."
        ),
    ] = None,
    size: Annotated[str | None, typer.Option(help="With --corners: the rectangle's size in mm, WIDTHxHEIGHT.")] = None,
    timeout: Annotated[float, typer.Option(help="Seconds to look for the markers on a live source.")] = 20.0,
) -> None:
    """Makes the table calibration: prints the marker sheet, or finds the markers (or takes four corners) and
    saves table.json. Player seats are added at round start by review/live, and may be edited by hand."""
    import time
    from collections.abc import Iterator

    import cv2
    import numpy as np

    from vision.calibrate import CalibrationError, from_corners, from_markers, marker_sheet
    from vision.capture import IMAGE_SUFFIXES, CaptureError, Source

    if print_sheet is not None:
        try:
            marker_sheet(print_sheet)
        except CalibrationError as exc:
            fail(str(exc))
        console.print(f"wrote {print_sheet}: print at 100% scale (markers 60 mm), cut out, lay at the table's corners")
        if source is None:
            return
    if source is None:
        fail("give --source (camera index, stream, video or image) to calibrate from, or --print to make the sheet")
    still = Path(source).suffix.lower() in IMAGE_SUFFIXES
    if still:
        picture = cv2.imread(source)
        if picture is None:
            fail(f"{source}: not a readable image")
        images: Iterator[np.ndarray] = iter([picture])
    else:
        try:
            images = (frame.image for frame in Source.open(source).frames())
        except CaptureError as exc:
            fail(str(exc))
    started = time.monotonic()
    last_error = "no frame"
    for image in images:
        try:
            if corners:
                pts = [[float(v) for v in p.split(",")] for p in corners.split()]
                w, _, h = (size or "").lower().partition("x")
                if not w or not h:
                    fail("--corners needs --size WIDTHxHEIGHT in mm")
                cal = from_corners(pts, (float(w), float(h)), (image.shape[1], image.shape[0]))
            else:
                cal = from_markers(image)
        except (CalibrationError, ValueError) as exc:
            last_error = str(exc)
            if still or time.monotonic() - started > timeout:
                break
            continue
        cal.save(out)
        size_text = f"{cal.table_mm[0]:.0f}×{cal.table_mm[1]:.0f} mm" if cal.table_mm else "unknown size"
        console.print(f"wrote {out} ({cal.source}; marked rectangle {size_text})", highlight=False)
        return
    fail(f"calibration failed: {last_error}")


@app.command("serve")
def serve(
    host: Annotated[str, typer.Option(help="Address to bind (loopback unless told otherwise).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535)] = 8000,
    database: Annotated[
        str | None, typer.Option(help="SQLAlchemy URL (default: DEMONREF_DATABASE_URL or sqlite:///demonref.db).")
    ] = None,
) -> None:
    """Starts the dashboard: live tables, flags, tallies, adjudication (http://HOST:PORT)."""
    import uvicorn

    from dashboard.app import create_app
    from dashboard.settings import Settings

    settings = Settings.from_env()
    if database:
        settings = Settings(database_url=database, host=host, port=port)
    console.print(f"dashboard at http://{host}:{port}")
    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning")


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        fail(f"--size expects WIDTHxHEIGHT like 1280x720, got {text!r}")
    if not (320 <= w <= 3840 and 240 <= h <= 2160):
        fail(f"--size must be between 320x240 and 3840x2160, got {text}")
    return w, h


def _progress(description: str):  # type: ignore[no-untyped-def]
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    return Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                    console=err, transient=False)  # fmt: skip


@app.command("render-game")
def render_game_cmd(
    out: Annotated[Path, typer.Option("--out", help="Folder for game.mp4, truth.jsonl, events.jsonl, render.json.")],
    players: Annotated[int, typer.Option(min=2, max=8)] = 4,
    seed: Annotated[int, typer.Option()] = 0,
    heldout: Annotated[bool, typer.Option("--heldout", help="Use only held-out deck designs.")] = False,
    inject: Annotated[str, typer.Option(help="Illegal plays to inject, comma-separated.")] = "",
    rules: PresetOpt = "racing-demon",
    option: OptionOpt = None,
    fps: Annotated[int, typer.Option(min=15, max=30)] = 15,
    size: Annotated[str, typer.Option(help="Frame size WIDTHxHEIGHT.")] = "1280x720",
    markers: Annotated[bool, typer.Option("--markers/--no-markers", help="Draw the ArUco calibration markers.")] = True,
    seconds: Annotated[float | None, typer.Option(help="Render only the first SECONDS of the round.")] = None,
) -> None:
    """Renders a simulated round as an overhead video with per-frame ground truth."""
    from vision.synth.render import RenderError, render_game

    r = build_rules(rules, option)
    kinds = [k.strip() for k in inject.split(",") if k.strip()]
    frame_size = _size(size)
    with _progress("rendering") as bar:
        task = bar.add_task("rendering", total=None)
        try:
            summary = render_game(out, players=players, seed=seed, heldout=heldout, inject=kinds, rules=r, fps=fps,
                                  size=frame_size, markers=markers, max_seconds=seconds,
                                  progress=lambda i, n: bar.update(task, completed=i, total=n))  # fmt: skip
        except (RenderError, SimulationError) as exc:
            fail(str(exc))
    console.print(
        f"wrote {out}/game.mp4 ({summary['frames']} frames, {summary['seconds']}s at {fps} fps, rendered at "
        f"{summary['render_fps']} frames/s), truth.jsonl, events.jsonl, render.json",
        highlight=False,
    )


@dataset_app.command("build")
def dataset_build(
    kind: Annotated[str, typer.Option(help="detect (oriented boxes: card, back) or identify (52 identities).")],
    frames: Annotated[int, typer.Option(min=1, help="Rendered frames to build from.")],
    out: Annotated[Path, typer.Option("--out")],
    seed: Annotated[int, typer.Option()] = 0,
    max_width: Annotated[int, typer.Option(help="Detection frames are rendered at most this wide.")] = 1280,
    workers: Annotated[int, typer.Option(min=1, help="Processes rendering in parallel (same files either way).")] = 1,
    detector: Annotated[
        Path | None,
        typer.Option(help="identify: also crop the faces these detector weights find, cut as the chain cuts them."),
    ] = None,
    widths: Annotated[
        str, typer.Option(help="identify: frame widths crops are cut from, one drawn per frame (comma-separated).")
    ] = "",
    min_card_px: Annotated[int | None, typer.Option(help="identify: narrower cards (px) are not cropped.")] = None,
) -> None:
    """Builds (or resumes) a YOLO dataset from rendered scenes; held-out designs only in the test split."""
    from vision.synth.dataset import IDENTIFY_WIDTHS, MIN_CARD_PX, DatasetError, build

    try:
        sizes = tuple(int(w) for w in widths.split(",")) if widths.strip() else IDENTIFY_WIDTHS
    except ValueError:
        fail(f"--widths must be whole numbers separated by commas, got {widths!r}")
    with _progress("building") as bar:
        task = bar.add_task(f"{kind} frames", total=frames)
        try:
            summary = build(out, kind=kind, frames=frames, seed=seed, max_width=max_width, workers=workers,
                            detector=detector, widths=sizes, min_card_px=min_card_px or MIN_CARD_PX,
                            progress=lambda i, n: bar.update(task, completed=i))  # fmt: skip
        except DatasetError as exc:
            fail(str(exc))
    console.print(f"{out}: {summary['splits']}", highlight=False)


@dataset_app.command("preview")
def dataset_preview(
    out: Annotated[Path, typer.Option("--out", help="The contact sheet (PNG).")] = Path("sheet.png"),
    renders: Annotated[int, typer.Option(help="Rendered frames on the sheet.")] = 6,
    seed: Annotated[int, typer.Option()] = 0,
    real: Annotated[
        Path, typer.Option(help="Real photos to show beside the renders (looked at, never trained on).")
    ] = Path("../shared/eval/real"),
) -> None:
    """A contact sheet of renders beside real photos, for judging realism by eye."""
    from vision.synth.preview import contact_sheet

    path = contact_sheet(out, renders=renders, seed=seed, real_dir=real)
    console.print(f"wrote {path}")


def main() -> None:  # pragma: no cover
    app()
