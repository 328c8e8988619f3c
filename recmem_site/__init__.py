"""RecMem Django project: settings, URLs, embedded database start-up and the `recmem` command line."""
