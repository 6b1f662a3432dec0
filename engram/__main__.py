"""`python -m engram`: the same entry point as the console script."""

from engram.entry import main

raise SystemExit(main())
