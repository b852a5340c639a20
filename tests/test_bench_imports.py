"""`make bench` is not part of `make test` (timing lives there, never in tests), so nothing
else would notice the bench script breaking: its imports once named a function the report
build had dropped, and the bench failed at its first line for a whole issue. This runs the
script as far as its argument parser, which needs every import, and the page writer on a
small made-up run (no timing)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_bench_script_imports_and_parses_its_arguments():
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench.py"), "--help"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "--performance" in result.stdout


def test_the_performance_page_lays_out_every_kind_of_figure(tmp_path):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import performance
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    results = {
        "fast_case": {"seconds": 0.004, "reference_seconds": 0.4, "target_seconds": 0.005},
        "slow_case": {"seconds": 3.0, "reference_seconds": None, "target_seconds": 2.0},
        "paired": {
            "reference": "a reference",
            "reference_seconds": 0.2,
            "seconds": 0.1,
            "ratio": 0.5,
            "target_ratio": 1.0,
        },
        "skipped_case": {"skipped": "g++ not found"},
        "process": {
            "seconds": 1.2,
            "seconds_range": [1.1, 1.4],
            "peak_mb": 250.0,
            "target_seconds": 1.5,
            "target_peak_mb": 300,
        },
    }
    page = tmp_path / "performance.md"
    performance.write(results, page)
    text = page.read_text()
    assert "| fast_case | 4.00 ms | 0.400 s | 100x | 5.00 ms | yes |" in text
    assert "| slow_case | 3.000 s |  |  | 2.000 s | **no** |" in text
    assert "| paired | 0.500 | 1.0 | yes |" in text
    assert "| skipped_case | | | skipped | g++ not found |" in text
    assert "| process | 1.200 s (1.10-1.40 s) | 250 MB | 1.5 s, 300 MB |" in text
    assert "| cores |" in text and "| commit |" in text and "| date (UTC) |" in text
