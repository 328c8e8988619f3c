"""Regenerate the technology vocabulary committed in governance/privacy/data (see governance.privacy.vocabulary)."""

from pathlib import Path

from django.core.management.base import BaseCommand

from governance.privacy.vocabulary import build, write

DEFAULT_PYPI_LIST = "/work/.library/env/packages/pypi.tsv"


class Command(BaseCommand):
    help = ("Build the technology vocabulary (names of products, tools, formats, operating systems; file extensions) "
            "from the installed Python distributions, a ranked PyPI list and the Debian package database.")

    def add_arguments(self, parser):
        parser.add_argument("--pypi-list", default=DEFAULT_PYPI_LIST,
                            help="TSV: name, version, month, rank, summary (only ranked rows are read)")
        parser.add_argument("--dpkg-status", default="/var/lib/dpkg/status")
        parser.add_argument("--dpkg-info", default="/var/lib/dpkg/info")

    def handle(self, *args, **o):
        terms, extensions, common = build(pypi_list=Path(o["pypi_list"]), dpkg_status=Path(o["dpkg_status"]),
                                  dpkg_info=Path(o["dpkg_info"]))
        write(terms, extensions, common)
        self.stdout.write(f"{len(terms)} terms, {len(extensions)} file extensions, {len(common)} common words written")
