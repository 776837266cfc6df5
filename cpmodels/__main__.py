"""`python -m cpmodels`: the same as the `cpmodels` command."""

from .cli import main_exit

main_exit()
