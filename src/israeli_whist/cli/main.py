"""The ``whist`` command: play, rules, check, analyze, serve, tournament, selfplay, train, event."""

from __future__ import annotations

import random
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console

import israeli_whist
from israeli_whist.bots.players.registry import LEVEL_HELP, check_level
from israeli_whist.cli.analyze import run_analyze
from israeli_whist.cli.check import run_check
from israeli_whist.cli.errors import WhistGroup, cannot_run
from israeli_whist.cli.errors import usage_error as refuse
from israeli_whist.cli.event import EventLevel, event_app
from israeli_whist.cli.options import PresetOption, RuleOptions, build_game, default_bot_level
from israeli_whist.cli.play import TerminalGame
from israeli_whist.cli.review import DEALS_RANGE, DEFAULT_REVIEW, PAR_PLAYOUTS_RANGE, review_settings, run_review
from israeli_whist.cli.rulesinfo import all_rules
from israeli_whist.cli.selfplay import selfplay
from israeli_whist.cli.session import Seats, make_seats, save_record
from israeli_whist.cli.tournament import tournament
from israeli_whist.cli.train import train
from israeli_whist.cli.views import DelayOption, View, ViewOption, default_view, full_screen
from israeli_whist.cli.watch import watch as watch_game
from israeli_whist.core.errors import WhistError
from israeli_whist.core.games import GAMES
from israeli_whist.core.match import Match
from israeli_whist.core.names import normal_name
from israeli_whist.server.settings import LOG_LEVELS, RateLimits, ServerSettings, allowed_origins

app = typer.Typer(
    name="whist",
    help="Israeli Whist, Classic Whist and Whistiti: in the terminal against bots, or in the browser (whist serve).",
    add_completion=False,
    cls=WhistGroup,
    # Click's plain help: flags shown as flags, not "<bool>", paragraphs wrapped at the terminal's
    # width (click stops at 80 columns unless told a wider maximum), the same with every Typer version.
    rich_markup_mode=None,
    context_settings={"max_content_width": 200},
)


# The games the command line offers are the registry's, so a new game needs no line here.
GameName = StrEnum("GameName", {name: name for name in GAMES})  # type: ignore[misc]  # members from the registry
FIRST_GAME = GameName("israeli")


LogLevel = StrEnum("LogLevel", {name: name for name in LOG_LEVELS})  # type: ignore[misc]  # from the settings
INFO = LogLevel("info")
DAILY_LEVEL = EventLevel(ServerSettings.daily_bot_level)
MAX_BOT_WORKERS = 512  # processes: more is a typo, and would start that many


def show_version(value: bool) -> None:
    if value:
        typer.echo(f"whist {israeli_whist.__version__}")
        raise typer.Exit()


def usage_error(message: str, command: str = "play") -> NoReturn:
    refuse(message, f"whist {command}")


@app.callback(invoke_without_command=True)
def root(
    ctx: typer.Context,
    version: Annotated[bool, typer.Option("--version", help="Show the version and exit.", is_eager=True,
                                          callback=show_version)] = False,
) -> None:
    """Israeli Whist, Classic Whist and Whistiti in the terminal, against bots."""
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit()


HANDS_HELP = ("Israeli Whist: the number of hands (same as --option hands=N). Whistiti: play only the first N "
              "hands of the schedule (--hands 3 deals 1, 2, then 3 cards). Classic Whist is played to a target "
              "score, so --hands is refused there: use --option target=N.")
PLAYERS_HELP = ("Whistiti: 3 to 7. Israeli Whist: 3 plays without the clubs (form three_no_clubs) unless "
                "--preset or --option form chooses another three-player form. Classic Whist: 4 only.")


@app.command()
def play(
    game: Annotated[GameName, typer.Option("--game", "-g", help="The game.")] = FIRST_GAME,
    preset: PresetOption = None,
    option: RuleOptions = None,
    seed: Annotated[int | None, typer.Option(
        help="Seed of the deals and the bots; random by default, and printed so that a game can be replayed.")
    ] = None,
    hands: Annotated[int | None, typer.Option(min=1, help=HANDS_HELP)] = None,
    players: Annotated[int | None, typer.Option(min=3, max=7, help=PLAYERS_HELP)] = None,
    bots: Annotated[str | None, typer.Option(
        help=f"The bots' level (default: basic): {LEVEL_HELP}.")] = None,
    save: Annotated[Path | None, typer.Option(
        dir_okay=False, help="Write the game record (JSON) to FILE at the end, or when you leave early.")] = None,
    watch: Annotated[bool, typer.Option(
        "--watch", help="No human: bots play every seat; each hand and the score sheet are printed.")] = False,
    name: Annotated[str, typer.Option(help="Your name at the table.")] = "You",
    view: ViewOption = None,
    delay: DelayOption = 0.8,
    hints: Annotated[bool, typer.Option(
        "--hints/--no-hints",
        help="Whether you may ask for a hint at your turn (type hint, or F4 in the table): the expert's top "
             "choices with the points each is expected to bring. A saved game lists the hints used.")
    ] = True,
) -> None:
    """Play a game: you in the first seat, bots in the others (or --watch the bots).

    Each prompt lists the legal choices: type a card (QH, 10c, Q♥ or its number), a call (pass, 5S, 7NT) or a number.

    In a Frisch, choose the three cards one at a time or all three on one line (2 5 9, or QH 10C 2S).

    At any prompt: help, hand, last, score, rules, hint, quit. Ctrl-D and Ctrl-C leave too (saving with --save).
    """
    try:
        hand_game = build_game(game.value, preset, option or (), players, hands)
        level = check_level(bots or default_bot_level())
        name = normal_name(name)
    except WhistError as error:
        usage_error(str(error))
    if save is not None:
        check_save(save)
    if seed is None:
        seed = random.randrange(1_000_000)
    console = Console(highlight=False)
    console.print(f"Seed {seed} (replay this game with --seed {seed})")
    match = Match.start(hand_game, seed)
    seats = make_seats(match, level, seed, None if watch else name)
    shown_as = view or default_view()
    if watch and shown_as == View.plain:
        raise typer.Exit(watch_game(match, seats, console, save))
    if not watch:
        console.print(f"{hand_game.title}: {seats.names[seats.human]} against {hand_game.players - 1} {level} bots.",
                      markup=False)
    if shown_as == View.table:  # watched there too: the same table, seen from no seat
        raise typer.Exit(play_full_screen(match, seats, console, save, delay, hints))
    if sys.stdin.isatty():
        import readline  # noqa: F401  (line editing and history for input(); only where there is a terminal)
    raise typer.Exit(TerminalGame(match, seats, console, input, save, hints).run())


def check_save(save: Path) -> None:
    """Refuse a --save that could not be written, before the game rather than at its end: the
    file is opened for appending (which changes nothing in a file already there) and a file
    made for the trial is removed."""
    if not save.parent.is_dir():
        usage_error(f"Cannot save to {save}: no folder {save.parent}")
    existed = save.exists()
    try:
        with save.open("a", encoding="utf-8"):
            pass
    except OSError as error:
        usage_error(f"Cannot save to {save}: {error.strerror or error}")
    if not existed:
        save.unlink()


def play_full_screen(match: Match, seats: Seats, console: Console, save: Path | None, delay: float,
                     hints: bool = True) -> int:
    game, code = full_screen(match, seats, console, delay, hints)
    if save is not None and not save_record(console, game.match, seats, save, game.hints_used):
        code = code or 1
    return code


@app.command()
def rules(game: Annotated[GameName | None, typer.Argument(help="Only this game.")] = None) -> None:
    """List every rule option (default, allowed values, help) and every preset."""
    Console(highlight=False).print(all_rules(game.value if game else None))


@app.command()
def check(
    file: Annotated[Path, typer.Argument(help="A game record (JSON), as written by play --save.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON object instead of tables.")] = False,
) -> None:
    """Replay a game record, checking every action; print each hand's points and the totals."""
    raise typer.Exit(run_check(file, as_json, Console(highlight=False)))


@app.command()
def analyze(
    file: Annotated[Path, typer.Argument(help="A game record (JSON), as written by play --save.")],
    hand: Annotated[int | None, typer.Option(min=1, help="Only this hand (its number in the record).")] = None,
    max_tricks: Annotated[int | None, typer.Option(
        min=0, max=17, help="Analyse the cards played with at most N tricks left; earlier ones are not analysed "
                            "(default: the whole hand; 5 in Israeli Whist and Whistiti without the compiled search).")
    ] = None,
    bot: Annotated[str | None, typer.Option(
        help=f"The bot whose calls and bids are compared (default: expert): {LEVEL_HELP}.")] = None,
    review: Annotated[bool, typer.Option(
        "--review", help="Review every decision in expected points from what its seat knew: accuracy, cost by kind "
                         "of decision, verdicts, the costliest decisions, and where each hand's points went.")
    ] = False,
    deals: Annotated[int | None, typer.Option(
        min=DEALS_RANGE[0], max=DEALS_RANGE[1],
        help=f"With --review: deals drawn to value each decision (default {DEFAULT_REVIEW.deals}).")] = None,
    par_playouts: Annotated[int | None, typer.Option(
        min=PAR_PLAYOUTS_RANGE[0], max=PAR_PLAYOUTS_RANGE[1],
        help="With --review: times each deal is played by expert bots for its par; 0 for no par "
             f"(default {DEFAULT_REVIEW.par_playouts}).")] = None,
    seed: Annotated[int | None, typer.Option(
        min=0, help="With --review: the seed of the deals drawn, for the same review again (default 0).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON object instead of tables.")] = False,
) -> None:
    """Analyse a saved game: the errors in each card played and what they cost, and the bids a bot would make;
    or with --review, every decision's cost in expected points."""
    console = Console(highlight=False)
    if review:
        for name, given in (("--max-tricks", max_tricks), ("--bot", bot)):
            if given is not None:
                refuse(f"{name} is for the analysis, not --review", "whist analyze")
        try:
            settings = review_settings(deals, par_playouts)
        except ValueError as error:
            refuse(str(error), "whist analyze")
        raise typer.Exit(run_review(file, hand, settings, seed or 0, as_json, console))
    for name, given in (("--deals", deals), ("--par-playouts", par_playouts), ("--seed", seed)):
        if given is not None:
            refuse(f"{name} is for --review", "whist analyze")
    raise typer.Exit(run_analyze(file, hand, max_tricks, bot or "expert", as_json, console))


@app.command()
def serve(
    host: Annotated[str, typer.Option(envvar="WHIST_HOST", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(envvar="WHIST_PORT", min=1, max=65535, help="Port to listen on.")] = 8000,
    database_url: Annotated[str | None, typer.Option(
        envvar="WHIST_DATABASE_URL",
        help="SQLAlchemy URL of the database, e.g. postgresql://user:pass@host/whist; "
             "default: a SQLite file in $WHIST_DATA_DIR (~/.local/share/whist).")] = None,
    grace: Annotated[float, typer.Option(
        envvar="WHIST_GRACE", min=0,
        help="Seconds before a bot plays for a player who left.")] = ServerSettings.grace_seconds,
    bot_delay: Annotated[float, typer.Option(
        envvar="WHIST_BOT_DELAY", min=0,
        help="Seconds a bot waits before each move (twice that after a trick, four times at a new hand, "
             "for the pages to show them).")] = ServerSettings.bot_delay,
    bot_workers: Annotated[int | None, typer.Option(
        envvar="WHIST_BOT_WORKERS", min=0, max=MAX_BOT_WORKERS,
        help="Processes the bots and the analyses run in; 0: threads of the web process. Default: one per core.")
    ] = None,
    bot_deadline: Annotated[float, typer.Option(
        envvar="WHIST_BOT_DEADLINE", min=0.1, max=3600,
        help="Seconds a bot may think before the basic bot moves for it.")] = ServerSettings.bot_deadline,
    ray_address: Annotated[str | None, typer.Option(
        envvar="WHIST_RAY_ADDRESS",
        help="Think on a Ray cluster (e.g. ray://head:10001, or auto) instead of local bot workers; "
             "needs the rl extra.")] = None,
    node_name: Annotated[str | None, typer.Option(
        envvar="WHIST_NODE_NAME",
        help="This server's name among several on one PostgreSQL (default: host, process id and a random tail).")
    ] = None,
    lease_seconds: Annotated[float, typer.Option(
        envvar="WHIST_LEASE_SECONDS", min=1, max=3600,
        help="With several servers on one PostgreSQL: seconds after a server's last sign of life before "
             "another takes its tables over.")] = ServerSettings.lease_seconds,
    log_level: Annotated[LogLevel, typer.Option(envvar="WHIST_LOG_LEVEL", case_sensitive=False,
                                                help="What the JSON log on stderr holds.")] = INFO,
    secure_cookies: Annotated[bool, typer.Option(
        envvar="WHIST_SECURE_COOKIES", help="Send the session cookie over HTTPS only (behind a TLS proxy).")] = False,
    allowed_origin: Annotated[list[str] | None, typer.Option(
        "--allowed-origin", envvar="WHIST_ALLOWED_ORIGINS", metavar="URL",
        help="An origin whose pages may use this server besides its own (the scheme and Host it is reached "
             "by): the public address of a proxy that rewrites the Host or ends TLS, e.g. "
             "https://whist.example; repeatable, or comma separated in the variable.")] = None,
    limit: Annotated[list[str] | None, typer.Option(
        "--limit", metavar="KIND=SESSION,ADDRESS,SECONDS",
        help="Change a rate limit; repeatable. KIND: tables, guests, accounts, logins, analyses (game "
             "analyses not yet known) or chat (a user's messages at a table); e.g. tables=10,30,60 "
             "(10 new tables a session and 30 an address in any 60 seconds), or logins=off. Defaults: "
             f"{RateLimits().specs()}.")] = None,
    rate_limits: Annotated[bool, typer.Option(
        envvar="WHIST_RATE_LIMITS",
        help="Rate limits on new tables, guests, accounts, sign-in attempts, analyses and chat (off: a private "
             "server, a benchmark).")] = True,
    max_open_tables: Annotated[int, typer.Option(
        envvar="WHIST_MAX_OPEN_TABLES", min=0,
        help="Unfinished tables one player may have made; 0: no cap.")] = ServerSettings.max_open_tables or 0,
    daily_level: Annotated[EventLevel, typer.Option(
        envvar="WHIST_DAILY_LEVEL", case_sensitive=False,
        help="The bots of the daily duplicate event.")] = DAILY_LEVEL,
) -> None:
    """Start the web app: tables in the browser with friends and bots (http://127.0.0.1:8000).
    Every option can also be set by the environment variable named in its help."""
    from israeli_whist.server.run import CannotStart, run_server

    try:
        limits = (RateLimits() if rate_limits else RateLimits.off()).changed(limit or ())
        origins = allowed_origins(allowed_origin or ())
    except ValueError as error:
        usage_error(str(error), "serve")
    try:
        run_server(host, port, database_url, grace, bot_delay, log_level.value, secure_cookies, limits,
                   max_open_tables or None,
                   bot_workers=bot_workers,
                   bot_deadline=bot_deadline, ray_address=ray_address, node_name=node_name,
                   lease_seconds=lease_seconds, allowed_origins=origins, daily_bot_level=daily_level.value)
    except CannotStart as error:
        cannot_run(str(error))


app.command()(tournament)
app.command()(selfplay)
app.command()(train)
app.add_typer(event_app)


def main() -> None:
    app(prog_name="whist")
