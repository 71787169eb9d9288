"""The one exception type for user errors: the CLI prints it as one line and exits with code 2."""


class RscountError(Exception):
    """A problem with the user's input (file, field, flag); its message names where it is."""
