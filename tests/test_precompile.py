"""The precompile step's jobs are command lines the parser takes, for registered games, and
every library job has its function (``make test`` runs them before the suite: a job that
no longer parses would fail it there, without saying why)."""

from pathlib import Path

from gamecore import games, precompile
from gamecore.arguments import build_parser


def test_every_job_is_a_command_line_the_parser_takes():
    parser = build_parser()
    names = {game.name for game in games.all_games()}
    for job, commands in precompile.JOBS.items():
        if job.startswith("library:"):
            assert job in precompile.LIBRARY and commands == ()
            continue
        assert commands, job
        for words in commands:
            args = parser.parse_args(precompile.command_line(words))
            assert args.game in names, words


def test_the_charts_it_names_are_files_of_the_package():
    words = [w for commands in precompile.JOBS.values() for c in commands for w in c]
    charts = [w for w in precompile.command_line(words) if w.endswith(".csv")]
    assert len(charts) == sum(w.startswith("@") for w in words) > 0
    for chart in charts:
        assert Path(chart).is_file() and Path(chart).parent.name == "charts"


def test_every_registered_game_has_a_job():
    names = precompile.job_names()
    assert names[: len(precompile.JOBS)] == list(precompile.JOBS)  # the long ones first
    assert {f"game:{game.name}" for game in games.all_games()} <= set(names)
