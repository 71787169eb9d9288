"""`python -m rscount`: the rscount command."""

import sys

from .cli.main import main

sys.exit(main())
