"""`python -m rscount.cli`: the rscount command."""

import sys

from .main import main

sys.exit(main())
