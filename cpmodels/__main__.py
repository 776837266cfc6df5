"""`python -m cpmodels`: the same as the `cpmodels` command."""

import sys

from .cli import main

sys.exit(main())
