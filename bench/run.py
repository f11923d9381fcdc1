"""`make bench`: run every benchmark script in bench/ (bench_*.py) in name order."""
import runpy
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here))          # the scripts' shared helpers (bench/timing.py)
scripts = sorted(here.glob("bench_*.py"))
if not scripts:
    sys.exit("no benchmarks found in bench/")
for script in scripts:
    print(f"\n=== {script.name} ===", flush=True)
    runpy.run_path(str(script), run_name="__main__")
