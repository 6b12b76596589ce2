"""mkdocs hook: the committed figures under results/ join the site at the same place relative to the pages.

A page in docs/ shows a figure as `![...](../results/default/plots/NAME.png)`: on GitHub that path is the file
itself, and this hook makes the built site hold the same file at the same relative path, so one link works in
both and `mkdocs build --strict` checks it. Tournament working folders (`results/NAME/run/`) are left out.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files, InclusionLevel

RESULTS = Path(__file__).resolve().parent.parent / "results"


def on_files(files: Files, config: Any) -> Files:
    for path in sorted(RESULTS.glob("*/**/*.png")):
        if "run" in path.relative_to(RESULTS).parts:
            continue
        uri = path.relative_to(RESULTS.parent).as_posix()
        site = (config["site_dir"], config["use_directory_urls"])
        # INCLUDED: mkdocs would otherwise drop the file as hidden, its source path starting with "."
        files.append(File(f"../{uri}", config["docs_dir"], *site, dest_uri=uri, inclusion=InclusionLevel.INCLUDED))
    return files
