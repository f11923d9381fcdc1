"""Write the collection overview from what the notebooks recorded: `make all` runs it after the notebooks.

Writes ``build/overview.md`` (not tracked, so `make all` leaves a clone's tracked files as they are).
``--readme`` also replaces the claims table at the end of README.md (``make overview``: do it when
you mean to commit the table).
"""
import sys
from pathlib import Path

from cvrepro.reporting import write_overview

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "build" / "overview.md"

if __name__ == "__main__":
    readme = ROOT / "README.md" if "--readme" in sys.argv[1:] else None
    write_overview(ROOT / "figures", readme, TARGET)
    print(f"wrote {TARGET.relative_to(ROOT)}" + (" and README.md's claims table" if readme else ""))
