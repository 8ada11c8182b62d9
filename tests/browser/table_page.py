"""The table page in a real browser: Debian's Chromium (its headless shell), driven by Playwright.

Runs against a service already listening at BASE_URL (see `.ci/page`, which starts one on a fresh
database). The walks live in the `page_*.py` modules beside this file, each listing its `STEPS`
(functions of the browser, which open their own phones); they run in the modules' name order.
Every screen is checked with axe-core and photographed at a phone's width and at 1280 px into
target/browser/. Any request to a host other than this machine is blocked and fails the run.
"""

import importlib
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

import page_kit
from page_kit import AXE, CHROMIUM, LAUNCH_ARGS, SHOTS

HERE = Path(__file__).resolve().parent


def main() -> int:
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert AXE.exists(), f"{AXE} is missing: run `npm ci` in tests/browser"
    # `--share=K/N`, or `--share=K,L/N`: the K-th (and L-th) of N shares of the modules (every
    # N-th, from the K-th), so that CI runs the walks in two lanes at once and a new module always
    # lands in one of them.
    share = next((arg.split("=", 1)[1] for arg in sys.argv[1:] if arg.startswith("--share=")), "1/1")
    these, shares = share.split("/")
    taken = {int(this) - 1 for this in these.split(",")}
    wanted = [arg for arg in sys.argv[1:] if not arg.startswith("--share=")]  # module or step names, e.g. `page_table` or `spectate`
    modules = [importlib.import_module(path.stem) for path in sorted(HERE.glob("page_*.py")) if path.stem != "page_kit"]
    modules = [module for index, module in enumerate(modules) if index % int(shares) in taken]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS, headless=True)
        try:
            for module in modules:
                started = time.monotonic()
                steps = [step for step in module.STEPS
                         if not wanted or module.__name__ in wanted or step.__name__ in wanted]
                for step in steps:
                    print(f"{module.__name__}.{step.__name__}", flush=True)
                    step(browser)
                if steps:
                    # What each module takes, to lay out CI's shares (docs/testing.md).
                    print(f"{module.__name__}: {time.monotonic() - started:.1f} s", flush=True)
        finally:
            browser.close()
    assert not page_kit.blocked, f"requests that would have left the machine: {page_kit.blocked}"
    assert not page_kit.page_errors, "errors in the page:\n" + "\n".join(page_kit.page_errors)
    print(f"table page: all screens pass; screenshots in {SHOTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
