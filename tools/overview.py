"""Write the collection overview (figures/README.md, and the table at the end of README.md)
from what the notebooks recorded; `make all` runs it after the notebooks."""
from pathlib import Path

from cvrepro.reporting import write_overview

ROOT = Path(__file__).resolve().parents[1]

if __name__ == "__main__":
    write_overview(ROOT / "figures", ROOT / "README.md")
    print(f"wrote {ROOT / 'figures' / 'README.md'}")
