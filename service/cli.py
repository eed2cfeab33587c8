"""`umpire`: serve the API, verify and replay bundles, export a game's bundle from a database."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

app = typer.Typer(help="Naval Umpire: an event-sourced rules server for naval wargames.", no_args_is_help=True)
console = Console()


@app.command()
def serve(
    db: str = typer.Option("umpire.db", help="SQLite file (created if absent)"),
    host: str = typer.Option("127.0.0.1"),
    port: int = typer.Option(8000),
) -> None:
    """Start the HTTP API."""
    import uvicorn

    from service.app import create_app

    console.print(
        f"Naval Umpire on [bold]http://{host}:{port}[/] — API docs at http://{host}:{port}/docs — database {db}"
    )
    uvicorn.run(create_app(db), host=host, port=port, log_level="info")


def _read_bundle(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as e:
        console.print(f"[red]cannot read {path}: {e.strerror}[/]")
        raise typer.Exit(2)


@app.command("verify")
def verify_cmd(bundle: Path = typer.Argument(..., help="a bundle JSON file")) -> None:
    """Check a bundle's chain, dice and replay. Exit 0 only if all three pass."""
    from service.replay import verify

    report = verify(_read_bundle(bundle))
    table = Table(title=f"{bundle} — game {report['game']}")
    table.add_column("check")
    table.add_column("result")
    table.add_column("detail", overflow="fold")
    colours = {"pass": "green", "fail": "red", "skipped": "yellow"}
    for name, check in report["checks"].items():
        table.add_row(name, f"[{colours[check['status']]}]{check['status']}[/]", check["detail"])
    console.print(table)
    console.print(f"verdict: [bold]{report['verdict']}[/]")
    raise typer.Exit(0 if report["verdict"] == "verified" else 1)


@app.command()
def replay(bundle: Path = typer.Argument(..., help="a bundle JSON file")) -> None:
    """Re-run a bundle's commands on this engine; show the first divergence as a diff of bodies."""
    from events.bundle import decode_bundle
    from service.replay import replay as run_replay

    b = decode_bundle(_read_bundle(bundle))
    if b.dice.server_seed is None:
        console.print("[yellow]the bundle's server seed is not revealed; a replay needs it (reveal the game first)[/]")
        raise typer.Exit(2)
    result, _ = run_replay(b, bytes.fromhex(b.dice.server_seed))
    if result["status"] == "pass":
        console.print(f"[green]{result['detail']}[/]")
        raise typer.Exit(0)
    console.print(f"[red]{result['detail']}[/]")
    for d in result.get("diff", []):
        console.print(
            f"  {d['path']}: [red]- {json.dumps(d['recorded'], ensure_ascii=False)}[/]  "
            f"[green]+ {json.dumps(d['replayed'], ensure_ascii=False)}[/]"
        )
    if "recorded" in result:
        console.print("recorded:", json.dumps(result["recorded"], ensure_ascii=False, sort_keys=True))
        console.print("replayed:", json.dumps(result["replayed"], ensure_ascii=False, sort_keys=True))
    raise typer.Exit(1)


@app.command()
def export(
    game_id: str = typer.Argument(...),
    db: str = typer.Option("umpire.db", help="the SQLite file the server uses"),
    out: Path | None = typer.Option(None, help="write here instead of standard output"),
) -> None:
    """Write a game's bundle from a database."""
    from domain.engine import Rejected
    from events.store import Store
    from service.games import GameService

    if not Path(db).exists():
        console.print(f"[red]no database at {db}[/]")
        raise typer.Exit(2)
    try:
        bundle = GameService(Store(db)).bundle(game_id)
    except Rejected as e:
        console.print(f"[red]{e.detail}[/]")
        raise typer.Exit(2)
    text = json.dumps(bundle, ensure_ascii=False, indent=1)
    if out:
        out.write_text(text + "\n", encoding="utf-8")
        console.print(f"wrote {out}")
    else:
        sys.stdout.write(text + "\n")


@app.command()
def simulate(
    ruleset: str = typer.Argument("corvette-command"),
    games: int = typer.Option(100, min=1, help="how many games"),
    seed: int = typer.Option(1, help="the simulation seed (each game's server seed derives from it)"),
    convoys: int = typer.Option(1, min=1, help="corvette-command: convoys per campaign"),
    options: str = typer.Option("{}", help="more game options as JSON"),
) -> None:
    """Play N games in-process with the ruleset's bot and print the distribution of the results."""
    import time

    from rich.progress import Progress

    from service.simulate import corvette_summary, play, seed_for

    if ruleset != "corvette-command":
        console.print("[red]simulate knows corvette-command so far[/]")
        raise typer.Exit(2)
    try:
        opts = {"convoys": convoys, **json.loads(options)}
    except ValueError as e:
        console.print(f"[red]--options is not JSON: {e}[/]")
        raise typer.Exit(2)
    if opts.get("quick_play"):
        opts.pop("convoys", None)
    played = []
    started = time.perf_counter()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"{ruleset}", total=games)
        for i in range(games):
            played.append(play(ruleset, opts, seed_for(seed, i), game_id=f"sim-{seed}-{i}"))
            progress.advance(task)
    elapsed = time.perf_counter() - started
    table = Table(title=f"{games} games of {ruleset}, seed {seed}, options {json.dumps(opts)}")
    for col in ("figure", "mean", "p5", "p25", "median", "p75", "p95", "min", "max"):
        table.add_column(col, justify="left" if col == "figure" else "right")
    for name, q in corvette_summary(played).items():
        table.add_row(
            name,
            *(
                f"{q[k]:,.1f}" if k == "mean" else f"{q[k]:,.0f}"
                for k in ("mean", "p5", "p25", "median", "p75", "p95", "min", "max")
            ),
        )
    console.print(table)
    sunk = sum(1 for g in played if any(sh.hull >= 3 for sh in g.rules.sheets.values()))
    convoys_done = sum(len(g.rules.log) for g in played)
    console.print(
        f"corvettes sunk: {sunk} of {games}; convoys escorted: {convoys_done}; "
        f"{games / elapsed:,.1f} games/s ({convoys_done / elapsed:,.1f} convoys/s) on one core"
    )


if __name__ == "__main__":
    app()
